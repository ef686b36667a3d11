/// The little JSON Detent writes (answers of `--json`): strings escaped per RFC 8259,
/// finite numbers as Swift prints them (`1000.0`, `0.707`, `1e-05` are all valid JSON).
enum JSONText {
    static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A finite number; non-finite values (never produced by the host) become `null`.
    static func number(_ x: Double) -> String { x.isFinite ? "\(x)" : "null" }

    /// An object from already-encoded values, keys in the given order.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }
}
