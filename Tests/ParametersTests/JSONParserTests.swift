import TextFormats
import Foundation
import Testing
@testable import Parameters
import TestSupport

@Suite("JSON parser and writer")
struct JSONParserTests {
    private func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    private func failure(_ text: String) -> JSONParseError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("reads every kind of value, keeping member order and number text")
    func values() throws {
        let value = try parse(#"{"z": [1, -0.5, 2E+3, 1e-7], "a": {"t": true, "f": false, "n": null}, "s": "x"}"#)
        #expect(value == .object([
            JSONMember("z", .array([.number("1"), .number("-0.5"), .number("2E+3"), .number("1e-7")])),
            JSONMember("a", .object([JSONMember("t", .bool(true)), JSONMember("f", .bool(false)), JSONMember("n", .null)])),
            JSONMember("s", .string("x")),
        ]))
        #expect(value.member("z") == .array([.number("1"), .number("-0.5"), .number("2E+3"), .number("1e-7")]))
        #expect(JSONValue.number("2E+3").doubleValue == 2000)
    }

    @Test("decodes string escapes, surrogate pairs included")
    func escapes() throws {
        let value = try parse(#"["\"\\\/\b\f\n\r\t", "\u00e9\u2212", "\ud83c\udfb9", "é"]"#)
        #expect(value == .array([
            .string("\"\\/\u{8}\u{C}\n\r\t"), .string("é\u{2212}"), .string("\u{1F3B9}"), .string("é"),
        ]))
    }

    @Test("reads NaN and Infinity as numbers so validation can name the field")
    func nonFiniteWords() throws {
        let value = try parse("[NaN, Infinity, -Infinity, 1e999]")
        guard case .array(let numbers) = value else { Issue.record("not an array"); return }
        #expect(numbers == [.number("NaN"), .number("Infinity"), .number("-Infinity"), .number("1e999")])
        #expect(numbers.map { $0.doubleValue?.isFinite } == [false, false, false, false])
    }

    @Test("points at the line and column of the first mistake", arguments: [
        ("{\n  \"a\": 1,\n}", 3, 1, "expected a member name in quotes, found '}'"),
        ("{\"a\": 1,}", 1, 9, "expected a member name in quotes, found '}'"),
        ("{\n  \"a\": x\n}", 2, 8, "expected a value, found 'x'"),
        ("{\"a\" 1}", 1, 6, "expected ':' after \"a\", found '1'"),
        ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}' after the value of \"a\", found '\"'"),
        ("[1, 2", 1, 6, "expected ',' or ']' in an array, found the end of the file"),
        ("", 1, 1, "unexpected end of the file, expected a value"),
        ("{\"a\": 1} x", 1, 10, "unexpected 'x' after the end of the document"),
        ("{\"a\": 1,\n \"a\": 2}", 2, 2, "duplicate member \"a\""),
        ("[07]", 1, 2, "a number must not start with 0 (write 7, not 07)"),
        ("[1.]", 1, 4, "expected a digit after the decimal point, found ']'"),
        ("[-]", 1, 3, "expected a digit after '-', found ']'"),
        ("[1e]", 1, 4, "expected a digit after the exponent, found ']'"),
        ("[\"a\nb\"]", 1, 4, "a control character must be escaped inside a string"),
        ("[\"\\x\"]", 1, 3, "unknown escape sequence in a string"),
        ("[\"\\u12\"]", 1, 3, "a \\u escape needs four hexadecimal digits"),
        ("[\"\\ud83c\"]", 1, 3, "unpaired UTF-16 surrogate in a \\u escape"),
        ("[\"abc", 1, 6, "unexpected end of the file inside a string"),
        ("[tru]", 1, 2, "expected a value, found 't'"),
        ("[\"é\", é]", 1, 7, "expected a value, found 'é'"),
    ])
    func malformed(text: String, line: Int, column: Int, message: String) {
        #expect(failure(text) == JSONParseError(line: line, column: column, message: message))
    }

    @Test("refuses bytes that are not UTF-8, and nesting deeper than the limit")
    func refusals() {
        #expect(throws: JSONParseError(line: 1, column: 1, message: "the file is not valid UTF-8 text")) {
            _ = try JSONParser.parse([0x7B, 0xFF, 0x7D])
        }
        let deep = String(repeating: "[", count: JSONParser.maximumDepth + 1)
        #expect(failure(deep) == JSONParseError(
            line: 1, column: JSONParser.maximumDepth + 1, message: "nested more than \(JSONParser.maximumDepth) levels deep"))
        let allowed = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        #expect(failure(allowed) == nil)
    }

    @Test("skips a UTF-8 byte order mark without shifting columns")
    func byteOrderMark() throws {
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == .array([.number("1")]))
        #expect(throws: JSONParseError(line: 1, column: 2, message: "expected a value, found 'x'")) {
            _ = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[x]".utf8))
        }
    }

    static let documents: [JSONValue] = [
        .object([]), .array([]), .string(""),
        .object([
            JSONMember("name", .string("Tab\there \"quoted\" \\ back\u{1} é 🎹")),
            JSONMember("list", .array([.number("1"), .number("-2.5e-3"), .null, .bool(true), .object([])])),
            JSONMember("nested", .object([JSONMember("deeper", .array([.array([.number("0")])]))])),
        ]),
    ]

    @Test("what the writer writes, pretty or compact, reads back the same", arguments: documents)
    func roundTrip(value: JSONValue) throws {
        #expect(try parse(JSONWriter.text(of: value, pretty: true)) == value)
        #expect(try parse(JSONWriter.text(of: value, pretty: false)) == value)
        #expect(!JSONWriter.text(of: value, pretty: false).contains("\n"))
    }

    @Test("the writer's output is JSON for an independent parser too", arguments: documents)
    func independentParser(value: JSONValue) throws {
        let text = JSONWriter.text(of: value, pretty: true)
        #expect(throws: Never.self) {
            _ = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        }
    }

    @Test("pretty output indents two spaces per level, one member per line")
    func prettyLayout() {
        let value = JSONValue.object([JSONMember("a", .array([.number("1"), .number("2")])), JSONMember("b", .object([]))])
        #expect(JSONWriter.text(of: value, pretty: true) == "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}\n")
        #expect(JSONWriter.text(of: value, pretty: false) == #"{"a":[1,2],"b":{}}"#)
    }

    @Test("numbers are written as the shortest text that reads back to the same double",
          arguments: [800.0, -12, 0.707, 0.1, 1e-5, 12_345.678, 1e300, -0.0, 2_500])
    func numbers(value: Double) {
        guard case .number(let text) = JSONValue.number(value) else { Issue.record("not a number"); return }
        #expect(Double(text) == value)
        if value == value.rounded() && abs(value) < 1e15 {
            #expect(!text.contains(".") && !text.contains("e"))
        }
    }
}
