import Foundation
import Glibc
import Testing
import TestSupport
@testable import Platform

/// Seconds on the monotonic clock, the clock timed waits are measured on.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

@Suite("Semaphore")
struct SemaphoreTests {
    @Test("signals are counted: each wait takes one, tryWait never blocks")
    func counts() {
        let semaphore = Semaphore(2)
        semaphore.signal()
        #expect(semaphore.tryWait())
        #expect(semaphore.tryWait())
        #expect(semaphore.tryWait())
        #expect(!semaphore.tryWait())
        semaphore.signal()
        semaphore.signal()
        #expect(semaphore.drain() == 2)
        #expect(!semaphore.tryWait())
    }

    @Test("a timed wait returns as soon as another thread signals")
    func signalled() throws {
        let semaphore = Semaphore()
        let started = monotonicSeconds()
        let thread = try NamedThread(name: "test-signal") {
            usleep(50_000)
            semaphore.signal()
        }
        let got = semaphore.wait(timeout: .seconds(20))
        let elapsed = monotonicSeconds() - started
        thread.join()
        #expect(got)
        #expect(elapsed < 10, "waited \(elapsed) s for a signal sent after 0.05 s")
    }

    @Test("a timed wait with nothing to take times out after its timeout, in bounded time")
    func timesOut() {
        let semaphore = Semaphore()
        for timeout in [Duration.milliseconds(100), .milliseconds(250)] {
            let started = monotonicSeconds()
            let got = semaphore.wait(timeout: timeout)
            let elapsed = monotonicSeconds() - started
            let seconds = Double(timeout.components.attoseconds) / 1e18
            #expect(!got)
            #expect(elapsed >= seconds - 0.001, "timed out after \(elapsed) s, before \(seconds) s")
            #expect(elapsed < seconds + 2, "timed out after \(elapsed) s, long after \(seconds) s")
        }
    }

    @Test("a zero or negative timeout takes a waiting signal, and does not wait without one")
    func zeroTimeout() {
        let semaphore = Semaphore(1)
        #expect(semaphore.wait(timeout: .zero))
        let started = monotonicSeconds()
        #expect(!semaphore.wait(timeout: .seconds(-5)))
        #expect(monotonicSeconds() - started < 1)
    }

    @Test("the deadline is the timeout added to now, nanoseconds carried into seconds")
    func deadline() {
        let now = timespec(tv_sec: 100, tv_nsec: 900_000_000)
        let d = Semaphore.deadline(after: .milliseconds(1_250), from: now)
        #expect(d.tv_sec == 102 && d.tv_nsec == 150_000_000)
        let none = Semaphore.deadline(after: .seconds(-1), from: now)
        #expect(none.tv_sec == 100 && none.tv_nsec == 900_000_000)
    }

    /// Setting the wall clock would disturb the whole machine, so the wall clock is made to
    /// read an hour off in a child alone: `timesOut` runs again in a child of this test binary
    /// with a library preloaded that shifts every wall-clock reading (`Fixtures/shifted-wall-clock.c`).
    /// A deadline taken from the wall clock then waits an hour too long (+3600, killed at 20 s)
    /// or returns at once (−3600, before its timeout); one on the monotonic clock is unmoved.
    @Test("timed waits keep their length while the wall clock reads an hour ahead or behind")
    func wallClockSteps() throws {
        let folder = TemporaryFolder()
        let shim = folder.file("shifted-wall-clock.so")
        let compiled = try ChildProcess.run("/usr/bin/cc", ["-O2", "-shared", "-fPIC", "-o", shim,
                                                            packageRoot + "/Tests/PlatformTests/Fixtures/shifted-wall-clock.c", "-ldl"])
        try #require(compiled.status.exited == 0, "cc: \(compiled.stderrText)")
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        for shift in ["3600", "-3600"] {
            var environment = ProcessInfo.processInfo.environment
            environment["LD_PRELOAD"] = shim
            environment["DETENT_WALL_SHIFT"] = shift
            let outcome = try ChildProcess.run("/usr/bin/timeout", ["-s", "KILL", "20", binary, "--testing-library", "swift-testing",
                                                                    "--filter", "SemaphoreTests/timesOut"], environment: environment)
            #expect(outcome.status.signal == nil && outcome.status.exited != 137, "with the wall clock \(shift) s off, a wait of at most 0.35 s had not ended after 20 s")
            #expect(outcome.status.exited == 0, "with the wall clock \(shift) s off: \(outcome.stderrText.suffix(600))")
            #expect((outcome.stdoutText + outcome.stderrText).contains("1 test"), "the child ran the timed waits: \(outcome.stderrText.suffix(300))")
        }
    }
}
