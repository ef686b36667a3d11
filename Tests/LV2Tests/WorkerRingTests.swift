import CPluginKernel
import Foundation
import Testing

/// The rings the live worker's requests and responses travel in, and the worker's round trip:
/// a request scheduled on the audio thread is worked on another thread and its response is
/// delivered at a later `run`, never while the audio thread waits.
@Suite struct WorkerRingTests {
    /// A ring of `capacity` bytes, freed by `body`'s end.
    static func withRing<T>(capacity: Int, _ body: (UnsafeMutablePointer<DetentByteRing>) throws -> T) rethrows -> T {
        let data = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        let ring = UnsafeMutablePointer<DetentByteRing>.allocate(capacity: 1)
        ring.initialize(to: DetentByteRing(data: data, capacity: UInt32(capacity), head: 0, tail: 0))
        defer {
            data.deallocate()
            ring.deallocate()
        }
        return try body(ring)
    }

    static func write(_ ring: UnsafeMutablePointer<DetentByteRing>, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { detent_ring_write(ring, $0.baseAddress, UInt32(bytes.count)) } != 0
    }

    static func take(_ ring: UnsafeMutablePointer<DetentByteRing>) -> [UInt8]? {
        var size: UInt32 = 0
        guard let data = detent_ring_peek(ring, &size) else { return nil }
        defer { detent_ring_consume(ring, size) }
        return Array(UnsafeBufferPointer(start: data, count: Int(size)))
    }

    @Test("records come out whole and in order, across the wrap, and a full ring refuses without writing")
    func recordsSurviveTheWrap() {
        Self.withRing(capacity: 64) { ring in
            // 8-byte header + padded data: 16 + 24 + 16 bytes fill 56 of 64.
            #expect(Self.write(ring, [1, 2, 3]))
            #expect(Self.write(ring, Array(10..<23)))
            #expect(Self.write(ring, [7]))
            #expect(!Self.write(ring, [9, 9, 9]), "16 more bytes do not fit in the 8 left")
            #expect(Self.take(ring) == [1, 2, 3])
            #expect(Self.take(ring) == Array(10..<23))
            // 8 bytes left at the end, 40 free in all: a 24-byte record goes to the start.
            #expect(Self.write(ring, Array(100..<112)))
            #expect(Self.take(ring) == [7])
            #expect(Self.take(ring) == Array(100..<112))
            #expect(Self.take(ring) == nil)
            #expect(Self.write(ring, []))
            #expect(Self.take(ring) == [])
            #expect(!Self.write(ring, Array(repeating: 0, count: 65)), "larger than the ring")
        }
    }

    @Test("one producer and one consumer on two threads: 200 000 records of varied sizes, none lost or torn")
    func twoThreads() {
        let count = 200_000
        Self.withRing(capacity: 4096) { ring in
            let shared = SendableRing(ring)
            let producer = Thread {
                var n = 0
                while n < count {
                    let size = n % 37
                    let record = (0..<size).map { UInt8(truncatingIfNeeded: n &+ $0) } + withUnsafeBytes(of: UInt32(n)) { Array($0) }
                    if Self.write(shared.ring, record) { n += 1 }
                }
            }
            producer.start()
            var expected = 0
            var torn = 0
            let deadline = ContinuousClock.now + .seconds(60)
            while expected < count, ContinuousClock.now < deadline {
                guard let record = Self.take(ring) else { continue }
                let n = record.suffix(4).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
                let body = record.dropLast(4)
                if Int(n) != expected || body.count != expected % 37
                    || body.enumerated().contains(where: { $0.element != UInt8(truncatingIfNeeded: expected &+ $0.offset) }) {
                    torn += 1
                }
                expected += 1
            }
            #expect(expected == count, "every record arrived in time")
            #expect(torn == 0)
            #expect(Self.take(ring) == nil)
        }
    }

    @Test("live: a request scheduled from run is worked on the worker's thread and answered at a later run")
    func threadedRoundTrip() throws {
        let capacity = 4096
        let buffers = (0..<2).map { _ in UnsafeMutablePointer<UInt8>.allocate(capacity: capacity) }
        defer { buffers.forEach { $0.deallocate() } }
        let interface = UnsafeMutablePointer<LV2_Worker_Interface>.allocate(capacity: 1)
        defer { interface.deallocate() }
        interface.initialize(to: LV2_Worker_Interface(
            work: { _, respond, handle, size, data in
                // Answers with the request reversed, on the worker's thread.
                let bytes = Array(UnsafeRawBufferPointer(start: data, count: Int(size))).reversed() as [UInt8]
                WorkerLog.worked.append(Thread.isMainThread)
                return bytes.withUnsafeBytes { respond!(handle, size, $0.baseAddress) }
            },
            work_response: { _, size, body in
                WorkerLog.responses.append(Array(UnsafeRawBufferPointer(start: body, count: Int(size))))
                return LV2_WORKER_SUCCESS
            },
            end_run: { _ in
                WorkerLog.runsEnded += 1
                return LV2_WORKER_SUCCESS
            }))
        let instance = UnsafeMutablePointer<DetentLV2Instance>.allocate(capacity: 1)
        defer { instance.deallocate() }
        var record = DetentLV2Instance()
        record.worker = UnsafePointer(interface)
        record.threaded = 1
        record.requests = DetentByteRing(data: buffers[0], capacity: UInt32(capacity), head: 0, tail: 0)
        record.answers = DetentByteRing(data: buffers[1], capacity: UInt32(capacity), head: 0, tail: 0)
        instance.initialize(to: record)
        WorkerLog.reset()

        // In `run`: scheduling returns at once, nothing worked yet.
        let request: [UInt8] = [1, 2, 3, 4, 5]
        let status = request.withUnsafeBytes { detent_lv2_schedule_work(instance, UInt32(request.count), $0.baseAddress) }
        #expect(status == LV2_WORKER_SUCCESS)
        #expect(WorkerLog.worked.isEmpty)
        detent_lv2_deliver(instance)
        #expect(WorkerLog.responses.isEmpty && WorkerLog.runsEnded == 1)

        // The worker's thread works it; the response waits for the next delivery.
        let done = DispatchSemaphore(value: 0)
        let shared = SendableInstance(instance)
        Thread {
            while detent_lv2_worker_step(shared.instance) != 0 {}
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(WorkerLog.worked == [false], "worked once, off the main thread")
        #expect(WorkerLog.responses.isEmpty, "not delivered before the next run ends")
        detent_lv2_deliver(instance)
        #expect(WorkerLog.responses == [[5, 4, 3, 2, 1]])
        #expect(WorkerLog.runsEnded == 2)
    }
}

/// What the test worker's C callbacks saw (they cannot capture).
enum WorkerLog {
    nonisolated(unsafe) static var worked: [Bool] = []
    nonisolated(unsafe) static var responses: [[UInt8]] = []
    nonisolated(unsafe) static var runsEnded = 0
    static func reset() {
        worked = []
        responses = []
        runsEnded = 0
    }
}

private struct SendableRing: @unchecked Sendable {
    let ring: UnsafeMutablePointer<DetentByteRing>
    init(_ ring: UnsafeMutablePointer<DetentByteRing>) { self.ring = ring }
}

private struct SendableInstance: @unchecked Sendable {
    let instance: UnsafeMutablePointer<DetentLV2Instance>
    init(_ instance: UnsafeMutablePointer<DetentLV2Instance>) { self.instance = instance }
}
