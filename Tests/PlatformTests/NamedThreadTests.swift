import Foundation
import Glibc
import Synchronization
import Testing
@testable import Platform

@Suite("Named thread")
struct NamedThreadTests {
    /// The names of this process's threads, as the kernel shows them.
    private func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .newlines)
        }
    }

    /// Runs a thread called `name` that waits until the test has looked, and returns what
    /// the kernel's thread names held meanwhile.
    private func namesWhileRunning(_ name: String) throws -> [String] {
        let running = Semaphore(), finish = Semaphore()
        let thread = try NamedThread(name: name) {
            running.signal()
            _ = finish.wait(timeout: .seconds(30))
        }
        defer {
            finish.signal()
            thread.join()
        }
        try #require(running.wait(timeout: .seconds(30)), "the thread never started")
        return threadNames()
    }

    @Test("the thread's name is visible in /proc/self/task/*/comm while it runs")
    func visibleName() throws {
        let names = try namesWhileRunning("test-visible")
        #expect(names.contains("test-visible"), "thread names: \(names)")
    }

    @Test("a name longer than the kernel's 15 bytes is shortened, not refused")
    func longName() throws {
        let names = try namesWhileRunning("test-a-rather-long-name")
        #expect(names.contains("test-a-rather-l"), "thread names: \(names)")
    }

    @Test("join returns once the body has returned")
    func join() throws {
        let done = Atomic(false)
        let thread = try NamedThread(name: "test-join") {
            usleep(20_000)
            done.store(true, ordering: .releasing)
        }
        #expect(!thread.isCurrent)
        thread.join()
        let finished = done.load(ordering: .acquiring)
        #expect(finished)
    }

    @Test("a detached thread runs its body, and knows itself as current")
    func detached() throws {
        let ran = Semaphore()
        let wasCurrent = Atomic(false)
        let holder = Mutex<NamedThread?>(nil)
        try NamedThread.detach(name: "test-detached") {
            ran.signal()
        }
        #expect(ran.wait(timeout: .seconds(30)))
        let joinable = try NamedThread(name: "test-current") {
            _ = ran.wait(timeout: .seconds(30))
            if let me = holder.withLock({ $0 }) { wasCurrent.store(me.isCurrent, ordering: .relaxed) }
        }
        holder.withLock { $0 = joinable }
        ran.signal()
        joinable.join()
        let current = wasCurrent.load(ordering: .relaxed)
        #expect(current)
    }
}
