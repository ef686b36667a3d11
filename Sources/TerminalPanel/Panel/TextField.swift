import Parameters

/// A one-line text field for the status line: typing a value or a preset name.
///
/// It understands the keys people expect of a shell prompt: characters insert, ←/→ and
/// Home/End (Ctrl-A/Ctrl-E) move, Backspace and Delete erase, Ctrl-U clears to the start,
/// Enter submits, Escape cancels.
///
/// A field can start with its text selected — the value prompt starts with the knob's value —
/// so that typing or pasting replaces it, Backspace or Delete clears it, and a cursor key
/// keeps it for editing.
public struct TextField: Sendable, Hashable {
    public private(set) var characters: [Character]
    /// The insertion point, 0…count.
    public private(set) var cursor: Int
    /// The whole text is selected: the next character typed replaces it.
    public private(set) var isSelected: Bool

    public init(_ text: String = "", selected: Bool = false) {
        characters = Array(text)
        cursor = characters.count
        isSelected = selected && !characters.isEmpty
    }

    /// Typing or Backspace on a selection: the text goes first.
    private mutating func replaceSelection() {
        guard isSelected else { return }
        characters.removeAll()
        cursor = 0
        isSelected = false
    }

    public var text: String { String(characters) }

    public enum Outcome: Sendable, Hashable {
        case editing
        case submitted(String)
        case cancelled
    }

    /// Applies a key; nil when the key means nothing to a text field.
    public mutating func handle(_ key: Key, _ modifiers: KeyModifiers) -> Outcome? {
        switch key {
        case .backspace where isSelected, .delete where isSelected:
            replaceSelection()
            return .editing
        case .character(let c) where isSelected && !modifiers.contains(.ctrl) && !modifiers.contains(.alt):
            replaceSelection()
            characters = [c]
            cursor = 1
            return .editing
        case .left, .right, .home, .end:
            isSelected = false
        default:
            break
        }
        if case .character = key, modifiers.contains(.ctrl) { isSelected = false }
        switch key {
        case .enter: return .submitted(text)
        case .escape: return .cancelled
        case .backspace:
            if cursor > 0 {
                characters.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete:
            if cursor < characters.count { characters.remove(at: cursor) }
        case .left: cursor = max(cursor - 1, 0)
        case .right: cursor = min(cursor + 1, characters.count)
        case .home: cursor = 0
        case .end: cursor = characters.count
        case .character(let c) where modifiers.contains(.ctrl):
            switch c {
            case "a": cursor = 0
            case "e": cursor = characters.count
            case "u":
                characters.removeFirst(cursor)
                cursor = 0
            default: return nil
            }
        case .character(let c) where !modifiers.contains(.alt):
            characters.insert(c, at: cursor)
            cursor += 1
        default:
            return nil
        }
        return .editing
    }

    /// Inserts pasted `text` at the cursor, as if typed: line breaks and tabs become spaces,
    /// other control characters are dropped, and the ends are trimmed (a copied line's
    /// newline must not make a name end in a space).
    public mutating func insert(pasted text: String) {
        replaceSelection()
        let cleaned = text.map { c -> Character in c.isNewline || c == "\t" ? " " : c }
            .filter { c in !c.unicodeScalars.contains { $0.properties.generalCategory == .control } }
        let trimmed = String(cleaned).trimmedWhitespace
        characters.insert(contentsOf: trimmed, at: cursor)
        cursor += trimmed.count
    }

    /// The part to show in `width` columns, and the column the cursor falls on in it: the
    /// text's end stays in view as it grows past the width. Measured in columns, so a wide
    /// character (``DisplayWidth``) counts twice; the cursor always has a column of its own.
    public func visible(width: Int) -> (text: String, cursor: Int) {
        guard width > 0 else { return ("", 0) }
        // As much before the cursor as fits in the columns left of it…
        var first = cursor
        var before = 0
        while first > 0 {
            let columns = DisplayWidth.of(characters[first - 1])
            guard before + columns <= width - 1 else { break }
            before += columns
            first -= 1
        }
        // …and after it, what still fits.
        var last = cursor
        var used = before
        while last < characters.count {
            let columns = DisplayWidth.of(characters[last])
            guard used + columns <= width else { break }
            used += columns
            last += 1
        }
        return (String(characters[first..<last]), before)
    }
}
