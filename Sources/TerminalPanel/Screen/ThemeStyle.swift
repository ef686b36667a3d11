/// The colour schemes a person can choose (`--theme`, or `DETENT_THEME`).
///
/// - `dark`: colours for a dark background (bright cyan, yellow and white accents).
/// - `light`: colours for a light background (blue, magenta, and the terminal's own text
///   colour where `dark` uses bright white, which vanishes on white).
/// - `plain`: the terminal's default colours only, with bold, dim, reverse and underline to
///   tell things apart; also what `NO_COLOR` gives.
public enum ThemeStyle: String, Sendable, Hashable, CaseIterable {
    case dark, light, plain

    /// The names, for help and error messages: `dark, light, plain`.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
