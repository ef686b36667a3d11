import Parameters

/// One row's ``ParameterTexts``, as a plug-in's words object hands them out: what it shows for
/// a value, what it reads from a text, and (for words asked in this process) how the same
/// words are asked elsewhere. ``BinaryTexts`` and ``HelperTexts`` keep the plug-in's instance
/// or process; a row only says which of its parameters to ask about.
final class TextsRow: ParameterTexts {
    let showsOwnText: Bool
    private let shown: @Sendable (Double) -> String?
    private let read: @Sendable (String) -> Double?
    private let moved: (@Sendable (Int, String, String) -> (any ParameterTexts)?)?

    init(showsOwnText: Bool, shown: @escaping @Sendable (Double) -> String?, read: @escaping @Sendable (String) -> Double?,
         moved: (@Sendable (Int, String, String) -> (any ParameterTexts)?)?) {
        self.showsOwnText = showsOwnText
        self.shown = shown
        self.read = read
        self.moved = moved
    }

    func text(for value: Double) -> String? { shown(value) }
    func value(for text: String) -> Double? { read(text) }
    func elsewhere(row: Int, reference: String, identifier: String) -> (any ParameterTexts)? {
        moved?(row, reference, identifier)
    }
}

/// The last texts a plug-in's words gave, by row and value: a panel asks for the same value at
/// every frame it draws, and each answer costs a call into the plug-in (or another process).
struct RecentTexts {
    private struct Question: Hashable {
        let row: Int
        let value: Double
    }
    private var known: [Question: String?] = [:]

    /// The text for `value` of `row`: the one given before, else `ask()`'s (kept, among at
    /// most 512).
    mutating func text(row: Int, value: Double, ask: () -> String?) -> String? {
        let question = Question(row: row, value: value)
        if let text = known[question] { return text }
        let text = ask()
        if known.count >= 512 { known.removeAll(keepingCapacity: true) }
        known[question] = text
        return text
    }
}
