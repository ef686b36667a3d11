/// One character cell: a character and its role.
///
/// A wide character (``DisplayWidth``) takes its own cell and the one to its right, which
/// holds a continuation: a cell the terminal fills with the glyph to its left, so nothing is
/// written there.
public struct Cell: Sendable, Hashable {
    public var character: Character
    public var role: CellRole
    /// True for the right half of a wide character. Only ``ScreenBuffer`` makes these, so that
    /// a continuation always follows its wide character.
    public internal(set) var isContinuation = false

    public init(_ character: Character, _ role: CellRole = .plain) {
        self.character = character
        self.role = role
    }

    /// A space with the plain role: what a cleared screen holds.
    public static let blank = Cell(" ")

    /// The right half of a wide character of `role`.
    static func continuation(_ role: CellRole) -> Cell {
        var cell = Cell(" ", role)
        cell.isContinuation = true
        return cell
    }

    /// The columns the cell's character takes where it is drawn: 0 for a continuation.
    var width: Int { isContinuation ? 0 : DisplayWidth.of(character) }
}
