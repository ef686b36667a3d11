/// How each ``CellRole`` looks: the SGR attributes written before a cell of that role.
///
/// The colour themes use the 16 basic colours every terminal has, one set for dark and one for
/// light backgrounds (``ThemeStyle``). The plain theme, also used when `NO_COLOR` is set
/// (no-color.org), keeps only attributes — bold, dim, reverse, underline — so focus, turning
/// and errors stay distinguishable in the terminal's own colours.
public struct Theme: Sendable, Hashable {
    /// The SGR parameters per role, indexed by raw value, each starting from a reset (`0`).
    private let parameters: [String]

    public let usesColor: Bool
    public let style: ThemeStyle

    /// The dark-background colour theme, or the plain one.
    public init(color: Bool) {
        self.init(color ? .dark : .plain)
    }

    public init(_ style: ThemeStyle) {
        self.style = style
        usesColor = style != .plain
        parameters = CellRole.allCases.map { role in
            let attributes = switch style {
            case .dark: Self.colored(role)
            case .light: Self.light(role)
            case .plain: Self.monochrome(role)
            }
            return (["0"] + attributes).joined(separator: ";")
        }
    }

    /// The theme for this environment: plain when `NO_COLOR` is set to anything but "";
    /// else `chosen`, else `DETENT_THEME`'s, else dark.
    ///
    /// - Throws: ``TerminalError`` when `DETENT_THEME` names no theme.
    public static func forEnvironment(_ environment: [String: String], chosen: ThemeStyle? = nil) throws(TerminalError) -> Theme {
        if !(environment["NO_COLOR"] ?? "").isEmpty { return Theme(.plain) }
        if let chosen { return Theme(chosen) }
        guard let name = environment["DETENT_THEME"], !name.isEmpty else { return Theme(.dark) }
        guard let style = ThemeStyle(rawValue: name.lowercased()) else { throw .unknownTheme(name) }
        return Theme(style)
    }

    /// The escape sequence that selects `role`'s look (`ESC [ 0 ; 1 ; 36 m`).
    public func sgr(_ role: CellRole) -> String {
        "\u{1B}[" + parameters[Int(role.rawValue)] + "m"
    }

    private static func colored(_ role: CellRole) -> [String] {
        switch role {
        case .plain, .value, .status, .overlay, .name: []
        case .dim, .grid, .tick: ["2"]
        case .header: ["1", "7"]
        case .headerNotice: ["1", "7", "33"]
        case .track: ["90"]
        case .progress: ["36"]
        case .progressFocused: ["1", "96"]
        case .progressTurning: ["1", "93"]
        case .indicator: ["1", "97"]
        case .nameFocused: ["1", "7"]
        case .valueActive: ["1", "93"]
        case .curve: ["32"]
        case .marker: ["1", "96"]
        case .meter: ["32"]
        case .meterHot: ["1", "91"]
        case .error: ["1", "91"]
        case .prompt: ["1"]
        case .overlaySelected: ["7"]
        }
    }

    /// For a light background: no bright white or yellow, which vanish on white; the
    /// terminal's own text colour for the needle.
    private static func light(_ role: CellRole) -> [String] {
        switch role {
        case .plain, .value, .status, .overlay, .name: []
        case .dim, .grid, .tick: ["2"]
        case .header: ["1", "7"]
        case .headerNotice: ["1", "7", "34"]
        case .track: ["2"]
        case .progress: ["34"]
        case .progressFocused: ["1", "34"]
        case .progressTurning: ["1", "35"]
        case .indicator: ["1"]
        case .nameFocused: ["1", "7"]
        case .valueActive: ["1", "35"]
        case .curve: ["32"]
        case .marker: ["1", "34"]
        case .meter: ["32"]
        case .meterHot: ["1", "31"]
        case .error: ["1", "31"]
        case .prompt: ["1"]
        case .overlaySelected: ["7"]
        }
    }

    private static func monochrome(_ role: CellRole) -> [String] {
        switch role {
        case .plain, .value, .status, .overlay, .name, .progress, .curve, .meter: []
        case .dim, .grid, .tick, .track: ["2"]
        case .header, .headerNotice, .nameFocused, .overlaySelected: ["7"]
        case .progressFocused, .indicator, .marker, .prompt: ["1"]
        case .progressTurning, .valueActive, .meterHot: ["1", "4"]
        case .error: ["1", "7"]
        }
    }
}
