import Glibc
import Synchronization
import Testing
@testable import Platform

@Suite("System calls retried on interrupt")
struct SystemCallTests {
    @Test("a call failing with EINTR is called again until it succeeds")
    func retriesInterrupts() throws {
        var calls = 0
        let result = try systemCall("test") { () -> Int in
            calls += 1
            if calls <= 2 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7)
        #expect(calls == 3)
    }

    @Test("any other failure is thrown once, naming the call and its Errno")
    func throwsOtherErrors() {
        var calls = 0
        #expect(throws: SystemCallError("fsync", .badFileDescriptor)) {
            try systemCall("fsync") { () -> Int32 in
                calls += 1
                errno = EBADF
                return -1
            }
        }
        #expect(calls == 1)
        #expect(Errno.badFileDescriptor.description == String(cString: strerror(EBADF)))
        #expect(SystemCallError("fsync", .badFileDescriptor).description == "fsync: " + String(cString: strerror(EBADF)))
    }

    @Test("a successful negative result other than -1 is passed through")
    func otherNegative() throws {
        #expect(try systemCall("test") { Int32(-2) } == -2)
    }

    @Test("a blocking read interrupted by a signal (no SA_RESTART) carries on and returns the data")
    func interruptedRead() throws {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }  // only interrupts
        action.sa_flags = 0  // no SA_RESTART: the read fails with EINTR
        var previous = sigaction()
        sigaction(SIGUSR2, &action, &previous)
        defer { sigaction(SIGUSR2, &previous, nil) }

        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let readEnd = fds[0]

        let calls = Atomic(0)
        let reader = Mutex<pthread_t?>(nil)
        let result = Mutex<Result<Int, SystemCallError>?>(nil)
        let finished = Semaphore()
        let thread = try NamedThread(name: "test-eintr") {
            // Threads inherit the signal mask of whoever made them; the test runner's may
            // block SIGUSR2.
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGUSR2)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            reader.withLock { $0 = pthread_self() }
            var byte: UInt8 = 0
            let outcome = Result { () throws(SystemCallError) in
                try systemCall("read") { () -> Int in
                    calls.add(1, ordering: .relaxed)
                    return read(readEnd, &byte, 1)
                }
            }
            result.withLock { $0 = outcome }
            finished.signal()
        }
        // Interrupt the read until it has been called again at least once.
        let deadline = monotonicSeconds() + 20
        while calls.load(ordering: .relaxed) < 2 && monotonicSeconds() < deadline {
            if let target = reader.withLock({ $0 }) { pthread_kill(target, SIGUSR2) }
            usleep(5_000)
        }
        var byte: UInt8 = 42
        _ = write(fds[1], &byte, 1)
        let done = finished.wait(timeout: .seconds(20))
        if done { thread.join() }
        try #require(done, "the read never returned")
        let count = calls.load(ordering: .relaxed)
        #expect(count >= 2, "the read was never interrupted")
        #expect(try result.withLock { $0 }?.get() == 1)
    }
}
