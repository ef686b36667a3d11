/// The names nearest a mistyped one, for "did you mean" lists.
public enum NameDistance {
    /// The three names nearest to `text` (lower case) by edit distance — to the whole name or
    /// any of its words, so `compresor` finds the compressors — within a third of its length.
    /// A name whose length differs from the text's by more than the limit is not measured
    /// (its distance is at least that difference): a long text (a pasted path, a hostile
    /// name) costs one comparison of lengths per name, not its length times theirs.
    public static func closest(to text: String, in names: [String]) -> [String] {
        let length = text.count
        let limit = max(2, length / 3)
        let scored = names.map { original -> (Int, String) in
            let name = original.lowercased()
            let words = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
            let best = ([name] + words).filter { abs($0.count - length) <= limit }.map { distance(text, $0) }.min() ?? Int.max
            return (best, original)
        }
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
