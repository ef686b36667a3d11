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
/// Nothing is half-written: the state goes into a hidden folder first, the file that names it
/// is written (atomically, by the caller), and only then does the folder take its name,
/// replacing the one before.
package enum StateFolder {
    /// Writes the state of `processor`'s plug-ins (their files and state as set) into the
    /// folder `name` in `directory`, handing the state, named relative to `directory`, to
    /// `commit` — which writes the file that refers to it — and returns what `commit` returned.
    ///
    /// - Throws: `failure` of a reason when the state cannot be written or take its name,
    ///   with nothing left behind; whatever `commit` throws, the old folder kept.
    package static func write<Result, Failure: Error>(_ processor: Processor, in directory: String, name: String,
                                              failure: (String) -> Failure,
                                              commit: (SavedState) throws(Failure) -> Result) throws(Failure) -> Result {
        let folder = directory + "/" + name
        let partial = directory + "/." + name + ".partial-\(ThisProcess.id)"
        FolderEntries.remove(folder: partial)
        let state: SavedState
        do {
            state = try PluginStates.save(processor, to: partial, as: name)
        } catch {
            FolderEntries.remove(folder: partial)
            throw failure(error.description)
        }
        let result: Result
        do {
            result = try commit(state)
        } catch {
            FolderEntries.remove(folder: partial)
            throw error
        }
        // The old state folder (saved again) makes way, then goes.
        let old = directory + "/." + name + ".old-\(ThisProcess.id)"
        let hadOld = (try? PathString.rename(folder, to: old)) != nil
        do { try PathString.rename(partial, to: folder) } catch {
            if hadOld { try? PathString.rename(old, to: folder) }
            FolderEntries.remove(folder: partial)
            throw failure("cannot rename '\(partial)' to '\(folder)': \(error.errno)")
        }
        if hadOld { FolderEntries.remove(folder: old) }
        return result
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
        let fileName = try PresetFileName.fileName(for: preset.name)
        let folderName = String(fileName.dropLast(PresetFileName.fileExtension.count)) + ".state"
        return try StateFolder.write(processor, in: store.userDirectory, name: folderName,
                                     failure: { PresetError(.io($0), source: preset.name) }) { state throws(PresetError) in
            var preset = preset
            preset.state = state
            return try store.save(preset, replacing: replacing)
        }
    }
}
