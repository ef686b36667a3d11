import AudioEngine
import CPlatform
import CSlot
import Glibc
import Parameters
import Platform

/// The slot's side of an isolated slot (`detent slot REQUEST`, started by ``IsolatedSlot``):
/// makes the processor's kernel here, says `ready` on its standard output, then runs the
/// kernel on the shared block (descriptor 3) for every request until the host lets it go.
/// A thread beside it copies the kernel's output values and latency into the block and its
/// messages to standard output, every 20 ms.
public enum SlotServer {
    /// The descriptor the shared block arrives on.
    public static let blockDescriptor: Int32 = 3

    /// Serves `processor` (found from `request` by the caller, files and state set) and
    /// returns the exit status: 0 once let go, 1 when the kernel could not be made (said on
    /// standard output as `error: …`, the line the host repeats).
    public static func serve(_ processor: Processor, format: KernelFormat, priority: Int? = nil) -> Int32 {
        _ = detent_die_with_parent(SIGKILL, getppid())
        var head = DetentSlotShared()
        let size = detent_slot_layout(&head, UInt32(format.channels), UInt32(format.maxFrames), UInt32(processor.table.count),
                                      UInt32(processor.outputs.count))
        guard let shared = detent_slot_map(blockDescriptor, size) else {
            say("error: \(processor.name): cannot map the isolated slot's shared memory (\(Errno.last))")
            return 1
        }
        guard shared.pointee.size == UInt64(size) else {
            say("error: \(processor.name): the isolated slot's shared memory is not laid out for this processor")
            return 1
        }
        let prepared: PreparedKernel
        do {
            guard let made = try processor.makeKernel(format) else {
                say("error: \(processor.name) is not a plug-in: it runs in the host")
                return 1
            }
            prepared = made
        } catch {
            say("error: \(error)")
            return 1
        }
        let kernel = prepared.kernel
        let reports = prepared.owner as? any KernelReports
        // Its latency at the starting values, there before the host asks: a plug-in tells it
        // from `run`, so the kernel runs once for no frames first.
        let controls = (format.startingValues ?? processor.table.specs.map(\.defaultValue)).map(Float.init)
        let silence = [Float](repeating: 0, count: max(1, format.maxFrames))
        var scratch = [Float](repeating: 0, count: max(1, format.maxFrames) * format.channels)
        controls.withUnsafeBufferPointer { values in
            silence.withUnsafeBufferPointer { zero in
                scratch.withUnsafeMutableBufferPointer { out in
                    let ins = [UnsafePointer<Float>](repeating: zero.baseAddress!, count: format.channels)
                    let outs = (0..<format.channels).map { out.baseAddress! + $0 * max(1, format.maxFrames) }
                    kernel.run(kernel.context, values.baseAddress ?? zero.baseAddress!, ins, outs, format.channels, 0)
                }
            }
        }
        report(reports, processor, shared)
        var abilities = ["ready"]
        if kernel.beginEvents != nil && kernel.addEvent != nil { abilities.append("events") }
        if kernel.transport != nil { abilities.append("transport") }
        if kernel.drainMIDI != nil { abilities.append("drain") }
        if kernel.side != nil { abilities.append("side") }
        // Ready before it says so: the host's first request may follow at once.
        let seen = detent_slot_open(shared)
        say(abilities.joined(separator: " "))
        let block = SharedBlock(pointer: shared)
        nonisolated(unsafe) let owner = reports
        let reporter = try? NamedThread(name: "slot-report") {
            let shared = block.pointer, reports = owner
            while detent_slot_state(shared) != UInt32(DETENT_SLOT_QUIT) {
                report(reports, processor, shared)
                detent_slot_wait_state(shared, detent_slot_state(shared), 20_000_000)
            }
        }
        // The host's audio thread waits for this one each period: it runs at that thread's
        // real-time priority, when there is one and the system allows it.
        if let priority, let problem = AudioThreadPriority.adopt(priority) {
            say("message: \(processor.name) cannot run at real-time priority \(priority) (\(problem)); it may miss its deadline when the machine is busy")
        }
        var served = DetentSlotKernel(context: kernel.context, run: kernel.run, reset: kernel.reset,
                                      begin_events: kernel.beginEvents, add_event: kernel.addEvent, transport: kernel.transport,
                                      drain: kernel.drainMIDI, side: kernel.side)
        detent_slot_serve(shared, &served, seen)
        reporter?.join()
        withExtendedLifetime(prepared.owner) {}
        return 0
    }

    /// The kernel's output values (by id, in the processor's order), its latency and its
    /// messages, to the host.
    private static func report(_ reports: (any KernelReports)?, _ processor: Processor, _ shared: UnsafeMutablePointer<DetentSlotShared>) {
        guard let reports else { return }
        let values = UnsafeMutableRawPointer(shared).advanced(by: Int(shared.pointee.off_values)).assumingMemoryBound(to: Float.self)
        let now = Dictionary(reports.outputValues.map { ($0.id, $0.value) }, uniquingKeysWith: { a, _ in a })
        for (i, spec) in processor.outputs.enumerated() { values[i] = Float(now[spec.id] ?? .nan) }
        shared.pointee.latency = UInt32(max(0, min(reports.latency, Int(UInt32.max))))
        for message in reports.takeMessages() { say("message: " + message) }
    }

    /// One line to the host.
    private static func say(_ line: String) {
        let bytes = Array((line.split(whereSeparator: \.isNewline).joined(separator: " ") + "\n").utf8)
        bytes.withUnsafeBytes { raw in
            var at = 0
            while at < raw.count {
                let n = write(1, raw.baseAddress! + at, raw.count - at)
                if n <= 0 { if n < 0 && errno == EINTR { continue }; return }
                at += n
            }
        }
    }
}
