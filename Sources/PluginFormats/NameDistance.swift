/// The names nearest a mistyped one, for "did you mean" lists.
public enum NameDistance {
    /// The three names nearest to `text` (lower case) by edit distance — to the whole name or
    /// any of its words, so `compresor` finds the compressors — within a third of its length.
    public static func closest(to text: String, in names: [String]) -> [String] {
        let scored = names.map { original -> (Int, String) in
            let name = original.lowercased()
            let words = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
            let best = ([name] + words).map { distance(text, $0) }.min() ?? Int.max
            return (best, original)
        }
        let limit = max(2, text.count / 3)
        var seen = Set<String>()
        return scored.filter { $0.0 <= limit }.sorted { $0 < $1 }.map(\.1)
            .filter { seen.insert($0).inserted }.prefix(3).map { $0 }
    }

    /// Levenshtein distance.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                previous = current
            }
        }
        return row[b.count]
    }
}
