import Glibc
import Testing
@testable import Platform

@Suite("Writes and reads through a descriptor")
struct DescriptorIOTests {
    /// A pipe's ends, closed after `body`.
    private func withPipe(_ body: (Int32, Int32) throws -> Void) throws {
        let (readEnd, writeEnd) = try Pipe.make()
        defer { close(readEnd); close(writeEnd) }
        try body(readEnd, writeEnd)
    }

    @Test("short writes and interrupts are continued until every byte is taken")
    func continuesShortWrites() throws {
        try withPipe { readEnd, writeEnd in
            let bytes = Array(UInt8(0)..<UInt8(100))
            var calls = 0
            var written = 0
            // Takes at most 7 bytes a call, and is interrupted every third call.
            try DescriptorIO.writeAll(writeEnd, bytes, written: &written) { fd, raw in
                calls += 1
                if calls % 3 == 0 {
                    errno = EINTR
                    return -1
                }
                return DescriptorIO.systemWrite(fd, UnsafeRawBufferPointer(rebasing: raw.prefix(7)))
            }
            #expect(written == 100)
            var back = [UInt8](repeating: 0, count: 200)
            let n = try DescriptorIO.read(readEnd, into: &back)
            #expect(Array(back[..<n]) == bytes)
        }
    }

    @Test("a failure names the call, and says how far the write got")
    func failureNamesTheCall() throws {
        try withPipe { _, writeEnd in
            var written = 0
            var calls = 0
            #expect(throws: SystemCallError("write", .noSpace)) {
                try DescriptorIO.writeAll(writeEnd, [UInt8](repeating: 1, count: 50), written: &written) { fd, raw in
                    calls += 1
                    if calls == 1 { return DescriptorIO.systemWrite(fd, UnsafeRawBufferPointer(rebasing: raw.prefix(20))) }
                    errno = ENOSPC
                    return -1
                }
            }
            #expect(written == 20)
        }
    }

    @Test("a write that takes nothing fails rather than spinning")
    func zeroWriteFails() {
        var written = 0
        #expect(throws: SystemCallError("write", .ioError)) {
            try DescriptorIO.writeAll(-1, [1, 2, 3], written: &written) { _, _ in 0 }
        }
    }

    @Test("a real failure from the system names the call: writing to a closed descriptor")
    func badDescriptor() {
        #expect(throws: SystemCallError("write", .badFileDescriptor)) { try DescriptorIO.writeAll(-1, [1]) }
        #expect(throws: SystemCallError("fcntl", .badFileDescriptor)) { _ = try DescriptorIO.duplicate(-1) }
    }

    @Test("positioned writes and reads leave the descriptor's position alone")
    func positioned() throws {
        var template = Array("/tmp/detent-descriptor-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        try #require(fd >= 0)
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { close(fd); unlink(path) }
        try DescriptorIO.writeAll(fd, Array("hello world".utf8))
        try Array("WORLD".utf8).withUnsafeBytes { try DescriptorIO.writeAll(fd, $0, at: 6) }
        #expect(lseek(fd, 0, SEEK_CUR) == 11)
        var back = [UInt8](repeating: 0, count: 32)
        let n = try back.withUnsafeMutableBytes { try DescriptorIO.read(fd, into: $0, at: 0) }
        #expect(String(decoding: back[..<n], as: UTF8.self) == "hello WORLD")
        #expect(try DescriptorIO.size(fd) == 11)
        #expect(!DescriptorIO.isStream(fd))
    }
}
