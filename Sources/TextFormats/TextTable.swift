/// Rows of cells as aligned plain text: each column as wide as its widest cell plus two
/// spaces, one line per row. A row's last cell is not padded and does not widen its column,
/// so a short row can end with a long remark (`broken: …`) without pushing the others apart.
public enum TextTable {
    public static func render(_ rows: [[String]]) -> String {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { c in rows.map { c < $0.count - 1 ? $0[c].count : 0 }.max() ?? 0 }
        var out = ""
        for row in rows {
            var line = ""
            for (c, cell) in row.enumerated() {
                line += c == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[c] - cell.count + 2)
            }
            out += line + "\n"
        }
        return out
    }
}
