/// One character cell: a single-width character and its role.
public struct Cell: Sendable, Hashable {
    public var character: Character
    public var role: CellRole

    public init(_ character: Character, _ role: CellRole = .plain) {
        self.character = character
        self.role = role
    }

    /// A space with the plain role: what a cleared screen holds.
    public static let blank = Cell(" ")
}
