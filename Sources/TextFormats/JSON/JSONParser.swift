/// A strict JSON parser (RFC 8259) that reports the line and column of the first problem.
///
/// Foundation's parsers on Linux report only a character offset, accept trailing commas and
/// keep the last of two duplicate keys silently; a preset file is edited by hand, so a mistake
/// must be pointed at precisely and never half-accepted. The parser also keeps each number's
/// text and each object's member order (see ``JSONValue``).
///
/// One extension: `NaN`, `Infinity` and `-Infinity` are read as numbers, so that the preset
/// validation can say which value is not finite instead of "unexpected character".
///
/// ```swift
/// try JSONParser.parse(Array("{\n  \"a\": 1,\n}".utf8))
/// // throws JSONParseError: line 3, column 1: expected a member name in quotes, found '}'
/// ```
public struct JSONParser {
    /// Nesting deeper than this is refused rather than risking the stack.
    public static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index: Int
    private var depth = 0

    /// Parses one JSON value filling the whole input (a UTF-8 byte order mark is skipped).
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw JSONParseError(line: 1, column: 1, message: "the file is not valid UTF-8 text")
        }
        var parser = JSONParser(bytes: bytes, index: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else {
            throw parser.failure("unexpected \(parser.describeCurrent()) after the end of the document")
        }
        return value
    }

    private init(bytes: [UInt8], index: Int) {
        self.bytes = bytes
        self.index = index
    }

    // MARK: Values

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw failure("unexpected end of the file, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "N"): try expectWord("NaN"); return .number("NaN")
        case UInt8(ascii: "I"): try expectWord("Infinity"); return .number("Infinity")
        case UInt8(ascii: "-") where peek(1) == UInt8(ascii: "I"):
            index += 1
            try expectWord("Infinity")
            return .number("-Infinity")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw failure("expected a value, found \(describeCurrent())")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterNesting()
        index += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw failure("expected a member name in quotes, found \(describeCurrent())")
            }
            let keyStart = index
            let key = try parseString()
            if members.contains(where: { $0.key == key }) {
                throw failure("duplicate member \"\(key)\"", at: keyStart)
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after \"\(key)\", found \(describeCurrent())") }
            index += 1
            skipWhitespace()
            members.append(JSONMember(key, try parseValue()))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(members)
            default: throw failure("expected ',' or '}' after the value of \"\(key)\", found \(describeCurrent())")
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterNesting()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default: throw failure("expected ',' or ']' in an array, found \(describeCurrent())")
            }
        }
    }

    /// Parses a quoted string starting at the opening quote.
    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        var utf8: [UInt8] = []
        while true {
            guard index < bytes.count else { throw failure("unexpected end of the file inside a string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &utf8)
            case 0..<0x20:
                throw failure("a control character must be escaped inside a string")
            default:
                utf8.append(byte)
                index += 1
            }
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONParseError) {
        let start = index
        index += 1
        guard index < bytes.count else { throw failure("unexpected end of the file inside a string") }
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let byte = simple[bytes[index]] {
            utf8.append(byte)
            index += 1
            return
        }
        guard bytes[index] == UInt8(ascii: "u") else { throw failure("unknown escape sequence in a string", at: start) }
        index += 1
        var scalar = try parseHex4(escapeStart: start)
        if (0xD800..<0xDC00).contains(scalar) {
            // A high surrogate must be followed by an escaped low surrogate.
            guard peek(0) == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") else {
                throw failure("unpaired UTF-16 surrogate in a \\u escape", at: start)
            }
            index += 2
            let low = try parseHex4(escapeStart: start)
            guard (0xDC00..<0xE000).contains(low) else { throw failure("unpaired UTF-16 surrogate in a \\u escape", at: start) }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw failure("unpaired UTF-16 surrogate in a \\u escape", at: start) }
        utf8.append(contentsOf: unicode.utf8)
    }

    private mutating func parseHex4(escapeStart: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexDigit(bytes[index]) else {
                throw failure("a \\u escape needs four hexadecimal digits", at: escapeStart)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Parses `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, keeping its text.
    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
            if isDigit(current) { throw failure("a number must not start with 0 (write 7, not 07)", at: start) }
        } else {
            try digits(after: "'-'", start: start)
        }
        if current == UInt8(ascii: ".") {
            index += 1
            try digits(after: "the decimal point", start: start)
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            try digits(after: "the exponent", start: start)
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private mutating func digits(after what: String, start: Int) throws(JSONParseError) {
        guard isDigit(current) else { throw failure("expected a digit after \(what), found \(describeCurrent())") }
        while isDigit(current) { index += 1 }
    }

    // MARK: Helpers

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private func isDigit(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func expectWord(_ word: String) throws(JSONParseError) {
        let start = index
        for expected in word.utf8 {
            guard current == expected else {
                index = start
                throw failure("expected a value, found \(describeCurrent())")
            }
            index += 1
        }
    }

    private mutating func enterNesting() throws(JSONParseError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nested more than \(Self.maximumDepth) levels deep") }
    }

    /// The character at the current position, quoted, for messages.
    private func describeCurrent() -> String {
        guard index < bytes.count else { return "the end of the file" }
        let byte = bytes[index]
        if byte < 0x20 || byte == 0x7F { return "a control character" }
        var end = index + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return "'" + String(decoding: bytes[index..<end], as: UTF8.self) + "'"
    }

    private func failure(_ message: String, at offset: Int? = nil) -> JSONParseError {
        let (line, column) = Self.position(of: offset ?? index, in: bytes)
        return JSONParseError(line: line, column: column, message: message)
    }

    /// The 1-based line and column (in characters, as editors count them) of a byte offset.
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1, column = 1
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        for byte in bytes[min(start, offset)..<min(offset, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}

/// Where and why a JSON document could not be read.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "line \(line), column \(column): \(message)" }
}
