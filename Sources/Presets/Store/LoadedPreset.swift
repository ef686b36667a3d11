import Parameters

/// Where a preset came from.
public enum PresetOrigin: Sendable, Hashable {
    /// Shipped with Detent (read-only).
    case factory(fileName: String)
    /// In the user's preset folder; `overridesFactory` when a factory preset has the same name.
    case user(path: String, overridesFactory: Bool)
    /// A file given by path (`--preset ./mine.json`).
    case file(path: String)
    /// No Default preset exists anywhere: the parameter table's defaults.
    case tableDefaults

    /// A short label for listings: `factory`, `user`, `user, overrides factory`, `file`, `table`.
    public var label: String {
        switch self {
        case .factory: "factory"
        case .user(_, let overrides): overrides ? "user, overrides factory" : "user"
        case .file: "file"
        case .tableDefaults: "table"
        }
    }

    /// The file behind the preset, if any.
    public var path: String? {
        switch self {
        case .user(let path, _), .file(let path): path
        case .factory, .tableDefaults: nil
        }
    }
}

/// A preset read and validated, with the warnings to show and where it came from.
///
/// ```swift
/// let loaded = try store.resolve("Dark")
/// for warning in loaded.warnings { printToStderr("warning: \(warning)") }
/// engine.start(with: loaded.values)
/// ```
public struct LoadedPreset: Sendable, Hashable {
    public var preset: Preset
    public var warnings: [PresetWarning]
    public var origin: PresetOrigin

    public init(preset: Preset, warnings: [PresetWarning] = [], origin: PresetOrigin) {
        self.preset = preset
        self.warnings = warnings
        self.origin = origin
    }

    /// A value for every parameter (defaults filled in).
    public var values: ParameterValues { preset.values }

    /// The preset's saved state, its folder (kept relative to the preset file in the file)
    /// made a path from here: beside the preset file, wherever that has moved.
    public var state: SavedState? {
        guard let state = preset.state else { return nil }
        guard let path = origin.path, let slash = path.lastIndex(of: "/") else { return state.resolved(against: ".") }
        return state.resolved(against: slash == path.startIndex ? "" : String(path[..<slash]))
    }
}

/// One row of `detent preset list`: a preset that can be used, or a user file that cannot,
/// with the reason. A broken file never hides the others.
public struct PresetListing: Sendable, Hashable {
    /// The preset's name, or for a broken file the name its file name stands for.
    public let name: String
    public let origin: PresetOrigin
    public let status: Status

    public enum Status: Sendable, Hashable {
        case valid(LoadedPreset)
        case broken(PresetError)
    }

    public init(name: String, origin: PresetOrigin, status: Status) {
        self.name = name
        self.origin = origin
        self.status = status
    }
}
