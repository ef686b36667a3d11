import Parameters
import Testing
import Foundation
import Synchronization
@testable import AudioEngine
import Glibc

/// A thread-safe tally for producer threads.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// A flag one thread raises to tell another to stop.
final class StopFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    func raise() { raised.store(true, ordering: .relaxed) }
    var isRaised: Bool { raised.load(ordering: .relaxed) }
}

@Suite("Parameter queue")
struct ParameterQueueTests {
    /// The longest any loop or wait here may run before the test fails instead of hanging;
    /// the work itself takes well under a second.
    static let limit = 60

    /// Runs `body` on a new thread; the returned closure waits for it to finish, at most
    /// ``limit`` seconds, and tells whether it did.
    func spawn(_ body: @escaping @Sendable () -> Void) -> () -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        return { done.wait(timeout: .now() + .seconds(Self.limit)) == .success }
    }

    /// The time after which a loop gives up.
    static var deadline: ContinuousClock.Instant { .now + .seconds(limit) }

    @Test("two threads, two million changes: none lost or duplicated, order kept")
    func lossless() {
        let queue = ParameterQueue(capacity: 256, parameterCount: LowpassGain.table.count)
        let count = 2_000_000
        // Whichever side fails first stops the other: a consumer that gives up must not leave
        // the producer spinning on a full ring, nor a lost change leave the consumer waiting.
        let stop = StopFlag()
        let join = spawn {
            for i in 0..<count {
                let change = ParameterChange(.cutoff, Double(i), frame: Int64(i))
                while !queue.trySend(change) {
                    if stop.isRaised { return }
                    // Full: let the consumer run (on a busy machine it may share this core).
                    sched_yield()
                }
            }
        }
        let deadline = Self.deadline
        var expected = 0
        while expected < count {
            if let c = queue.storage.peek() {
                queue.storage.pop()
                #expect(c.frame == Int64(expected) && c.value == Double(expected))
                if c.value != Double(expected) { break }
                expected += 1
            } else if ContinuousClock.now > deadline {
                Issue.record("only \(expected) of \(count) changes arrived in \(Self.limit) s")
                break
            } else {
                sched_yield()
            }
        }
        stop.raise()
        #expect(join(), "the producer did not finish")
        #expect(expected == count)
        #expect(queue.storage.peek() == nil)
    }

    @Test("under overflow the final value of every parameter still arrives, never older after newer")
    func overflowKeepsFinalValues() {
        // Gain starts at the bottom, so every value the producer sends is a step up.
        let engine = Engine(initialValues: [.gain: -60], queueCapacity: 16)
        try! engine.prepare(sampleRate: 48_000, maxFrames: 64, channels: 1)
        let rounds = 200_000
        let coalesced = Counter()
        let stop = StopFlag()
        let finished = StopFlag()
        let join = spawn {
            for i in 1...rounds where !stop.isRaised {
                if !engine.controls.send(ParameterChange(.cutoff, 20 + Double(i % 19_000), rampFrames: 0)) {
                    coalesced.increment()
                }
                if !engine.controls.send(ParameterChange(.gain, -60 + Double(i) * 72 / Double(rounds), rampFrames: 0)) {
                    coalesced.increment()
                }
            }
            engine.controls.send(ParameterChange(.cutoff, 4_321, rampFrames: 0))
            engine.controls.send(ParameterChange(.resonance, 3, rampFrames: 0))
            finished.raise()
        }
        var buffer = [Float](repeating: 0, count: 64)
        var lastGain = -Double.infinity
        var monotonic = true
        func block() {
            buffer.withUnsafeMutableBufferPointer { b in
                var ins = [UnsafePointer(b.baseAddress!)]
                var outs = [b.baseAddress!]
                engine.process(input: &ins, output: &outs, frames: 64)
            }
            let g = engine.currentValue(.gain)
            if g < lastGain - 1e-9 { monotonic = false }
            lastGain = g
        }
        // The audio side runs slower than the producer, so the ring overflows constantly. It
        // runs until the producer has sent everything (a slow producer, as under a sanitizer,
        // must not be cut short) and the ring is empty; `stop` only ends a run past its limit.
        let deadline = Self.deadline
        var blocks = 0
        while !finished.isRaised || engine.controls.pendingCount > 0 || blocks < 2_000 {
            block()
            blocks += 1
            if ContinuousClock.now > deadline {
                Issue.record("changes still pending after \(Self.limit) s")
                break
            }
        }
        stop.raise()
        #expect(join(), "the producer did not finish")
        // The last values may have taken the overflow slots, which glide with the default
        // 30 ms ramp: run well past it (64 blocks of 64 frames = 85 ms).
        for _ in 0..<64 { block() }
        #expect(coalesced.value > 0, "the ring must have overflowed for this test to mean anything")
        #expect(monotonic, "gain values went backwards")
        #expect(engine.currentValue(.cutoff) == 4_321)
        #expect(engine.currentValue(.resonance) == 3)
        #expect(abs(engine.currentValue(.gain) - 12) < 1e-9)
    }

    @Test("send reports whether the change kept its frame or was coalesced")
    func coalescingIsReported() {
        let queue = ParameterQueue(capacity: 2, parameterCount: LowpassGain.table.count)
        #expect(queue.send(ParameterChange(.gain, 1)))
        #expect(queue.send(ParameterChange(.gain, 2)))
        #expect(!queue.send(ParameterChange(.gain, 3)))
        #expect(!queue.trySend(ParameterChange(.gain, 4)))   // the slot is pending: later changes wait
        #expect(queue.trySend(ParameterChange(.cutoff, 100)) == false)  // ring still full
        #expect(queue.storage.takeSlot(ParameterIndex.gain.rawValue)?.value == 3)
    }
}
