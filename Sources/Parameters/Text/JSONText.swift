/// The little JSON Detent writes by hand (`--json` summaries and answers, presets): strings
/// escaped per RFC 8259, numbers as Swift prints them. One writer for every module, no
/// Foundation.
public enum JSONText {
    /// `s` as a JSON string literal, quotes included. Control characters (and DEL) are
    /// written as `\u00XX`, so a line of JSON stays one line.
    public static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A finite number as Swift prints it (`1000.0`, `0.707`, `1e-05`: all valid JSON);
    /// `null` when not finite.
    public static func number(_ x: Double) -> String { x.isFinite ? "\(x)" : "null" }

    /// A finite number rounded to `places` decimals, whole numbers without a fraction
    /// (`null` when not finite).
    public static func number(_ x: Double, places: Int) -> String {
        guard x.isFinite else { return "null" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let r = (x * scale).rounded() / scale
        if r == r.rounded(), abs(r) < 1e15 { return String(Int64(r)) }
        return "\(r)"
    }

    /// An object from already-encoded values, keys in the given order.
    public static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// An array from already-encoded items.
    public static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }
}
