import AudioEngine
import Parameters
import Platform
import LV2
import Presets

/// A plug-in's state kept beside the file that names it: the state and copies of the files it
/// refers to in a folder next to a preset (`Hall.json`, `Hall.state/`) or a session file
/// (`detent.json`, `detent.state/`); a chain's slots each in a folder of their own inside it
/// (`Mix.state/conv/`). The file names the folder relative to itself, so the two move together.
///
/// Nothing is half-written, and a file never names a folder that is not whole: the state goes
/// into a hidden folder first, which then takes the folder's name in one step (swapped with the
/// one before, `renameat2`'s exchange), and only then is the file that names it written
/// (atomically, by the caller); should that fail, the two folders swap back. A save killed
/// midway leaves its hidden folder, which the next save in the same place removes.
package enum StateFolder {
    /// Writes the state of `processor`'s plug-ins (their files and state as set) into the
    /// folder `name` in `directory`, handing the state, named relative to `directory`, to
    /// `commit` — which writes the file that refers to it — and returns what `commit` returned.
    ///
    /// - Throws: `failure` of a reason when the state cannot be written or take its name,
    ///   with nothing left behind; whatever `commit` throws, the old folder back in place.
    package static func write<Result, Failure: Error>(_ processor: Processor, in directory: String, name: String,
                                              failure: (String) -> Failure,
                                              commit: (SavedState) throws(Failure) -> Result) throws(Failure) -> Result {
        AbandonedEntries.remove(in: directory, where: isLeftover)
        let folder = directory + "/" + name
        let partial = directory + "/." + name + ".partial-\(ThisProcess.id)"
        let (state, claim) = try writePartial(processor, to: partial, as: name, failure: failure)
        defer { try? DescriptorIO.close(claim) }
        // Held while the old folder waits under the hidden name, so no clean-up takes it.
        let oldClaim = try? DescriptorIO.open(folder, .readOnly, options: [.directory, .noFollow])
        defer { if let oldClaim { try? DescriptorIO.close(oldClaim) } }
        if let oldClaim { _ = DescriptorIO.lockExclusively(oldClaim) }
        let old: String?
        do { old = try takeName(partial, as: folder) } catch {
            FolderEntries.remove(folder: partial)
            throw failure("cannot give '\(partial)' the name '\(folder)': \(error.errno)")
        }
        let result: Result
        do { result = try commit(state) } catch {
            giveBack(folder, old: old, partial: partial)
            throw error
        }
        if let old { FolderEntries.remove(folder: old) }
        return result
    }

    /// Writes the state into the hidden folder `partial`, claimed (see ``AbandonedEntries``)
    /// until the returned descriptor closes.
    private static func writePartial<Failure: Error>(_ processor: Processor, to partial: String, as name: String,
                                                     failure: (String) -> Failure) throws(Failure) -> (SavedState, Int32) {
        let claim: Int32
        do {
            // (The first preset's folder is made with its state.)
            try? FolderEntries.make(PathString.folder(of: partial), mode: 0o755)
            claim = try AbandonedEntries.makeFolder(claimed: partial)
        } catch {
            throw failure("cannot make '\(partial)': \(error.errno)")
        }
        do {
            return (try ProcessorStates.save(processor, to: partial, as: name), claim)
        } catch {
            FolderEntries.remove(folder: partial)
            try? DescriptorIO.close(claim)
            throw failure(error.description)
        }
    }

    /// Gives the whole state at `partial` the name `folder`: swapped with the folder there, or
    /// renamed to it when there is none. Returns where the old folder now is, if there was one:
    /// `partial`, or beside it on a file system that cannot swap (where the old folder steps
    /// aside for a moment).
    private static func takeName(_ partial: String, as folder: String) throws(SystemCallError) -> String? {
        guard FileStatus(entryAt: folder) != nil else {
            try PathString.rename(partial, to: folder)
            return nil
        }
        do {
            try PathString.exchange(partial, folder)
            return partial
        } catch where error.errno == .invalidArgument {
            let old = PathString.folder(of: folder) + "/." + PathString.name(of: folder) + ".old-\(ThisProcess.id)"
            try PathString.rename(folder, to: old)
            do { try PathString.rename(partial, to: folder) } catch {
                try? PathString.rename(old, to: folder)
                throw error
            }
            return old
        }
    }

    /// Puts the folder ``takeName(_:as:)`` replaced back, and removes the new one.
    private static func giveBack(_ folder: String, old: String?, partial: String) {
        if old == partial, (try? PathString.exchange(partial, folder)) != nil {
            FolderEntries.remove(folder: partial)
            return
        }
        FolderEntries.remove(folder: folder)
        if let old { try? PathString.rename(old, to: folder) }
    }

    /// True for a hidden folder a killed save left: `.NAME.partial-PID`, or `.NAME.old-PID` of
    /// a file system that cannot swap.
    static func isLeftover(_ entry: String) -> Bool {
        guard entry.hasPrefix("."), let dash = entry.lastIndex(of: "-") else { return false }
        let id = entry[entry.index(after: dash)...], head = entry[..<dash]
        return !id.isEmpty && id.allSatisfy { $0.isASCII && $0.isNumber }
            && (head.hasSuffix(StateFolderPath.suffix + ".partial") || head.hasSuffix(StateFolderPath.suffix + ".old"))
    }

    /// True when a save of `processor` keeps a state folder: it (a chain: one of its slots)
    /// keeps a state of its own, or holds files.
    package static func isKept(by processor: Processor) -> Bool {
        processor.keepsState || processor.files.contains { $0.path != nil }
    }
}

/// A user preset saved with its plug-in's state (see ``StateFolder``), as `detent preset
/// save` with a file's `--set`, a live `preset save`, the panel's `s` and Python's
/// `save_preset` save one.
package enum PresetStateFolder {
    /// Saves `preset` as `processor` sounds now (a live session's `preset save`, the panel's
    /// `s`): with its plug-ins' states and the files they hold when it has any, else the
    /// values alone. Returns the preset file's path.
    package static func save(running processor: Processor, _ preset: Preset, store: PresetStore, replacing: Bool) throws(PresetError) -> String {
        guard StateFolder.isKept(by: processor) else { return try store.save(preset, replacing: replacing) }
        return try save(preset, processor: processor, store: store, replacing: replacing)
    }

    /// Saves `preset` with the state of `processor`'s plug-in, or of a chain's plug-ins that
    /// keep one (their files and state as set); refused, with nothing left behind, when the
    /// preset exists and `replacing` is false.
    ///
    /// - Returns: the preset file's path.
    package static func save(_ preset: Preset, processor: Processor, store: PresetStore, replacing: Bool) throws(PresetError) -> String {
        // Checked before the state is written: a refused save changes nothing.
        let path = try store.savingPath(for: preset.name, replacing: replacing)
        let folderName = StateFolderPath.name(forPresetFile: PathString.name(of: path))
        return try StateFolder.write(processor, in: store.userDirectory, name: folderName,
                                     failure: { PresetError(.io($0), source: preset.name) }) { state throws(PresetError) in
            var preset = preset
            preset.state = state
            return try store.save(preset, replacing: replacing)
        }
    }
}
