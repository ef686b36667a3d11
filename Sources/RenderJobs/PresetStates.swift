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
        guard let state else { return nil }
        if let problem = problem(state) {
            throw CommandFailure("preset \(PresetName.quoted(name)): \(problem)", exitCode: 66)
        }
        return state
    }

    /// Why `state` cannot be restored — its folder's `state.ttl` or a file it copied gone or
    /// unreadable (a chain's: any slot's) — or nil. A plug-in's own preset is the plug-in's to check.
    package static func problem(_ state: SavedState) -> String? {
        switch state {
        case .folder(let path, let files):
            for name in ["state.ttl"] + files {
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
