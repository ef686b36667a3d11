import Foundation
import Testing
import TestSupport
@testable import Platform

@Suite("This process")
struct ThisProcessTests {
    @Test("the creation mask is the one a child inherits, as the shell's umask prints it")
    func creationMaskMatchesTheShell() throws {
        let shell = try ChildProcess.run("/bin/sh", ["-c", "umask"])
        let printed = shell.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(ThisProcess.creationMask.rawValue == CModeT(printed, radix: 8))
        // Read, not set and set back: the status line is there, and says the same.
        let status = try BoundedFileReader.read(path: "/proc/self/status", limit: 1 << 16)
        #expect(ThisProcess.statusMask(String(decoding: status, as: UTF8.self)) == ThisProcess.creationMask)
    }

    @Test("the mask is read from the status text's Umask line, in octal; no line is no mask")
    func statusLine() {
        let status = "Name:\tdetent\nUmask:\t0027\nState:\tR (running)\n"
        #expect(ThisProcess.statusMask(status)?.rawValue == 0o027)
        #expect(ThisProcess.statusMask("Umask:   0777\n")?.rawValue == 0o777)
        #expect(ThisProcess.statusMask("Name:\tdetent\nState:\tR\n") == nil)
        #expect(ThisProcess.statusMask("Umask:\tabc\n") == nil)
    }
}
