import Glibc
import Synchronization
import Testing
@testable import Platform

@Suite("Line writer")
struct LineWriterTests {
    /// Everything written to a pipe's write end by `write`, read back while it runs.
    private func captured(_ write: (LineWriter) throws -> Void) throws -> String {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        let readEnd = fds[0], writeEnd = fds[1]
        defer { close(readEnd) }
        let bytes = Mutex<[UInt8]>([])
        let drained = Semaphore()
        let reader = try NamedThread(name: "test-drain") {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while let n = try? DescriptorIO.read(readEnd, into: &chunk), n > 0 {
                bytes.withLock { $0 += chunk[..<n] }
            }
            drained.signal()
        }
        try write(LineWriter(fileDescriptor: writeEnd))
        close(writeEnd)
        let done = drained.wait(timeout: .seconds(60))
        if done { reader.join() }
        try #require(done, "the reader never saw the end of the pipe")
        return String(decoding: bytes.withLock { $0 }, as: UTF8.self)
    }

    @Test("line adds exactly one newline; write writes the text as it is")
    func lineAndWrite() throws {
        let text = try captured { writer in
            writer.line("detent: one")
            writer.write("\r\u{1B}[Kprogress")
            writer.line("")
        }
        #expect(text == "detent: one\n\r\u{1B}[Kprogress\n")
    }

    @Test("lines written from many threads at once arrive whole, never mixed mid-line")
    func wholeLines() throws {
        let threads = 8, linesEach = 200
        let text = try captured { writer in
            let workers = try (0..<threads).map { t in
                try NamedThread(name: "test-writer-\(t)") {
                    for i in 0..<linesEach {
                        // Under PIPE_BUF, so one write(2) lands in the pipe in one piece.
                        writer.line("thread \(t) line \(i) " + String(repeating: Character(String(t)), count: 1_000))
                    }
                }
            }
            workers.forEach { $0.join() }
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == threads * linesEach)
        var seen = Set<String>()
        for line in lines {
            let parts = line.split(separator: " ")
            guard parts.count == 5, let t = Int(parts[1]) else {
                Issue.record("a mixed line: \(line.prefix(80))…")
                return
            }
            #expect(parts[4] == Substring(String(repeating: Character(String(t)), count: 1_000)))
            seen.insert(parts[1] + " " + parts[3])
        }
        #expect(seen.count == threads * linesEach)
    }

    @Test("a line longer than a pipe holds is written in full")
    func longLine() throws {
        let long = String(repeating: "x", count: 300_000)
        let text = try captured { $0.line(long) }
        #expect(text == long + "\n")
    }

    @Test("the standard writers write to file descriptors 1 and 2")
    func standardStreams() {
        #expect(LineWriter.standardError.fileDescriptor == STDERR_FILENO)
        #expect(LineWriter.standardOutput.fileDescriptor == STDOUT_FILENO)
    }
}
