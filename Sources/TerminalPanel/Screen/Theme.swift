/// How each ``CellRole`` looks: the SGR attributes written before a cell of that role.
///
/// The colour theme uses the 16 basic colours every terminal has. The monochrome theme, used
/// when `NO_COLOR` is set (no-color.org), keeps only attributes — bold, dim, reverse,
/// underline — so focus, turning and errors stay distinguishable without any colour.
public struct Theme: Sendable, Hashable {
    /// The SGR parameters per role, indexed by raw value, each starting from a reset (`0`).
    private let parameters: [String]

    public let usesColor: Bool

    public init(color: Bool) {
        usesColor = color
        parameters = CellRole.allCases.map { role in
            (["0"] + (color ? Self.colored(role) : Self.monochrome(role))).joined(separator: ";")
        }
    }

    /// The theme for this environment: monochrome when `NO_COLOR` is set to anything but "".
    public static func forEnvironment(_ environment: [String: String]) -> Theme {
        Theme(color: (environment["NO_COLOR"] ?? "").isEmpty)
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
