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
    let xrunLog: RateLimitedLog
    let onTerminate: (@Sendable (Int32) -> Void)?
    let wake = Semaphore()
    /// Signalled when the supervisor thread has finished.
    let supervisorFinished = Semaphore()
    let state: Mutex<State>
    /// How chain edits find processors and whom they tell, or why they are refused.
    let chainEditing = Mutex(ChainEditing.refused("this host cannot change its chain"))
    /// What changed, for the surfaces to wake on (OSC feedback, the browser panel, NSM's
    /// dirty flag, MIDI learn) instead of looking on a timer. Values set through this host
    /// are published as they are sent; what MIDI controllers do on the audio thread, by the
    /// supervisor thread, which the process callback wakes in a cycle that brought a control
    /// or program change.
    package let changes = ChangeFeed<HostChanges>()

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
            st.wiring.remembered = Set(planned.connections).subtracting(failed)
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
    func close(_ session: JackSession, serverLost: Bool = false) -> Bool {
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
    func openSession() throws(LiveHostError) -> JackSession {
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
    /// `rampFrames` 0 jumps (a value the processor already has).
    func sendLocked(_ values: [ParameterIndex: Double], _ st: inout State,
                    rampFrames: Int32 = ParameterChange.defaultRamp) -> Bool {
        guard !stamp(values, &st, rampFrames: rampFrames).isEmpty else { return false }
        changes.publish(.values)
        return true
    }

    private func stamp(_ values: [ParameterIndex: Double], _ st: inout State,
                       rampFrames: Int32 = ParameterChange.defaultRamp) -> [ParameterChange] {
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
            let change = ParameterChange(id, v, frame: frame, rampFrames: rampFrames)
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
                let earlier = st.counters.lastSnapshot.flatMap { $0.framesProcessed <= snapshot.framesProcessed ? $0 : nil }
                rms = snapshot.rms(since: earlier)
                st.counters.lastSnapshot = snapshot
            }
            let live = st.session.flatMap { $0.serverGone ? nil : $0 }
            var status = HostStatus(
                server: options.serverDisplayName, client: live?.name,
                sampleRate: live.map { Int($0.sampleRate) }, bufferSize: live.map { Int($0.bufferSize) },
                xruns: st.counters.closedXruns + (st.session?.xruns ?? 0), dspLoad: live?.dspLoad,
                values: values, peaks: peaks, rms: rms, reconnects: st.supervisor.reconnects,
                midiMessages: st.midiCounts.closedMessages + (st.session?.midiMessages ?? 0))
            if let reports = st.engine.kernelReports {
                status.outputs = reports.outputValues
                status.latency = live?.latency ?? reports.latency
            }
            status.sanitizedSamples = sanitized
            status.faults = Self.faults(of: st)
            status.absurdOutput = Self.absurdOutput(of: st).filter { $0.value > 0 }.mapValues { Int($0) }
            status.connections = live?.currentConnections().count ?? 0
            status.connectionRules = Self.rules(options, session: live)
            status.rememberedConnections = st.wiring.remembered.count
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
    package var rememberedConnections: Set<PortConnection> { state.withLock { $0.wiring.remembered } }
}
