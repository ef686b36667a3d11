

/// Writes a ``JSONValue`` as text: pretty (two-space indents, one member per line, for files
/// people read and diff) or compact (one line, for `--json` output that tools read line by line).
///
/// ```swift
/// JSONWriter.text(of: .object([JSONMember("a", .number(1))]), pretty: false)  // {"a":1}
/// ```
public enum JSONWriter {
    /// The text of `value`; pretty text ends with a newline, compact text does not.
    public static func text(of value: JSONValue, pretty: Bool) -> String {
        var out = ""
        write(value, into: &out, indent: pretty ? 0 : nil)
        return pretty ? out + "\n" : out
    }

    /// `text` as a JSON string literal, quotes included (the one JSON string writer):
    /// escaped per RFC 8259, control characters (and DEL) as `\u00XX`, so a line of JSON
    /// stays one line.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
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

    /// `indent` is the current depth when pretty, nil when compact.
    private static func write(_ value: JSONValue, into out: inout String, indent: Int?) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let text): out += text
        case .string(let text): out += quoted(text)
        case .array(let elements):
            writeContainer(elements, open: "[", close: "]", into: &out, indent: indent) { element, out, inner in
                write(element, into: &out, indent: inner)
            }
        case .object(let members):
            writeContainer(members, open: "{", close: "}", into: &out, indent: indent) { member, out, inner in
                out += quoted(member.key) + (inner == nil ? ":" : ": ")
                write(member.value, into: &out, indent: inner)
            }
        }
    }

    private static func writeContainer<Element>(
        _ elements: [Element], open: String, close: String, into out: inout String, indent: Int?,
        element writeElement: (Element, inout String, Int?) -> Void
    ) {
        out += open
        guard !elements.isEmpty else { return out += close }
        let inner = indent.map { $0 + 1 }
        for (i, element) in elements.enumerated() {
            if i > 0 { out += "," }
            if let inner { out += "\n" + String(repeating: "  ", count: inner) }
            writeElement(element, &out, inner)
        }
        if let indent { out += "\n" + String(repeating: "  ", count: indent) }
        out += close
    }
}
