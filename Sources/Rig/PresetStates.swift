import BinaryPlugins
import AudioEngine
import Parameters
import Platform
import Presets

/// The state a starting preset keeps for a plug-in beside its values (LV2 state: the file an
/// impulse-response loader holds), checked before anything is rendered.
package enum PresetStates {
    /// The state of the preset `reference` names (`chainFile`, else the Default preset, when
    /// nil), for a processor that keeps one; nil for none.
    ///
    /// - Throws: a ``CommandFailure`` (exit 66) naming a saved state's folder or file that is
    ///   gone or unreadable, or the ``PresetError`` of a preset that cannot be read.
    /// A chain's slot preset (`SLOT:NAME`) gives that slot's state alone.
    package static func starting(_ reference: String?, store: PresetStore, processor: Processor) throws -> SavedState? {
        guard processor.keepsState else { return nil }
        let name: String, state: SavedState?
        if let reference, let slot = try SlotPresets.load(reference, in: processor, warns: false) {
            (name, state) = (reference, slot.state)
        } else {
            let loaded = try reference.map { name throws(PresetError) in try store.resolve(name) } ?? store.defaultPreset()
            (name, state) = (loaded.preset.name, loaded.state)
        }
        guard let state = state.flatMap({ withoutMissingFolders($0, preset: name) }) else { return nil }
        if let problem = problem(state) {
            throw CommandFailure("preset \(PresetName.quoted(name)): \(problem)", exitCode: 66)
        }
        return state
    }

    /// `state` without the folders that are gone (a save killed before its folder had its
    /// name, a folder removed by hand), said in one warning: the preset's values apply, and the
    /// plug-ins whose state is gone start from their defaults. Nil when nothing is left.
    static func withoutMissingFolders(_ state: SavedState, preset name: String) -> SavedState? {
        let missing = Set(state.folders.filter { !PathString.leadsSomewhere($0) })
        guard !missing.isEmpty else { return state }
        let list = missing.sorted().map { "'\($0)'" }.joined(separator: ", ")
        Console.warning("preset \(PresetName.quoted(name)): its saved state \(list) is missing; "
                        + "its values apply, the plug-ins start from their defaults")
        return dropping(missing, from: state)
    }

    private static func dropping(_ folders: Set<String>, from state: SavedState) -> SavedState? {
        switch state {
        case .folder(let path, _): return folders.contains(path) ? nil : state
        case .preset: return state
        case .slots(let states):
            let kept = states.compactMapValues { dropping(folders, from: $0) }
            return kept.isEmpty ? nil : .slots(kept)
        }
    }

    /// Why `state` cannot be restored — its folder's state (an LV2 plug-in's `state.ttl`, a
    /// VST2, VST3 or CLAP plug-in's `state.bin`) or a file it copied gone or unreadable (a
    /// chain's: any slot's) — or nil. A plug-in's own preset is the plug-in's to check.
    package static func problem(_ state: SavedState) -> String? {
        switch state {
        case .folder(let path, let files):
            let own = PathString.exists(path + "/" + BinaryStates.stateFile) ? BinaryStates.stateFile : "state.ttl"
            for name in [own] + files {
                let file = path + "/" + name
                if let reason = PathString.readProblem(file) { return "cannot read '\(file)' of its saved state: \(reason)" }
            }
            return nil
        case .preset:
            return nil
        case .slots(let states):
            return states.keys.sorted().lazy.compactMap { problem(states[$0]!) }.first
        }
    }
}
