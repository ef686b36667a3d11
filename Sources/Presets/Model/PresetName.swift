import TextFormats
import Parameters

/// The rules for preset names: free text shown as given, with just enough refused that a
/// name can always be printed on one line and turned into a file name.
///
/// Names are compared ignoring case everywhere (`dark` finds `Dark`, and saving `dark` beside
/// `Dark` is a clash), because the same store may live on a case-insensitive file system.
public enum PresetName {
    /// Longer names are refused: they would not fit in a list or in a file name.
    public static let maximumLength = 100

    /// Checks that `name` can be used as a preset name.
    ///
    /// - Throws: ``PresetError/Problem/invalidName(name:reason:)`` when it is empty, longer
    ///   than ``maximumLength`` characters, starts or ends with white space, or contains a
    ///   control character or a bidirectional-text control.
    public static func validate(_ name: String) throws(PresetError) {
        func refuse(_ reason: String) -> PresetError { PresetError(.invalidName(name: name, reason: reason)) }
        if name.isEmpty { throw refuse("a name must not be empty") }
        if name.count > maximumLength { throw refuse("a name must be at most \(maximumLength) characters") }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw refuse("a name must not contain control characters")
        }
        if name.unicodeScalars.contains(where: \.properties.isBidiControl) {
            throw refuse("a name must not contain bidirectional-text controls")
        }
        if name.first!.isWhitespace || name.last!.isWhitespace {
            throw refuse("a name must not start or end with white space")
        }
    }

    /// The key under which names are compared: two names with the same key are the same preset.
    public static func key(_ name: String) -> String { name.lowercased() }

    /// `name` in single quotes for messages, with control characters shown as `\u{…}`
    /// (see ``printable(_:)``) so that a hostile name cannot move the cursor, change the
    /// terminal's state or reorder the line.
    public static func quoted(_ name: String) -> String {
        "'" + printable(name) + "'"
    }

    /// `name` with control characters shown as `\u{…}`: safe to print to a terminal (see
    /// ``TerminalText/printable(_:)``).
    public static func printable(_ name: String) -> String { TerminalText.printable(name) }
}
