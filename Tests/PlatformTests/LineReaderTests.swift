import Foundation
import Platform
import Testing
import TestSupport

@Suite struct LineReaderTests {
    /// Every line a reader gives for `text`, read from a pipe that holds it and is closed.
    /// The reader borrows the pipe's read end, which the pipe closes once the reading is done.
    static func lines(_ text: String) -> [String] {
        withReader(text) { reader in
            var lines: [String] = []
            while let line = reader.readLine() {
                switch line {
                case .text(let text): lines.append(text)
                case .tooLong: lines.append("<too long>")
                }
            }
            return lines
        }
    }

    /// Runs `body` with a reader on a pipe that already holds `text` and is closed; the pipe
    /// (and with it the descriptor the reader reads) lives until `body` returns.
    static func withReader<T>(_ text: String, _ body: (LineReader) -> T) -> T {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(text.utf8))
        try? pipe.fileHandleForWriting.close()
        return withExtendedLifetime(pipe) { body(LineReader(fileDescriptor: pipe.fileHandleForReading.fileDescriptor)) }
    }

    @Test func splitsLinesAndKeepsALastLineWithoutNewline() {
        #expect(Self.lines("set cutoff 1k\r\nstatus\n\nquit") == ["set cutoff 1k", "status", "", "quit"])
    }

    @Test func endOfInputEndsTheLoop() {
        Self.withReader("") { reader in
            #expect(reader.readLine() == nil)
            #expect(reader.readLine() == nil)
        }
    }

    /// Many reads (the reader takes 4 KiB at a time), lines cut across them; under a pipe's
    /// 64 KiB buffer, so the writer never waits.
    @Test func longInputArrivesWhole() {
        let lines = (0..<3_000).map { "set gain -\($0 % 60)" }
        #expect(Self.lines(lines.joined(separator: "\n") + "\n") == lines)
    }

    @Test func interruptEndsAWaitingReader() async {
        let pipe = Pipe()  // stays open: without the interrupt, readLine would wait forever
        let reader = LineReader(fileDescriptor: pipe.fileHandleForReading.fileDescriptor)
        let waiting = Task.detached { reader.readLine() }
        reader.interrupt()
        #expect(await waiting.value == nil)
        #expect(reader.readLine() == nil)
        withExtendedLifetime(pipe) {}  // its read end is the reader's input until here
    }

    /// A line over the limit is one `tooLong`, whatever its length, and the lines around it
    /// arrive intact; so does a last line that is too long and has no newline. Read from a
    /// file, so no writer has to keep up: 16 MiB is read in 4 KiB pieces, each looked at once.
    @Test(arguments: [LineReader.maximumLength + 1, 1 << 20, 16 << 20])
    func aTooLongLineIsDroppedWholeAndTheNextLinesArrive(length: Int) throws {
        let long = String(repeating: "x", count: length)
        #expect(try Self.fileLines("set gain -6\n\(long)\nstatus\n\(long)")
                == [.text("set gain -6"), .tooLong, .text("status"), .tooLong])
    }

    @Test func aLineOfExactlyTheLimitIsTaken() throws {
        let line = String(repeating: "y", count: LineReader.maximumLength)
        #expect(try Self.fileLines(line + "\r\nquit\n") == [.text(line), .text("quit")])
    }

    /// Every line a reader gives for `text`, read from a file that holds it.
    static func fileLines(_ text: String) throws -> [LineReader.Line] {
        let folder = TemporaryFolder()
        let fd = open(folder.write("input", text: text), O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let reader = LineReader(fileDescriptor: fd)
        var lines: [LineReader.Line] = []
        while let line = reader.readLine() { lines.append(line) }
        return lines
    }
}
