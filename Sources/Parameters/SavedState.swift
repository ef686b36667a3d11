/// A processor's own state beyond its parameter values (an LV2 plug-in's `state:interface`:
/// the impulse response it loaded, a sample, a table it built), as a preset keeps it.
///
/// A preset holds the values the host knows and, for a processor that has more, where that
/// state is: a folder beside the preset (its own presets) or a preset the processor ships.
///
/// ```swift
/// SavedState.folder(path: "Hall.state", files: ["hall.wav"])
/// SavedState.preset(uri: "http://gareus.org/oss/lv2/zeroconvolv/pset#noopStereo")
/// ```
public enum SavedState: Sendable, Hashable {
    /// A folder holding the state and copies of the files it refers to (`files`, named
    /// relative to the folder). In a preset file the path is relative to the preset's own
    /// folder, so the two move together; once read it is made absolute (``resolved(against:)``).
    case folder(path: String, files: [String])
    /// A preset the processor ships with, by URI (an LV2 preset with `state:state`).
    case preset(uri: String)

    /// The state with a relative folder made absolute against `directory` (the preset file's
    /// folder); an absolute folder and a shipped preset are unchanged.
    public func resolved(against directory: String) -> SavedState {
        guard case .folder(let path, let files) = self, !path.hasPrefix("/") else { return self }
        return .folder(path: directory + "/" + path, files: files)
    }
}
