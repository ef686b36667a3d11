

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

    /// `text` as a JSON string literal, quotes included (the one JSON string writer).
    public static func quoted(_ text: String) -> String { JSONText.string(text) }

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
