import Foundation
import JackHost
import Testing

@Suite struct LineReaderTests {
    /// Every line a reader gives for `text`, read from a pipe that holds it and is closed.
    /// The reader borrows the pipe's read end, which the pipe closes once the reading is done.
    static func lines(_ text: String) -> [String] {
        withReader(text) { reader in
            var lines: [String] = []
            while let line = reader.readLine() { lines.append(line) }
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
}
