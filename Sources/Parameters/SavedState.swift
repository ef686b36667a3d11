/// A processor's own state beyond its parameter values (an LV2 plug-in's `state:interface`:
/// the impulse response it loaded, a sample, a table it built), as a preset keeps it.
///
/// A preset holds the values the host knows and, for a processor that has more, where that
/// state is: a folder beside the preset (its own presets), a preset the processor ships, or —
/// for a chain or a graph — each slot's own, by slot name.
///
/// ```swift
/// SavedState.folder(path: "Hall.state", files: ["hall.wav"])
/// SavedState.preset(uri: "http://gareus.org/oss/lv2/zeroconvolv/pset#noopStereo")
/// SavedState.slots(["conv": .folder(path: "Mix.state/conv", files: ["hall.wav"])])
/// ```
public enum SavedState: Sendable, Hashable {
    /// A folder holding the state and copies of the files it refers to (`files`, named
    /// relative to the folder). In a preset file the path is relative to the preset's own
    /// folder, so the two move together; once read it is made absolute (``resolved(against:)``).
    case folder(path: String, files: [String])
    /// A preset the processor ships with, by URI (an LV2 preset with `state:state`).
    case preset(uri: String)
    /// A chain's (or a graph's): the state of each slot that keeps one, by slot name. A slot
    /// left out starts from its plug-in's defaults.
    indirect case slots([String: SavedState])

    /// The state with every relative folder made absolute against `directory` (the preset
    /// file's folder); an absolute folder and a shipped preset are unchanged.
    public func resolved(against directory: String) -> SavedState {
        switch self {
        case .folder(let path, let files) where !path.hasPrefix("/"):
            return .folder(path: directory + "/" + path, files: files)
        case .slots(let states):
            return .slots(states.mapValues { $0.resolved(against: directory) })
        case .folder, .preset:
            return self
        }
    }

    /// The folders the state is kept in (a chain's: each slot's), for checking and removing them.
    public var folders: [String] {
        switch self {
        case .folder(let path, _): [path]
        case .preset: []
        case .slots(let states): states.keys.sorted().flatMap { states[$0]!.folders }
        }
    }

    /// True for a chain's state (its slots' own).
    public var isChainState: Bool {
        if case .slots = self { return true }
        return false
    }

    /// The state of the slot `name` (any case) of a chain's state; nil for none.
    public func slot(_ name: String) -> SavedState? {
        guard case .slots(let states) = self else { return nil }
        return states.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}
