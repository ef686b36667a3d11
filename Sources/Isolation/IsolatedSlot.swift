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
package final class IsolatedSlot: KernelReports, @unchecked Sendable {
    let processor: Processor
    /// The process that serves it (alone, or with the other slots of its sandbox).
    let sandbox: SandboxProcess
    /// Its number in the sandbox.
    private(set) var member = -1
    private let size: Int
    /// How long its process may take to make the plug-in (``SlotLauncher/startDeadline``), and
    /// a run (``SlotLauncher/deadline(_:)``).
    let startDeadline: Duration
    let deadline: (floor: Int64, perFrame: Int64)
    /// The format its plug-in was made for (its starting values aside).
    let format: KernelFormat
    /// The slot's name in its chain, lowercased ("" for a plug-in alone): what a whole signal's
    /// next engine asks for it by (``SandboxRegistry/offer(_:)``).
    let key: String
    /// The sandboxes of the launcher that made it: only a slot of the same launcher is made anew.
    let registry: ObjectIdentifier
    let shared: UnsafeMutablePointer<DetentSlotShared>
    /// Where the slot's output values are in the block, as the host laid it out.
    private let valuesOffset: Int
    let proxy: UnsafeMutablePointer<DetentSlotProxy>
    private let history: UnsafeMutablePointer<Float>
    private let kernel: ExternalKernel
    let news = SlotNews()
    private var watch: NamedThread?
    /// The block's head as the host laid it out (the shape it trusts), and each row's count
    /// of own values the host has taken (``takeOwnChanges()``).
    private let layout: DetentSlotShared
    private let ownSeen: Mutex<[UInt32]>

    /// What the proxy offers the engine (the optional functions of a kernel), known from the
    /// processor's description before its process says anything: a slot still starting has a
    /// kernel the engine can run at once. The process ignores what its plug-in cannot take.
    struct Abilities {
        var events = false, drain = false, side = false

        init(_ processor: Processor) {
            events = processor.acceptsMIDI
            drain = processor.makesMIDI
            side = processor.sideInputs > 0
        }
    }

    /// The history a pass-through delays from, in frames: the longest latency it follows.
    static let historyFrames = 16_384

    /// How long a slot's process may take to make its plug-in (load its files, restore its
    /// state, run it once) before it is taken for hung, killed and reported.
    package static let startDeadline = Duration.seconds(10)

    /// How long a live start may wait for a slot's process to be ready before it goes on
    /// without it (the slot passing its input through meanwhile): zero unless a caller that
    /// holds up no one says otherwise — a live host's first start waits a little, so that a
    /// plug-in that starts in good time plays from the first period, as in process; edits and
    /// restarts, made under the host's lock, never wait.
    @TaskLocal package static var startWait: Duration = .zero

    /// How long a slot fades in, from passing its input through, once its process is ready.
    static let fadeSeconds = 0.01

    /// Starts serving `processor` (with `files` and `state`) for `format` as slot `name` (nil
    /// for a slot added live, or a plug-in alone), in the sandbox the launcher's plan gives it
    /// (a process of its own, or one its sandbox's other slots share). For a live host
    /// (`format.realtime`) it returns at once: the slot passes its input through while its
    /// process makes the plug-in, then fades in; a process that fails or takes over
    /// ``startDeadline`` is a fault like any other (``faults``), and nothing on the control
    /// side waits for it. Offline, it waits until the kernel is made (at most that long).
    ///
    /// - Throws: ``SlotError`` with the one line the process gave (the plug-in's own error,
    ///   as in process), or why it could not start, ended first or took too long (offline).
    package static func start(_ processor: Processor, files: [FileParameter], state: SavedState?, format: KernelFormat,
                             launcher: SlotLauncher, slot name: String? = nil) throws(SlotError) -> IsolatedSlot {
        let request = SlotRequest(identifier: processor.identifier, foundAt: processor.foundAt,
                                  files: Dictionary(files.compactMap { file in file.path.map { (file.id, $0) } }, uniquingKeysWith: { a, _ in a }),
                                  state: state, format: format)
        // A whole signal's next engine: the last one's slot, its plug-in made anew in place.
        if let renewed = try launcher.sandboxes.renewal(of: name?.lowercased() ?? "", processor: processor, request: request,
                                                         launcher: launcher) {
            return renewed
        }
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
        let slotName = name ?? processor.name
        let sandbox: SandboxProcess
        do {
            sandbox = try launcher.sandboxes.process(for: launcher.plan.sandbox(of: name), name: slotName, launcher: launcher,
                                                     priority: format.realtime ? AudioThreadPriority.current : nil)
        } catch {
            detent_slot_unmap(shared, size)
            close(memory)
            throw error
        }
        let slot = IsolatedSlot(processor: processor, sandbox: sandbox, size: size, shared: shared, layout: head,
                                deadline: launcher.deadline(format), startDeadline: launcher.startDeadline, format: format,
                                key: name?.lowercased() ?? "", registry: ObjectIdentifier(launcher.sandboxes))
        do {
            slot.member = try sandbox.add(request, memory: memory,
                                          link: .init(slotName: slotName, label: processor.name, news: slot.news, shared: SharedBlock(pointer: shared),
                                                      deadline: launcher.deadline(format), startDeadline: launcher.startDeadline))
        } catch {
            detent_slot_set_state(shared, UInt32(DETENT_SLOT_QUIT))
            throw error
        }
        slot.proxy.pointee.member = Int32(slot.member)
        slot.startWatching()
        if !format.realtime, let failure = slot.awaitStart(upTo: launchDeadline(launcher.startDeadline) + launcher.startDeadline + .seconds(1)) {
            // A process that ended or is being killed faulted; one still serving said no.
            throw SlotError(failure, fault: !sandbox.usable)
        }
        if format.realtime, startWait > .zero { _ = slot.awaitStart(upTo: startWait) }
        // Ready before the engine first runs it (no audio thread has the proxy yet): it plays
        // from the first frame, as in process, with no fade from its input.
        if detent_slot_state(slot.shared) == UInt32(DETENT_SLOT_READY) {
            slot.proxy.pointee.started = 1
            slot.proxy.pointee.fade_done = slot.proxy.pointee.fade_frames
        }
        return slot
    }

    /// Waits, at most `limit`, until the process is ready; why it is not, when it failed
    /// (nil when it is ready or still starting).
    func awaitStart(upTo limit: Duration) -> String? {
        let end = ContinuousClock.now + limit
        while detent_slot_state(shared) == UInt32(DETENT_SLOT_STARTING) && ContinuousClock.now < end {
            detent_slot_wait_state(shared, UInt32(DETENT_SLOT_STARTING), 100_000_000)
        }
        let state = detent_slot_state(shared)
        guard state != UInt32(DETENT_SLOT_READY) && state != UInt32(DETENT_SLOT_STARTING) else { return nil }
        let reason = news.said.withLock { $0.fault } ?? "ended before it was ready"
        return reason.hasPrefix(processor.name) ? reason : "\(processor.name): its isolated process \(reason)"
    }

    /// - Parameter layout: the block's head as laid out before the process started: the only
    ///   shape the host trusts (the process may write anything into the block).
    private init(processor: Processor, sandbox: SandboxProcess, size: Int, shared: UnsafeMutablePointer<DetentSlotShared>,
                 layout: DetentSlotShared, deadline: (floor: Int64, perFrame: Int64), startDeadline: Duration, format: KernelFormat,
                 key: String, registry: ObjectIdentifier) {
        self.processor = processor
        self.startDeadline = startDeadline
        self.deadline = deadline
        var made = format
        made.startingValues = nil
        self.format = made
        self.key = key
        self.registry = registry
        self.sandbox = sandbox
        self.size = size
        self.shared = shared
        self.layout = layout
        ownSeen = Mutex([UInt32](repeating: 0, count: Int(layout.controls)))
        let channels = format.channels
        history = .allocate(capacity: Self.historyFrames * channels)
        history.initialize(repeating: 0, count: Self.historyFrames * channels)
        proxy = .allocate(capacity: 1)
        // All zero (no request made, nothing staged), then the fields that are not.
        UnsafeMutableRawPointer(proxy).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<DetentSlotProxy>.size)
        proxy.pointee.shared = shared
        proxy.pointee.group = sandbox.group
        proxy.pointee.layout = layout
        valuesOffset = Int(layout.off_values)
        proxy.pointee.deadline_ns = deadline.floor
        proxy.pointee.frame_ns = deadline.perFrame
        proxy.pointee.history = history
        proxy.pointee.history_capacity = UInt32(Self.historyFrames)
        proxy.pointee.fade_frames = UInt32((format.sampleRate * Self.fadeSeconds).rounded())
        let abilities = Abilities(processor)
        detent_slot_proxy_revive(proxy)
        proxy.pointee.member = -1
        var kernel = ExternalKernel(context: UnsafeMutableRawPointer(proxy), run: detent_slot_proxy_run, reset: detent_slot_proxy_reset,
                                    beginEvents: abilities.events ? detent_slot_proxy_begin_events : nil,
                                    addEvent: abilities.events ? detent_slot_proxy_add_event : nil,
                                    transport: detent_slot_proxy_transport,
                                    drainMIDI: abilities.drain ? detent_slot_proxy_drain : nil,
                                    side: abilities.side ? detent_slot_proxy_side : nil)
        // Consecutive slots of one sandbox run on one request (one wake-up of its process).
        kernel.runChained = detent_slot_proxies_run
        kernel.chainGroup = UnsafeMutableRawPointer(sandbox.group)
        self.kernel = kernel
    }

    /// Its hang, starting or running: a slot whose process takes over the start deadline to
    /// make it (at its start, or made anew: ``renew(_:)``), or that missed a run's deadline,
    /// has the process killed, off the audio thread and the host's lock (its sandbox's other
    /// slots go down with it).
    private func startWatching() {
        let block = SharedBlock(pointer: shared)
        let news = self.news, sandbox = self.sandbox, member = self.member, startDeadline = self.startDeadline
        watch = try? NamedThread(name: "slot-watch") {
            let shared = block.pointer
            // The start deadline counts from when the sandbox begins making the plug-in: the
            // process's own start (an interpreter importing its modules, on a busy machine)
            // has the default deadline at least, however short the plug-in's is. Both count
            // again each time the slot is STARTING anew.
            var launchBy: ContinuousClock.Instant?
            var startBy: ContinuousClock.Instant?
            while true {
                let state = detent_slot_state(shared)
                if news.closing.load(ordering: .acquiring) { return }
                if state == UInt32(DETENT_SLOT_STARTING) {
                    let now = ContinuousClock.now
                    if launchBy == nil { launchBy = now + Self.launchDeadline(startDeadline) }
                    if startBy == nil && detent_slot_load(&sandbox.group.pointee.making) == UInt32(member + 1) {
                        startBy = now + startDeadline
                    }
                    let left = (startBy ?? launchBy ?? now) - now
                    if left <= .zero {
                        sandbox.kill(for: member, starting: true)
                        return
                    }
                    // Looked at again every 20 ms while the plug-in is not yet being made.
                    detent_slot_wait_state(shared, state, startBy == nil ? min(left, .milliseconds(20)).wholeNanoseconds : left.wholeNanoseconds)
                    continue
                }
                launchBy = nil
                startBy = nil
                if state == UInt32(DETENT_SLOT_LATE) {
                    sandbox.kill(for: member, starting: false)
                    return
                }
                if state == UInt32(DETENT_SLOT_DEAD) || state == UInt32(DETENT_SLOT_QUIT) { return }
                detent_slot_wait_state(shared, state, -1)
            }
        }
    }

    /// How long a slot's sandbox may take to begin making its plug-in (its process starting, or
    /// busy with the slots asked before it): the plug-in's own deadline, and the default one
    /// at least.
    static func launchDeadline(_ startDeadline: Duration) -> Duration { max(startDeadline, Self.startDeadline) }

    /// How a process ended, in words.
    static func describe(_ status: ChildProgram.Status) -> String {
        switch status {
        case .exited(let code): "exited (status \(code))"
        case .signaled(let signal): "crashed (\(Signals.name(of: signal)))"
        }
    }

    /// The kernel the engine runs, and this as its owner.
    package var prepared: PreparedKernel { PreparedKernel(kernel: kernel, owner: self) }

    /// The process's id (tests, `status`).
    package var processID: pid_t { sandbox.pid }

    /// The sandbox it runs in: its slots go down, and are started again, together.
    package var sandboxName: String? { sandbox.name }

    package func takeMessages() -> [String] {
        news.said.withLock { state in
            defer { state.messages = [] }
            return state.messages
        }
    }

    /// The values its plug-in gave its own parameters since the last call, as the sandbox
    /// reported them (``KernelReports/takeOwnChanges()``).
    package func takeOwnChanges() -> [OutputValue] {
        ownSeen.withLock { seen in
            seen.withUnsafeMutableBufferPointer { seen in
                AudioEngine.takeOwnChanges { rows, values, capacity in
                    withUnsafePointer(to: layout) { detent_slot_own_take(shared, $0, seen.baseAddress!, rows, values, capacity) }
                }
            }
        }.compactMap { row, value in
            row < processor.table.count ? OutputValue(id: processor.table[ParameterIndex(row)].id, value: value) : nil
        }
    }

    package var outputValues: [OutputValue] {
        // Someone looks: the sandbox reports them at its quick pace for a while.
        detent_slot_bump(&sandbox.group.pointee.watched)
        let values = UnsafeRawPointer(shared).advanced(by: valuesOffset).assumingMemoryBound(to: Float.self)
        return processor.outputs.enumerated().map { OutputValue(id: $1.id, value: Double(values[$0])) }
    }

    /// The latency the slot last reported, at most the history a pass-through delays from
    /// (the process's word, bounded before anything sizes a delay by it).
    package var latency: Int { min(Int(shared.pointee.latency), Self.historyFrames) }

    /// Why the process ended, once it has. A slot the audio thread gave up on (LATE: it missed
    /// a deadline, or died before the reaper said so) is waited for, a second at most, while
    /// it is killed and reaped: the call that met the fault then says so, not the next one.
    package var faults: [(slot: String, reason: String)] {
        if detent_slot_state(shared) == UInt32(DETENT_SLOT_LATE) {
            detent_slot_wait_state(shared, UInt32(DETENT_SLOT_LATE), 1_000_000_000)
        }
        return news.said.withLock { $0.fault.map { [("", $0)] } ?? [] }
    }

    /// The slot is let go: its sandbox's process frees its plug-in (and ends, when it was
    /// the last of its slots), and whatever waiting that takes is done on a thread of its own:
    /// dropping a slot — an engine swapped out under the host's lock — never waits for a
    /// plug-in stuck in its cleanup.
    deinit {
        news.closing.store(true, ordering: .releasing)
        detent_slot_set_state(shared, UInt32(DETENT_SLOT_QUIT))
        if member >= 0 { sandbox.drop(member) }
        let leftovers = Leftovers(sandbox: sandbox, watch: watch, shared: SharedBlock(pointer: shared), size: size,
                                  proxy: proxy, history: history)
        do { try NamedThread.detach(name: "slot-close") { leftovers.release() } } catch { leftovers.release() }
    }
}

/// What an isolated slot leaves to be let go.
private struct Leftovers: @unchecked Sendable {
    let sandbox: SandboxProcess
    let watch: NamedThread?
    let shared: SharedBlock
    let size: Int
    let proxy: UnsafeMutablePointer<DetentSlotProxy>
    let history: UnsafeMutablePointer<Float>

    /// Joins the watching thread (woken by the QUIT just set), then frees the block and the
    /// proxy; the sandbox goes with the last of its slots.
    func release() {
        watch?.join()
        detent_slot_unmap(shared.pointer, size)
        proxy.deallocate()
        history.deallocate()
    }
}

/// What the sandbox's threads learn of a slot, and whether it is being let go.
final class SlotNews: Sendable {
    let said = Mutex<(messages: [String], fault: String?)>(([], nil))
    let closing = Atomic<Bool>(false)
}

/// The shared block, handed to the threads that watch it.
struct SharedBlock: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<DetentSlotShared>
}

/// Why an isolated slot could not be made: one line.
package struct SlotError: Error, Sendable, CustomStringConvertible {
    package let description: String
    /// True when the slot's process crashed, aborted or hung (and was killed) making the
    /// plug-in, rather than reporting that the plug-in could not be made.
    package let fault: Bool
    package init(_ description: String, fault: Bool = false) {
        self.description = description
        self.fault = fault
    }
}
