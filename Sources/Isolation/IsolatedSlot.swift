import AudioEngine
import CSlot
import Glibc
import Parameters
import Platform
import Synchronization

/// One plug-in slot served by a process of its own: the shared block, the process, the
/// proxy kernel the engine runs, and two threads that watch the process (one reads what it
/// says, one reaps it and kills it when it hangs). It owns all of it: the engine keeps it
/// as its kernel's owner, and dropping it ends the process.
///
/// What it cannot isolate: a plug-in that writes garbage samples still sends them on (the
/// engine's guard makes non-finite and absurd ones silence), and one that is merely slow
/// costs the period it takes, as in process, until it misses the deadline.
public final class IsolatedSlot: KernelReports, @unchecked Sendable {
    let processor: Processor
    let pid: pid_t
    private let memory: Int32
    private let size: Int
    private let shared: UnsafeMutablePointer<DetentSlotShared>
    /// Where the slot's output values are in the block, as the host laid it out.
    private let valuesOffset: Int
    private let proxy: UnsafeMutablePointer<DetentSlotProxy>
    private let history: UnsafeMutablePointer<Float>
    private let kernel: ExternalKernel
    private let news = SlotNews()
    private var threads: [NamedThread] = []

    /// What the slot's process says it can take (its kernel's optional functions).
    struct Abilities {
        var events = false, transport = false, drain = false, side = false
    }

    /// The history a pass-through delays from, in frames: the longest latency it follows.
    static let historyFrames = 16_384

    /// Starts a process serving `processor` (with `files` and `state`) for `format`, and
    /// waits until its kernel is made.
    ///
    /// - Throws: ``SlotError`` with the one line the process gave (the plug-in's own error,
    ///   as in process), or why it could not start or ended first.
    public static func start(_ processor: Processor, files: [FileParameter], state: SavedState?, format: KernelFormat,
                             launcher: SlotLauncher) throws(SlotError) -> IsolatedSlot {
        var head = DetentSlotShared()
        let size = detent_slot_layout(&head, UInt32(format.channels), UInt32(format.maxFrames), UInt32(processor.table.count),
                                      UInt32(processor.outputs.count))
        let memory = detent_slot_memory(size)
        guard memory >= 0 else { throw SlotError("cannot make shared memory for an isolated slot (\(Errno.last))") }
        guard let shared = detent_slot_map(memory, size) else {
            close(memory)
            throw SlotError("cannot map an isolated slot's shared memory (\(Errno.last))")
        }
        shared.pointee = head
        let request = SlotRequest(identifier: processor.identifier,
                                  files: Dictionary(files.compactMap { file in file.path.map { (file.id, $0) } }, uniquingKeysWith: { a, _ in a }),
                                  state: state, format: format,
                                  priority: format.realtime ? AudioThreadPriority.current : nil)
        let pipe: (read: Int32, write: Int32)
        do { pipe = try Pipe.make() } catch {
            detent_slot_unmap(shared, size)
            close(memory)
            throw SlotError("cannot make a pipe for an isolated slot (\(error))")
        }
        let null = (try? DescriptorIO.open("/dev/null", .readWrite)) ?? -1
        let pid: pid_t
        do {
            // Swift's crash backtracer off: a plug-in's crash is told in one line, not a report.
            pid = try Spawn.start(launcher.program, launcher.arguments + ["slot", request.json], environment: ["SWIFT_BACKTRACE": "enable=no"],
                                  descriptors: [null, pipe.write, pipe.write, memory])
        } catch {
            for fd in [null, pipe.read, pipe.write, memory] where fd >= 0 { close(fd) }
            detent_slot_unmap(shared, size)
            throw SlotError("cannot start \(launcher.program) for an isolated slot (\(error))")
        }
        for fd in [null, pipe.write] where fd >= 0 { close(fd) }
        // The first line says whether the kernel was made, and what it can take.
        let reader = LineReader(fileDescriptor: pipe.read)
        var abilities = Abilities()
        var failure: String?
        while true {
            guard case .text(let line)? = reader.readLine() else {
                let status = Spawn.wait(pid)
                failure = "\(processor.name): its isolated process \(Self.describe(status)) before it was ready"
                break
            }
            if line.hasPrefix("error: ") {
                failure = String(line.dropFirst("error: ".count))
                _ = Spawn.wait(pid)
                break
            }
            if line.hasPrefix("ready") {
                let words = Set(line.split(separator: " ").map(String.init))
                abilities = Abilities(events: words.contains("events"), transport: words.contains("transport"),
                                      drain: words.contains("drain"), side: words.contains("side"))
                break
            }
        }
        if let failure {
            close(pipe.read)
            detent_slot_unmap(shared, size)
            close(memory)
            throw SlotError(failure)
        }
        return IsolatedSlot(processor: processor, pid: pid, memory: memory, size: size, shared: shared, layout: head, reader: reader,
                            readEnd: pipe.read, abilities: abilities, deadline: SlotLauncher.deadline(format),
                            channels: format.channels)
    }

    /// - Parameter layout: the block's head as laid out before the process started: the only
    ///   shape the host trusts (the process may write anything into the block).
    private init(processor: Processor, pid: pid_t, memory: Int32, size: Int, shared: UnsafeMutablePointer<DetentSlotShared>,
                 layout: DetentSlotShared, reader: LineReader, readEnd: Int32, abilities: Abilities, deadline: (floor: Int64, perFrame: Int64), channels: Int) {
        self.processor = processor
        self.pid = pid
        self.memory = memory
        self.size = size
        self.shared = shared
        history = .allocate(capacity: Self.historyFrames * channels)
        history.initialize(repeating: 0, count: Self.historyFrames * channels)
        proxy = .allocate(capacity: 1)
        // All zero (no request made, nothing staged), then the fields that are not.
        UnsafeMutableRawPointer(proxy).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<DetentSlotProxy>.size)
        proxy.pointee.shared = shared
        proxy.pointee.layout = layout
        valuesOffset = Int(layout.off_values)
        proxy.pointee.deadline_ns = deadline.floor
        proxy.pointee.frame_ns = deadline.perFrame
        proxy.pointee.history = history
        proxy.pointee.history_capacity = UInt32(Self.historyFrames)
        detent_slot_proxy_revive(proxy)
        kernel = ExternalKernel(context: UnsafeMutableRawPointer(proxy), run: detent_slot_proxy_run, reset: detent_slot_proxy_reset,
                                beginEvents: abilities.events ? detent_slot_proxy_begin_events : nil,
                                addEvent: abilities.events ? detent_slot_proxy_add_event : nil,
                                transport: abilities.transport ? detent_slot_proxy_transport : nil,
                                drainMIDI: abilities.drain ? detent_slot_proxy_drain : nil,
                                side: abilities.side ? detent_slot_proxy_side : nil)
        let name = processor.name
        let block = SharedBlock(pointer: shared)
        // What the process says from now on: its plug-in's messages, one per line.
        let news = self.news
        let listen = try? NamedThread(name: "slot-read") {
            while let line = reader.readLine() {
                guard case .text(let text) = line, !text.isEmpty else { continue }
                news.said.withLock { $0.messages.append(text.hasPrefix("message: ") ? String(text.dropFirst(9)) : text) }
            }
            close(readEnd)
        }
        // Its end: reaped the moment it comes (a crash is known at once, and the audio
        // thread, woken, stops waiting for it), and told once: the fault is recorded before
        // the state says DEAD, so that whoever sees DEAD also sees why.
        let reap = try? NamedThread(name: "slot-reap") {
            let shared = block.pointer
            let status = Spawn.wait(pid)
            if !news.closing.load(ordering: .acquiring) {
                // Killed for being late, unless it was already dying of something else (an
                // abort whose exit outlasted the deadline): then that is what it died of.
                let reason = news.killedLate.load(ordering: .acquiring) && status == .signaled(Signals.kill)
                    ? "stopped answering (a run took over \(deadline.floor / 1_000_000) ms) and was killed"
                    : Self.describe(status)
                news.said.withLock {
                    $0.fault = reason
                    $0.messages.append("\(name) \(reason); it passes its input through until restarted")
                }
            }
            detent_slot_set_state(shared, UInt32(DETENT_SLOT_DEAD))
            // Last: once reaped, the shared memory may be let go (`deinit`).
            news.said.withLock { $0.reaped = true }
        }
        // Its hang: a process that missed a deadline is killed here, off the audio thread.
        let watch = try? NamedThread(name: "slot-watch") {
            let shared = block.pointer
            while true {
                let state = detent_slot_state(shared)
                if state == UInt32(DETENT_SLOT_LATE) {
                    news.killedLate.store(true, ordering: .releasing)
                    Signals.send(Signals.kill, to: pid)
                    return
                }
                if state == UInt32(DETENT_SLOT_DEAD) || state == UInt32(DETENT_SLOT_QUIT) { return }
                detent_slot_wait_state(shared, state, -1)
            }
        }
        threads = [listen, reap, watch].compactMap { $0 }
    }

    /// How a process ended, in words.
    static func describe(_ status: ChildProgram.Status) -> String {
        switch status {
        case .exited(let code): "exited (status \(code))"
        case .signaled(let signal): "crashed (\(Signals.name(of: signal)))"
        }
    }

    /// The kernel the engine runs, and this as its owner.
    public var prepared: PreparedKernel { PreparedKernel(kernel: kernel, owner: self) }

    /// The process's id (tests, `status`).
    public var processID: pid_t { pid }

    public func takeMessages() -> [String] {
        news.said.withLock { state in
            defer { state.messages = [] }
            return state.messages
        }
    }

    public var outputValues: [OutputValue] {
        let values = UnsafeRawPointer(shared).advanced(by: valuesOffset).assumingMemoryBound(to: Float.self)
        return processor.outputs.enumerated().map { OutputValue(id: $1.id, value: Double(values[$0])) }
    }

    /// The latency the slot last reported, at most the history a pass-through delays from
    /// (the process's word, bounded before anything sizes a delay by it).
    public var latency: Int { min(Int(shared.pointee.latency), Self.historyFrames) }

    /// Why the process ended, once it has. A slot the audio thread gave up on (LATE: it missed
    /// a deadline, or died before the reaper said so) is waited for, a second at most, while
    /// it is killed and reaped: the call that met the fault then says so, not the next one.
    public var faults: [(slot: String, reason: String)] {
        if detent_slot_state(shared) == UInt32(DETENT_SLOT_LATE) {
            detent_slot_wait_state(shared, UInt32(DETENT_SLOT_LATE), 1_000_000_000)
        }
        return news.said.withLock { $0.fault.map { [("", $0)] } ?? [] }
    }

    deinit {
        news.closing.store(true, ordering: .releasing)
        // Asked to end; killed when it does not within a second (a plug-in stuck in its cleanup).
        detent_slot_set_state(shared, UInt32(DETENT_SLOT_QUIT))
        var waited = 0
        while !news.said.withLock({ $0.reaped }) && waited < 100 {
            usleep(10_000)
            waited += 1
        }
        if !news.said.withLock({ $0.reaped }) { Signals.send(Signals.kill, to: pid) }
        for thread in threads { thread.join() }
        detent_slot_unmap(shared, size)
        close(memory)
        proxy.deallocate()
        history.deallocate()
    }
}

/// What the watching threads learn, and whether the slot is being let go.
final class SlotNews: Sendable {
    let said = Mutex<(messages: [String], fault: String?, reaped: Bool)>(([], nil, false))
    let closing = Atomic<Bool>(false)
    /// The process missed a deadline and was killed for it.
    let killedLate = Atomic<Bool>(false)
}

/// The shared block, handed to the threads that watch it.
struct SharedBlock: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<DetentSlotShared>
}

/// Why an isolated slot could not be made: one line.
public struct SlotError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
