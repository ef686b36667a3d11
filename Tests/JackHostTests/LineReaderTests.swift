import Foundation
import JackHost
import Testing

@Suite struct LineReaderTests {
    /// A reader on a pipe that already holds `text` and is closed.
    static func reader(_ text: String) -> LineReader {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data(text.utf8))
        try? pipe.fileHandleForWriting.close()
        let fd = dup(pipe.fileHandleForReading.fileDescriptor)
        return LineReader(fileDescriptor: fd)
    }

    static func all(_ reader: LineReader) -> [String] {
        var lines: [String] = []
        while let line = reader.readLine() { lines.append(line) }
        return lines
    }

    @Test func splitsLinesAndKeepsALastLineWithoutNewline() {
        #expect(Self.all(Self.reader("set cutoff 1k\r\nstatus\n\nquit")) == ["set cutoff 1k", "status", "", "quit"])
    }

    @Test func endOfInputEndsTheLoop() {
        let reader = Self.reader("")
        #expect(reader.readLine() == nil)
        #expect(reader.readLine() == nil)
    }

    /// Many reads (the reader takes 4 KiB at a time), lines cut across them; under a pipe's
    /// 64 KiB buffer, so the writer never waits.
    @Test func longInputArrivesWhole() {
        let lines = (0..<3_000).map { "set gain -\($0 % 60)" }
        #expect(Self.all(Self.reader(lines.joined(separator: "\n") + "\n")) == lines)
    }

    @Test func interruptEndsAWaitingReader() async {
        let pipe = Pipe()  // stays open: without the interrupt, readLine would wait forever
        let reader = LineReader(fileDescriptor: pipe.fileHandleForReading.fileDescriptor)
        let waiting = Task.detached { reader.readLine() }
        reader.interrupt()
        #expect(await waiting.value == nil)
        #expect(reader.readLine() == nil)
        _ = pipe
    }
}
