import CPluginKernel
import Foundation
import Testing

/// The ring a plug-in's log messages wait in until the host prints them: a plug-in logs from
/// `run` (the audio thread) and `work` (the worker) at once, so it takes any number of writers.
@Suite struct LogRingTests {
    /// A ring of `slots` messages, freed by `body`'s end.
    static func withLog<T>(slots: Int, _ body: (UnsafeMutablePointer<DetentLV2Log>) throws -> T) rethrows -> T {
        let messages = UnsafeMutablePointer<CChar>.allocate(capacity: slots * Int(DETENT_LV2_LOG_MESSAGE))
        let types = UnsafeMutablePointer<UInt32>.allocate(capacity: slots)
        let sequences = UnsafeMutablePointer<UInt32>.allocate(capacity: slots)
        let log = UnsafeMutablePointer<DetentLV2Log>.allocate(capacity: 1)
        defer {
            messages.deallocate()
            types.deallocate()
            sequences.deallocate()
            log.deallocate()
        }
        detent_lv2_log_prepare(log, UInt32(slots), messages, types, sequences, 99)
        return try body(log)
    }

    static func write(_ log: UnsafeMutablePointer<DetentLV2Log>, type: UInt32, _ format: String, _ arguments: CVarArg...) {
        _ = withVaList(arguments) { detent_lv2_log_vprintf(log, type, format, $0) }
    }

    static func take(_ log: UnsafeMutablePointer<DetentLV2Log>) -> (text: String, type: UInt32)? {
        var text = [CChar](repeating: 0, count: Int(DETENT_LV2_LOG_MESSAGE))
        var type: UInt32 = 0
        guard detent_lv2_log_take(log, &text, &type) != 0 else { return nil }
        return (String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), type)
    }

    @Test("messages come out in order with their types; trace is not kept; a full ring drops and counts")
    func inOrder() {
        Self.withLog(slots: 4) { log in
            Self.write(log, type: 1, "one %d", Int32(1))
            Self.write(log, type: 99, "a trace")
            Self.write(log, type: 2, "two")
            #expect(Self.take(log)! == ("one 1", 1))
            #expect(Self.take(log)! == ("two", 2))
            #expect(Self.take(log) == nil)
            for n in 0..<6 { Self.write(log, type: 3, "m%d", Int32(n)) }
            #expect(log.pointee.dropped == 2)
            #expect((0..<4).map { _ in Self.take(log)?.text } == ["m0", "m1", "m2", "m3"])
            #expect(Self.take(log) == nil)
        }
    }

    @Test("two threads logging at once while a third drains: no message lost, torn or out of its writer's order")
    func twoWriters() {
        let perWriter = 100_000
        Self.withLog(slots: 64) { log in
            let shared = SendableLog(log)
            let running = RunningWriters(2)
            let writers = (0..<2).map { w in
                Thread {
                    for n in 0..<perWriter { Self.write(shared.log, type: UInt32(w + 1), "writer %d message %d", Int32(w), Int32(n)) }
                    running.finish()
                }
            }
            writers.forEach { $0.start() }
            var last = [-1, -1]
            var received = 0
            var bad = 0
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                let done = running.none
                guard let (text, type) = Self.take(log) else {
                    if done { break }
                    continue
                }
                let words = text.split(separator: " ")
                guard words.count == 4, let w = Int(words[1]), let n = Int(words[3]), (0...1).contains(w),
                      type == UInt32(w + 1), n > last[w] else {
                    bad += 1
                    continue
                }
                last[w] = n
                received += 1
            }
            #expect(bad == 0, "every message whole, of its writer's type and after its writer's last")
            #expect(received + Int(log.pointee.dropped) == 2 * perWriter, "each message taken or counted as dropped")
            #expect(received > 0)
        }
    }
}

private struct SendableLog: @unchecked Sendable {
    let log: UnsafeMutablePointer<DetentLV2Log>
    init(_ log: UnsafeMutablePointer<DetentLV2Log>) { self.log = log }
}

/// How many writer threads are still logging.
private final class RunningWriters: @unchecked Sendable {
    private let lock = NSLock()
    private var count: Int
    init(_ count: Int) { self.count = count }
    func finish() { lock.withLock { count -= 1 } }
    var none: Bool { lock.withLock { count == 0 } }
}
