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

    /// Setting the wall clock in a test would disturb the whole machine, so this checks the
    /// mechanism: the deadline is read from and waited on against `CLOCK_MONOTONIC`, whose
    /// steps no `settimeofday` can cause (`sem_timedwait` would wait on `CLOCK_REALTIME`).
    @Test("timed waits read and wait on the monotonic clock, never the wall clock")
    func monotonicClock() throws {
        let shim = try String(contentsOfFile: packageRoot + "/Sources/CPlatform/CPlatform.c", encoding: .utf8)
        #expect(shim.contains("sem_clockwait(semaphore, CLOCK_MONOTONIC, deadline)"))
        let swift = try String(contentsOfFile: packageRoot + "/Sources/Platform/Semaphore.swift", encoding: .utf8)
        #expect(swift.contains("MonotonicClock.nowSpec()"))
        #expect(!swift.contains("sem_timedwait(") && !swift.contains("CLOCK_REALTIME") && !swift.contains("clock_gettime("))
        let clock = try String(contentsOfFile: packageRoot + "/Sources/Platform/MonotonicClock.swift", encoding: .utf8)
        #expect(clock.contains("clock_gettime(CLOCK_MONOTONIC, &ts)") && !clock.contains("CLOCK_REALTIME"))
    }
}
