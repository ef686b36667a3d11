import Glibc
import Testing
import TestSupport
@testable import Platform

@Suite("File lines")
struct FileLinesTests {
    /// The lines `FileLines` gives for `text`, read `chunk` bytes at a time: a line's text, or
    /// nil for one too long.
    static func lines(_ text: String, maximumLength: Int = 16 << 20, chunk: Int = 1 << 20, stopAfter: Int = .max) throws -> [String?] {
        let folder = TemporaryFolder()
        let path = folder.write("lines", text: text)
        var found: [String?] = []
        var numbers: [Int] = []
        try FileLines.read(path: path, maximumLength: maximumLength, chunk: chunk) { number, line in
            numbers.append(number)
            switch line {
            case .text(let bytes): found.append(String(decoding: bytes, as: UTF8.self))
            case .tooLong: found.append(nil)
            }
            return found.count < stopAfter
        }
        #expect(numbers == Array(0..<numbers.count).map { $0 + 1 })
        return found
    }

    @Test("lines split at every newline, a carriage return before one dropped, a last line without one kept, whatever the chunk",
          arguments: [1, 2, 3, 7, 64, 1 << 20])
    func splits(chunk: Int) throws {
        let text = "first\r\n\n  \nsecond line\nthird\r\nno newline at the end"
        #expect(try Self.lines(text, chunk: chunk) == ["first", "", "  ", "second line", "third", "no newline at the end"])
        #expect(try Self.lines("a\n", chunk: chunk) == ["a"])
        #expect(try Self.lines("", chunk: chunk) == [])
    }

    @Test("a line longer than the longest taken is told as too long, in its place, and the next lines read on",
          arguments: [1, 4, 16, 1 << 20])
    func tooLong(chunk: Int) throws {
        let long = String(repeating: "x", count: 100)
        #expect(try Self.lines("short\n\(long)\nafter\n\(long)", maximumLength: 10, chunk: chunk) == ["short", nil, "after", nil])
        #expect(try Self.lines("0123456789\nend", maximumLength: 10, chunk: chunk) == ["0123456789", "end"])
    }

    @Test("many random lines across chunks equal the text split at its newlines")
    func random() throws {
        var generator = SystemRandomNumberGenerator()
        var lines: [String] = []
        for _ in 0..<2_000 {
            lines.append(String((0..<Int.random(in: 0..<40, using: &generator)).map { _ in "abc {}\"".randomElement(using: &generator)! }))
        }
        let text = lines.joined(separator: "\n") + "\n"
        for chunk in [5, 333, 4096] { #expect(try Self.lines(text, chunk: chunk) == lines) }
    }

    @Test("the reading stops when the caller says so; a file that cannot be read throws")
    func stopsAndFails() throws {
        #expect(try Self.lines("a\nb\nc\n", stopAfter: 2) == ["a", "b"])
        #expect(throws: SystemCallError.self) { try FileLines.read(path: "/nonexistent/lines") { _, _ in true } }
        #expect(throws: SystemCallError.self) { try FileLines.read(path: "/tmp") { _, _ in true } }
    }
}
