import Presets

/// The list `p` opens: every preset the store knows, user and factory, broken files included
/// with their reason (they are listed so a person sees why, but cannot be loaded).
public struct PresetBrowser: Sendable, Hashable {
    public let rows: [PresetListing]
    public private(set) var selection: Int

    /// A browser over `rows` with the row named `current` selected (the first otherwise).
    public init(rows: [PresetListing], current: String?) {
        self.rows = rows
        let key = current.map(PresetName.key)
        selection = rows.firstIndex { PresetName.key($0.name) == key } ?? 0
    }

    public var selected: PresetListing? { rows.indices.contains(selection) ? rows[selection] : nil }

    /// Moves the selection by `delta` rows, stopping at the ends.
    public mutating func move(by delta: Int) {
        guard !rows.isEmpty else { return }
        selection = min(max(selection + delta, 0), rows.count - 1)
    }

    public mutating func selectFirst() { selection = 0 }
    public mutating func selectLast() { selection = max(rows.count - 1, 0) }

    /// The first row to show when `visible` rows fit: the selection stays in view, near the
    /// middle when the list is long.
    public func firstVisibleRow(visible: Int) -> Int {
        guard visible > 0, rows.count > visible else { return 0 }
        return min(max(selection - visible / 2, 0), rows.count - visible)
    }
}
