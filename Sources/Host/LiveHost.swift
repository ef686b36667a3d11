import Control
import Parameters
import AudioEngine
import Isolation
import JackHost
import Platform
import Synchronization

/// `detent live`: the engine as a JACK client that survives whatever the server does.
///
/// ```swift
/// var options = LiveHostOptions()
/// options.server = "studio"
/// let host = LiveHost(options: options, log: { LineWriter.standardError.line($0) })
/// try host.start()                      // fails clearly when no server runs
/// host.set([.cutoff: 800])              // lands one period from now, sample-accurately
/// print(host.status().values)
/// host.stop()
/// ```
///
/// One engine lives as long as the host; each connection to a server is a ``JackSession``.
/// When the server shuts down or is killed, the supervisor closes the dead session, keeps the
/// values, and opens a new one when the server returns (retrying with back-off), with the
/// same ports and connections. Its decisions are a pure state machine (``Supervisor``); this
/// class feeds it what the callbacks report, on a thread of its own, and carries out what it
/// says. Control calls (`set`, `status`) may come from any thread; they never wait for the
/// audio thread.
package final class LiveHost: LiveControl, @unchecked Sendable {
    package let options: LiveHostOptions

    /// The engine is prepared for blocks of up to this many frames (or the server's buffer
    /// size, if larger): PipeWire changes buffer sizes at run time (up to 8192 frames), and the
    /// engine splits longer blocks itself, so no buffer size ever makes it allocate.
    package static let preparedFrames = 8192

    let log: @Sendable (String) -> Void
    /// Xruns are told through it: a server overrunning every cycle cannot flood the log.
    private let xrunLog: RateLimitedLog
    private let onTerminate: (@Sendable (Int32) -> Void)?
    private let wake = Semaphore()
    /// Signalled when the supervisor thread has finished.
    private let supervisorFinished = Semaphore()
    let state: Mutex<State>
    /// How chain edits find processors and whom they tell, or why they are refused.
    let chainEditing = Mutex(ChainEditing.refused("this host cannot change its chain"))
    /// What changed, for the surfaces to wake on (OSC feedback, the browser panel, NSM's
    /// dirty flag, MIDI learn) instead of looking on a timer. Values set through this host
    /// are published as they are sent; what MIDI controllers do on the audio thread, by the
    /// supervisor thread, which the process callback wakes in a cycle that brought a control
    /// or program change.
    package let changes = ChangeFeed<HostChanges>()

    struct State: ~Copyable {
        /// What is hosted: the options' processor until a chain edit changes it.
        var processor: Processor
        /// Chain edits made so far.
        var chainGeneration = 0
        var engine: Engine
        var session: JackSession?
        /// Where each parameter is heading: what `get` answers and what a rebuilt engine
        /// starts from.
        var targets: [ParameterIndex: Double]
        /// The latest frame stamped, so stamps never go backwards.
        var lastStamp = Int64.min
        var closedXruns = 0
        /// The current connection's cycles silenced by a faulted port buffer, as last told.
        var toldFaultedCycles = 0
        var closedMIDIMessages = 0
        /// Control changes heard on earlier connections, and the last one's number.
        var closedHeard: (count: UInt64, controller: Int) = (0, 0)
        /// What MIDI control changes do now (nil without a MIDI input): the options' mapping
        /// until `midi` changes it, kept for new connections.
        var midi: MIDIControls?
        /// Per parameter, how many MIDI settings of the current session are in `targets`.
        var midiSeen: [ParameterIndex: UInt64] = [:]
        /// Program changes of the current session already acted on.
        var programsSeen: UInt64 = 0
        /// Control changes heard (over every connection) as last published.
        var heardPublished: UInt64 = 0
        /// Xruns (over every connection) as last told in the log.
        var xrunsTold = 0
        /// A controller moved a target since the supervisor last published it (whoever read
        /// the targets first took it in).
        var midiMovedUnpublished = false
        /// What a program change does (loads the preset of that number).
        var onProgram: (@Sendable (Int, String) -> Void)?
        /// The telemetry read by the previous `status()`, for RMS over the interval since.
        var lastSnapshot: TelemetrySnapshot?
        /// When to close, reconnect, settle connections or ask the server whether it is there.
        var supervisor: Supervisor
        /// Isolated slots' crashes by slot name (for the three-in-a-minute rule), and the slots
        /// left passing their input through until restarted by hand.
        var crashes: [String: [ContinuousClock.Instant]] = [:]
        var heldFaulted: Set<String> = []
        /// What happened to isolated slots, in order (the last ``SlotEvents/kept``): what
        /// surfaces that tell each one (OSC's subscribers) read from where they left off, so a
        /// fault and the restart that follows it at once are both told.
        var slotEvents = SlotEvents()
        /// Per slot, the frames of absurd output passed through when last looked at, and the
        /// slots told to be sending it now.
        var absurdSeen: [String: Int64] = [:]
        var absurdTold: Set<String> = []
        /// Connections to make again on a new server; `pending` are those whose peer port
        /// does not exist (yet): they are made when it appears.
        var remembered = Set<PortConnection>()
        var pending = Set<PortConnection>()
        var watcher: NamedThread?
        var stopping = false
        var exitStatus: Int32?

        /// A new connection: its MIDI counts start again from zero.
        mutating func attach(_ session: JackSession) {
            self.session = session
            midiSeen = [:]
            programsSeen = 0
        }

        /// Takes the values MIDI controllers set since the last look into `targets`, so
        /// `get`, the panel's knobs and a rebuilt engine all follow the controller; one that
        /// moved a target is left for the supervisor to publish.
        mutating func absorbMIDI() {
            guard let s = session else { return }
            var moved = false
            for id in Array(targets.keys) {
                let last = s.midiLastSet(id)
                guard last.generation != midiSeen[id, default: 0] else { continue }
                midiSeen[id] = last.generation
                if targets[id] != last.value { moved = true }
                targets[id] = last.value
            }
            if moved { midiMovedUnpublished = true }
        }

        /// Control changes heard since start-up, over every connection, and the last one's number.
        var heard: (count: UInt64, controller: Int) {
            guard let now = session?.midiHeard, now.count > 0 else { return closedHeard }
            return (closedHeard.count + now.count, now.controller)
        }

        /// Ends the current connection's share of the counters and forgets it.
        mutating func detach() -> JackSession? {
            absorbMIDI()
            defer { session = nil }
            toldFaultedCycles = 0
            if let s = session {
                closedXruns += s.xruns
                closedMIDIMessages += s.midiMessages
                closedHeard = heard
            }
            return session
        }
    }

    /// - Parameters:
    ///   - log: receives one line per event worth telling (server lost, reconnected…).
    ///   - onTerminate: called on the supervisor thread when the host stops by itself (the
    ///     server went away under `--no-reconnect`), with the exit status. It must not call
    ///     ``stop()``; ending the command loop is its job.
    package init(options: LiveHostOptions, log: @escaping @Sendable (String) -> Void,
                onTerminate: (@Sendable (Int32) -> Void)? = nil) {
        self.options = options
        self.log = log
        xrunLog = RateLimitedLog(log)
        self.onTerminate = onTerminate
        let targets = options.processor.table.complete(options.initialValues)
        let supervisor = Supervisor(settings: Supervisor.Settings(
            backoff: options.backoff, reconnect: options.reconnect, watchesCycles: !JackSession.libraryIsJack2))
        state = Mutex(State(processor: options.processor, engine: Self.makeEngine(options.processor, targets, options),
                            targets: targets, midi: options.midi, supervisor: supervisor))
    }

    static func makeEngine(_ processor: Processor, _ values: [ParameterIndex: Double],
                                   _ options: LiveHostOptions) -> Engine {
        let engine = options.smoothing.map { Engine(processor: processor, initialValues: values, smoothingTime: $0) }
            ?? Engine(processor: processor, initialValues: values)
        engine.beatsPerMinute = options.beatsPerMinute
        return engine
    }

    // MARK: Life cycle

    /// Joins the server, registers the ports, makes the connections and starts watching the
    /// server. Throws when the options are invalid or no server can be reached.
    package func start() throws(LiveHostError) {
        try options.validate()
        let session: JackSession
        do {
            // Nothing else waits on the host yet: isolated slots are given a moment to start,
            // so that one that starts in good time plays from the first period.
            session = try IsolatedSlot.$startWait.withValue(.seconds(2)) {
                Result { () throws(LiveHostError) -> JackSession in try openSession() }
            }.get()
        } catch {
            guard options.waitsForServer, options.reconnect, Self.serverMayStillCome(error) else { throw error }
            let why: String
            if case .noServer = error { why = "" } else { why = " (\(error))" }
            log("detent: no JACK server '\(options.serverDisplayName)' is running yet\(why); waiting for it, retrying with back-off")
            state.withLock { _ = $0.supervisor.handle(.connectFailed(error), at: .now) }
            startWatcher()
            return
        }
        state.withLock { $0.attach(session) }
        let planned = session.plannedConnections(options)
        for warning in planned.warnings { log("detent: \(warning)") }
        let failed = session.connect(planned.connections)
        state.withLock { st in
            st.remembered = Set(planned.connections).subtracting(failed)
            st.supervisor.handle(.connected, at: .now)
        }
        startWatcher()
    }

    /// The connection patterns, each with the peers' ports it connects now.
    static func rules(_ options: LiveHostOptions, session: JackSession?) -> [ConnectionRule] {
        guard let session else { return [] }
        let current = session.currentConnections()
        return session.ruleConnections(options).map { rule in
            ConnectionRule(rule: rule.rule, matched: rule.connections.filter(current.contains).map(\.peer).sorted())
        }
    }

    /// Whether a failure to join at start is one a server starting later cures (no server, or
    /// one still starting), rather than a mistake (a taken exact name, a missing library).
    static func serverMayStillCome(_ error: LiveHostError) -> Bool {
        switch error {
        case .noServer, .openFailed, .activationFailed: true
        default: false
        }
    }

    /// Closes the client and stops watching the server. Safe to call more than once.
    package func stop() {
        let thread = state.withLock { st -> NamedThread? in
            st.stopping = true
            defer { st.watcher = nil }
            return st.watcher
        }
        wake.signal()
        if let thread, !thread.isCurrent {
            // A supervisor inside libjack that does not come back (a client open waiting on a
            // lock a dead server's client holds, jackaudio/jack2#395) must not hang the quit.
            guard supervisorFinished.wait(timeout: .seconds(5)) else {
                log("detent: the JACK library did not return within 5 s; quitting without it")
                return
            }
            thread.join()
        }
        let session = state.withLock { st -> JackSession? in st.detach() }
        if let session { close(session) }
    }

    /// Closes a session; one whose server died (as the shutdown callback or the supervisor
    /// found) within a bounded time (see ``JackSession/closeAfterServerLoss(timeout:)``).
    /// Returns false when the client had to be left behind.
    @discardableResult
    private func close(_ session: JackSession, serverLost: Bool = false) -> Bool {
        guard serverLost || session.serverGone else {
            session.close()
            return true
        }
        if session.closeAfterServerLoss(timeout: .seconds(2)) { return true }
        if !options.stopWhenLibraryStuck {
            log("detent: the JACK library did not release the lost client within 2 s; leaving it behind")
        }
        return false
    }

    /// True while libjack is still closing a lost client (for ever, when it deadlocked): the
    /// process should then end with `_exit`, as libjack's own exit-time clean-up would wait
    /// on the same lock.
    package static var libraryStuck: Bool { JackSession.libraryBusy }

    /// Set when the host stopped by itself: the status the process should exit with.
    package var exitStatus: Int32? { state.withLock { $0.exitStatus } }

    /// Opens a session, preparing the engine for the server's format. The same engine
    /// carries on when the sample rate is unchanged (values, glides and its timeline intact);
    /// a new rate needs a new engine, which starts from the current targets.
    private func openSession() throws(LiveHostError) -> JackSession {
        // A new client would wait for libjack's lock, which a lost client's close still holds.
        if JackSession.libraryBusy { throw .libraryBusy }
        let (processor, midi, values) = state.withLock { st in
            st.absorbMIDI()
            return (st.processor, st.midi, st.targets)
        }
        return try JackSession(options: options, processor: processor, midi: midi, values: values, wake: wake.poster) {
            rate, bufferSize throws(LiveHostError) in
            try state.withLock { st throws(LiveHostError) in
                if st.engine.sampleRate != Double(rate) {
                    if st.engine.sampleRate != 0 {
                        st.engine = Self.makeEngine(st.processor, st.targets, options)
                        st.lastStamp = .min
                    }
                    do {
                        try st.engine.prepare(sampleRate: Double(rate), maxFrames: max(Self.preparedFrames, Int(bufferSize)),
                                              channels: options.channels, realtime: true)
                    } catch {
                        throw .processorFailed(String(describing: error))
                    }
                }
                return st.engine
            }
        }
    }

    // MARK: Control (any thread)

    /// Sends new targets, all stamped with the same engine frame: one period after JACK's
    /// current frame time, mapped through the clock the process callback publishes — so
    /// they take effect at the matching sample of the next cycle. Without a server they wait
    /// in the queue and apply at the first block after reconnecting.
    package func set(_ values: [ParameterIndex: Double]) { setStamped(values) }

    /// ``set(_:)``, returning the changes as stamped (for comparing with an offline render).
    @discardableResult
    package func setStamped(_ values: [ParameterIndex: Double]) -> [ParameterChange] {
        let sent = state.withLock { st in stamp(values, &st) }
        if !sent.isEmpty { changes.publish(.values) }
        return sent
    }

    /// ``setStamped(_:)`` under the host's lock, already held; true when anything was sent.
    func sendLocked(_ values: [ParameterIndex: Double], _ st: inout State) -> Bool {
        guard !stamp(values, &st).isEmpty else { return false }
        changes.publish(.values)
        return true
    }

    private func stamp(_ values: [ParameterIndex: Double], _ st: inout State) -> [ParameterChange] {
        // MIDI settings that came before this one must not later pass for newer ones.
        st.absorbMIDI()
        var frame = ParameterChange.now
        if let s = st.session, !s.serverGone, let clock = s.clock {
            frame = max(clock.stamp(atJack: s.frameTime), st.lastStamp)
            st.lastStamp = frame
        }
        var sent: [ParameterChange] = []
        let table = st.processor.table
        for id in table.indices {
            guard let value = values[id] else { continue }
            let v = table[id].clamp(value)
            st.targets[id] = v
            st.session?.knobMoved(id, to: v, in: table[id])
            let change = ParameterChange(id, v, frame: frame)
            st.engine.controls.send(change)
            sent.append(change)
        }
        return sent
    }

    /// The parameters of the processor hosted.
    package var table: ParameterTable { state.withLock { $0.processor.table } }

    /// The processor hosted: the options' one until a chain edit replaces it.
    package var processor: Processor { state.withLock { $0.processor } }

    /// What MIDI control changes do now; nil when the host has no MIDI input.
    package var midiControls: MIDIControls? { state.withLock { $0.midi } }

    /// Edits what MIDI control changes do, from the next message on (and on every later
    /// connection), and returns the new mapping. Returns nil, changing nothing, when the host
    /// has no MIDI input. The edit runs under the host's lock, so two editors (the panel and
    /// typed commands) cannot lose each other's changes.
    @discardableResult
    package func updateMIDIControls(_ edit: (inout MIDIControls) -> Void) -> MIDIControls? {
        let updated = state.withLock { st -> MIDIControls? in
            guard var controls = st.midi else { return nil }
            edit(&controls)
            st.midi = controls
            st.session?.updateMIDI(controls)
            return controls
        }
        if updated != nil { changes.publish(.mappings) }
        return updated
    }

    /// How many MIDI control changes have arrived on the channel listened to, mapped or not,
    /// and the last one's controller number: what MIDI learn waits for. Nil without MIDI.
    package func lastMIDIControl() -> (count: UInt64, controller: Int)? {
        state.withLock { st in st.midi == nil ? nil : st.heard }
    }

    /// Where each pickup controller that has not caught its knob is (normalised, 0 … 1), by
    /// parameter: the knob does not follow it until it passes the knob's position.
    package func midiPickups() -> [ParameterIndex: Double] {
        state.withLock { st in st.session.flatMap { $0.serverGone ? nil : $0.midiWaiting } ?? [:] }
    }

    package func targets() -> [ParameterIndex: Double] {
        state.withLock { st in
            st.absorbMIDI()
            return st.targets
        }
    }

    package func status() -> HostStatus {
        state.withLock { st in
            st.absorbMIDI()
            // The targets, as `get` and `params` show them: a value typed while the server is
            // away, or a preset mid-glide, reads as what it will be (the smoothing is the
            // engine's business, and heard, not shown).
            let values = st.targets
            var peaks = [Float](repeating: 0, count: options.channels)
            var rms: [Double] = []
            var sanitized = 0
            if st.engine.channels > 0 {
                let snapshot = st.engine.telemetry.snapshot()
                sanitized = Int(snapshot.sanitizedOutputSamples)
                peaks = snapshot.peaks
                // A rebuilt engine restarts its counters: measure from scratch then.
                let earlier = st.lastSnapshot.flatMap { $0.framesProcessed <= snapshot.framesProcessed ? $0 : nil }
                rms = snapshot.rms(since: earlier)
                st.lastSnapshot = snapshot
            }
            let live = st.session.flatMap { $0.serverGone ? nil : $0 }
            var status = HostStatus(
                server: options.serverDisplayName, client: live?.name,
                sampleRate: live.map { Int($0.sampleRate) }, bufferSize: live.map { Int($0.bufferSize) },
                xruns: st.closedXruns + (st.session?.xruns ?? 0), dspLoad: live?.dspLoad,
                values: values, peaks: peaks, rms: rms, reconnects: st.supervisor.reconnects,
                midiMessages: st.closedMIDIMessages + (st.session?.midiMessages ?? 0))
            if let reports = st.engine.kernelReports {
                status.outputs = reports.outputValues
                status.latency = live?.latency ?? reports.latency
            }
            status.sanitizedSamples = sanitized
            status.faults = Self.faults(of: st)
            status.absurdOutput = Self.absurdOutput(of: st).filter { $0.value > 0 }.mapValues { Int($0) }
            status.connections = live?.currentConnections().count ?? 0
            status.connectionRules = Self.rules(options, session: live)
            status.rememberedConnections = st.remembered.count
            return status
        }
    }

    /// The processor's read-only outputs (a plug-in's meters), at most a block old.
    package func outputValues() -> [OutputValue] {
        state.withLock { $0.engine.kernelReports?.outputValues ?? [] }
    }

    /// The frame clock of the current connection (nil before its first cycle).
    package var frameClock: FrameClock? { state.withLock { $0.session?.clock } }

    /// The client's name on the server, nil while disconnected.
    package var clientName: String? { state.withLock { $0.session?.name } }

    /// The connections the host will make again on a new server.
    package var rememberedConnections: Set<PortConnection> { state.withLock { $0.remembered } }

    // MARK: Supervisor

    /// Sets what a MIDI program change does: `handler` gets the program number and the name
    /// of its preset in ``MIDIControls/programPresets``, on the host's own thread, within
    /// 20 ms of the message.
    package func onProgramChange(_ handler: @escaping @Sendable (Int, String) -> Void) {
        state.withLock { $0.onProgram = handler }
    }

    /// Says in the log that the server reported xruns since the last look (the xrun callback
    /// wakes the supervisor), at most a line a second.
    private func tellXruns() {
        let (count, new) = state.withLock { st -> (Int, Int) in
            let count = st.closedXruns + (st.session?.xruns ?? 0)
            defer { st.xrunsTold = count }
            return (count, count - st.xrunsTold)
        }
        guard new > 0 else { return }
        xrunLog.line("detent: warning: the JACK server reported \(new == 1 ? "an xrun" : "\(new) xruns") (\(count) since the start)")
    }

    /// Publishes what MIDI controllers did on the audio thread since the last look: targets
    /// they moved, and that a controller was heard (what MIDI learn waits for).
    private func relayMIDIChanges() {
        let published = state.withLock { st -> HostChanges in
            st.absorbMIDI()
            var what: HostChanges = st.midiMovedUnpublished ? .values : []
            st.midiMovedUnpublished = false
            let heard = st.heard.count
            if heard != st.heardPublished {
                st.heardPublished = heard
                what.insert(.controllerHeard)
            }
            return what
        }
        changes.publish(published)
    }

    /// Carries out program changes the callback took since the last look.
    private func relayProgramChanges() {
        let due = state.withLock { st -> (Int, String, @Sendable (Int, String) -> Void)? in
            guard let s = st.session, let handler = st.onProgram, let midi = st.midi else { return nil }
            let taken = s.midiProgram
            guard taken.count != st.programsSeen else { return nil }
            st.programsSeen = taken.count
            guard taken.program < midi.programPresets.count else { return nil }
            return (taken.program, midi.programPresets[taken.program], handler)
        }
        if let (number, name, handler) = due { handler(number, name) }
    }

    private func startWatcher() {
        guard let thread = try? NamedThread(name: "live-supervisor", { self.supervise() }) else {
            log("detent: cannot start the supervisor thread; the server will not be watched")
            return
        }
        state.withLock { $0.watcher = thread }
    }

    /// Sleeps until a callback posts or the supervisor's next deadline, tells the supervisor
    /// what the callbacks reported, and carries out what it says.
    private func supervise() {
        defer { supervisorFinished.signal() }
        while true {
            let timeout = state.withLock { st -> Duration in
                // A cycle that brought a control or program change wakes this thread;
                // otherwise it looks once a second.
                let most = Duration.seconds(1)
                return min(st.supervisor.deadline.map { $0 - .now } ?? most, most)
            }
            // Several posts may have piled up: one pass handles them all.
            if wake.wait(timeout: timeout) { wake.drain() }
            let actions = state.withLock { st -> [Supervisor.Action]? in
                guard !st.stopping else { return nil }
                let now = ContinuousClock.now
                guard let s = st.session else { return st.supervisor.handle(.tick, at: now) }
                if s.serverGone { return st.supervisor.handle(.serverStopped, at: now) }
                if s.takeFormatChanged(), !Self.followRate(&st, s, options: options, log: log) {
                    return st.supervisor.handle(.formatChanged, at: now)
                }
                let faulted = s.faultedCycles
                if faulted > st.toldFaultedCycles {
                    let count = faulted - st.toldFaultedCycles
                    st.toldFaultedCycles = faulted
                    log("detent: the JACK server took back a port buffer during \(count == 1 ? "a cycle" : "\(count) cycles"); "
                        + "\(count == 1 ? "it was" : "they were") played as silence")
                }
                var actions: [Supervisor.Action] = []
                if s.takeGraphChanged() { actions += st.supervisor.handle(.graphChanged, at: now) }
                return actions + st.supervisor.handle(.cycles(s.cycles), at: now)
            }
            guard let actions, perform(actions) else { return }
            relayProcessorReports()
            tellAbsurdOutput()
            relayProgramChanges()
            relayMIDIChanges()
            if options.logsXruns { tellXruns() }
        }
    }

    /// Follows a new server sample rate in place: an engine prepared for it, at the current
    /// values, takes over in the process callback (PipeWire changes its rate while clients
    /// run; closing and reopening the client instead raced libjack's unmapping of the port
    /// buffers). Returns false when that failed and the client must be rebuilt.
    private static func followRate(_ st: inout State, _ session: JackSession, options: LiveHostOptions,
                                   log: (String) -> Void) -> Bool {
        let rate = session.sampleRate
        guard Double(rate) != st.engine.sampleRate, !session.serverGone else { return true }
        let next = makeEngine(st.processor, st.targets, options)
        do {
            try next.prepare(sampleRate: Double(rate), maxFrames: max(preparedFrames, Int(session.bufferSize)),
                             channels: options.channels, realtime: true)
        } catch {
            log("detent: the JACK sample rate changed to \(rate) Hz and the processor cannot follow it (\(error))")
            return false
        }
        guard run(next, &st) else { return false }
        st.lastStamp = .min
        log("detent: the JACK sample rate changed to \(rate) Hz; the engine follows it")
        return true
    }

    /// How long a new engine waits for the process callback to take over: a callback that
    /// does not come in that time belongs to a stalled server.
    static let takeOverTimeout = Duration.seconds(2)

    /// Makes `next` the running engine: through the process callback when a session runs
    /// (false, and `next` dropped, when the callback did not take it in time), at once
    /// otherwise. Its meters start from scratch.
    static func run(_ next: Engine, _ st: inout State) -> Bool {
        if let session = st.session, !session.exchange(to: next, timeout: takeOverTimeout) { return false }
        st.engine = next
        st.lastSnapshot = nil
        return true
    }

    /// Prints what the processor logged (a plug-in's messages wait in a lock-free ring, since
    /// its `run` may log) and reports a changed latency on the ports. Runs at each wake of the
    /// supervisor, so at least once a second.
    private func relayProcessorReports() {
        let (messages, latency, session) = state.withLock { st -> ([String], Int, JackSession?) in
            guard let reports = st.engine.kernelReports else { return ([], 0, nil) }
            return (reports.takeMessages(), reports.latency, st.session.flatMap { $0.serverGone ? nil : $0 })
        }
        for message in messages { log("detent: \(message)") }
        session?.reportLatency(latency)
        restartFaultedSlots()
    }

    /// Carries out the supervisor's actions in order; what comes of one (a connection, a
    /// round trip) goes back to the supervisor, and what it says then is carried out next.
    /// Returns false when the host stops.
    private func perform(_ actions: [Supervisor.Action]) -> Bool {
        var queue = actions[...]
        /// The sample rate of the session closed last, for the message that says why.
        var closedRate: UInt32 = 0
        while let action = queue.popFirst() {
            switch action {
            case .closeSession(let serverLost):
                guard let lost = state.withLock({ $0.detach() }) else { continue }
                closedRate = lost.sampleRate
                if !close(lost, serverLost: serverLost) && options.stopWhenLibraryStuck {
                    log("detent: the JACK library did not release the lost client within 2 s, and no client can open "
                        + "in this process after that; exiting with status 1 for the service manager to restart detent")
                    queue = [.terminate(status: 1)]
                }
            case .announce(let announcement):
                announce(announcement, closedRate: closedRate)
            case .connect:
                queue += reconnect()
            case .settleConnections:
                rememberConnections()
            case .probeServer:
                let alive = JackSession.serverAnswers(options)
                queue += state.withLock { $0.supervisor.handle(.probed(alive: alive), at: .now) }
            case .terminate(let status):
                state.withLock {
                    $0.exitStatus = status
                    $0.stopping = true
                }
                onTerminate?(status)
                return false
            }
        }
        return true
    }

    private func announce(_ announcement: Supervisor.Announcement, closedRate: UInt32) {
        let server = options.serverDisplayName
        switch announcement {
        case .sampleRateChanged:
            log("detent: the JACK sample rate changed to \(closedRate) Hz; restarting the client")
        case .serverStopped(exiting: true):
            log("detent: the JACK server '\(server)' stopped; exiting (--no-reconnect)")
        case .serverStopped(exiting: false):
            log("detent: the JACK server '\(server)' stopped; keeping the current values and reconnecting when it returns")
        case .reconnected, .connected:
            guard let session = state.withLock({ $0.session }) else { return }
            log("detent: \(announcement == .connected ? "connected" : "reconnected") to the JACK server '\(server)' as '\(session.name)' "
                + "(\(session.sampleRate) Hz, \(session.bufferSize) frames)")
        case .reconnectFailed(let error):
            log("detent: reconnecting: \(error)")
        }
    }

    /// Opens a new session with the same ports, and makes the connections the options ask
    /// for and those remembered (a peer that is missing is connected when it appears).
    private func reconnect() -> [Supervisor.Action] {
        do {
            let session = try openSession()
            let remembered = state.withLock { st in
                st.attach(session)
                return st.remembered
            }
            let planned = session.plannedConnections(options).connections
            let failed = session.connect(Array(Set(planned).union(remembered)))
            return state.withLock { st in
                st.remembered.formUnion(planned)
                st.pending = Set(failed)
                return st.supervisor.handle(.connected, at: .now)
            }
        } catch {
            return state.withLock { $0.supervisor.handle(.connectFailed(error), at: .now) }
        }
    }

    /// Once the graph has been quiet for a while: makes remembered connections whose peer has
    /// appeared, then remembers the connections as they are (a connection the user removed is
    /// forgotten; one whose peer is missing is kept for later).
    private func rememberConnections() {
        let session = state.withLock { st -> JackSession? in
            guard let s = st.session, !s.serverGone else { return nil }
            return s
        }
        guard let session else { return }
        let (remembered, pending) = state.withLock { ($0.remembered, $0.pending) }
        let appeared = pending.filter { session.portExists($0.peer) }
        session.connect(Array(appeared))
        // The connection patterns are rules for the whole run: whatever matches them now is
        // connected — a port that appeared since, one that went and came back. (A connection
        // a pattern asks for comes back if taken away: the rule holds.)
        let current0 = session.currentConnections()
        session.connect(session.ruleConnections(options).flatMap(\.connections).filter { !current0.contains($0) })
        let current = session.currentConnections()
        let missing = remembered.union(pending).filter { !session.portExists($0.peer) }
        state.withLock { st in
            st.remembered = current.union(missing)
            st.pending = missing
        }
    }
}
