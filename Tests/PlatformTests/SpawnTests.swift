import Glibc
import Testing
@testable import Platform

/// Starting programs with chosen descriptors, the line socket between a process and its
/// worker, and the refusal to copy a process that runs threads.
@Suite("Spawn and line sockets")
struct SpawnTests {
    @Test("a program gets the descriptors it is given, numbered in order, and its lines arrive whole")
    func descriptorsAndLines() throws {
        let (ours, theirs) = try LineSocket.pair()
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(null) }
        // Reads a line on descriptor 3, answers it doubled, then two lines in one write.
        let pid = try Spawn.start("/bin/sh", ["-c", "read x <&3; printf '%s %s\\nlast\\n' \"$x\" \"$x\" >&3"],
                                  descriptors: [null, null, null, theirs])
        close(theirs)
        #expect(ours.send("ping"))
        #expect(ours.receive(waiting: 10_000) == .line(Array("ping ping".utf8)))
        #expect(ours.receive(waiting: 10_000) == .line(Array("last".utf8)))
        #expect(ours.receive(waiting: 10_000) == .end)
        #expect(Spawn.wait(pid) == .exited(0))
        // The peer is gone: a send fails rather than raising SIGPIPE.
        #expect(!ours.send("anyone?"))
    }

    @Test("how a program ended: its status, or the signal that ended it")
    func status() throws {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(null) }
        let exited = try Spawn.start("/bin/sh", ["-c", "exit 3"], descriptors: [null, null, null])
        #expect(Spawn.wait(exited) == .exited(3))
        let killed = try Spawn.start("/bin/sh", ["-c", "kill -SEGV $$"], descriptors: [null, null, null])
        #expect(Spawn.wait(killed) == .signaled(SIGSEGV))
    }

    @Test("a process running threads (the test runner) is not copied")
    func noCopyWithThreads() throws {
        let (_, theirs) = try LineSocket.pair()
        defer { close(theirs) }
        // A thread that lives until the check is done, whatever else the runner is doing.
        let done = Semaphore()
        let thread = try NamedThread(name: "test-idle") { done.wait() }
        #expect(try Spawn.copyOfThisProcess(keeping: theirs, as: 3) == nil)
        done.signal()
        thread.join()
    }
}
