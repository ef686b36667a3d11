import Parameters
import DSP
import Glibc
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
/// When the server shuts down or is killed, a supervisor thread closes the dead session,
/// keeps the values, and opens a new one when the server returns (retrying with back-off),
/// with the same ports and connections. Control calls (`set`, `status`) may come from any
/// thread; they never wait for the audio thread.
public final class LiveHost: LiveControl, @unchecked Sendable {
    public let options: LiveHostOptions

    /// The engine is prepared for blocks of up to this many frames (or the server's buffer
    /// size, if larger): PipeWire changes buffer sizes at run time (up to 8192 frames), and the
    /// engine splits longer blocks itself, so no buffer size ever makes it allocate.
    public static let preparedFrames = 8192
    /// How long the graph must stay quiet before connections are remembered: a server that
    /// is shutting down first drops every connection, which must not be taken as the user's
    /// wish.
    static let settleTime = Duration.milliseconds(500)

    private let log: @Sendable (String) -> Void
    private let onTerminate: (@Sendable (Int32) -> Void)?
    private let wake = Semaphore()
    private let state: Mutex<State>

    private struct State: ~Copyable {
        var engine: Engine
        var session: JackSession?
        /// Where each parameter is heading: what `get` answers and what a rebuilt engine
        /// starts from.
        var targets: [ParameterIndex: Double]
        /// The latest frame stamped, so stamps never go backwards.
        var lastStamp = Int64.min
        var closedXruns = 0
        var closedMIDIMessages = 0
        /// Control changes heard on earlier connections, and the last one's number.
        var closedHeard: (count: UInt64, controller: Int) = (0, 0)
        /// What MIDI control changes do now (nil without a MIDI input): the options' mapping
        /// until `midi` changes it, kept for new connections.
        var midi: MIDIControls?
        /// Per parameter, how many MIDI settings of the current session are in `targets`.
        var midiSeen: [ParameterIndex: UInt64] = [:]
        /// The telemetry read by the previous `status()`, for RMS over the interval since.
        var lastSnapshot: TelemetrySnapshot?
        var reconnects = 0
        var failures = 0
        var nextAttempt: ContinuousClock.Instant?
        var lastFailure: LiveHostError?
        /// Connections to make again on a new server; `pending` are those whose peer port
        /// does not exist (yet): they are made when it appears.
        var remembered = Set<PortConnection>()
        var pending = Set<PortConnection>()
        var settleDeadline: ContinuousClock.Instant?
        var supervisor: NamedThread?
        var stopping = false
        var exitStatus: Int32?

        /// A new connection: its MIDI counts start again from zero.
        mutating func attach(_ session: JackSession) {
            self.session = session
            midiSeen = [:]
        }

        /// Takes the values MIDI controllers set since the last look into `targets`, so
        /// `get`, the panel's knobs and a rebuilt engine all follow the controller.
        mutating func absorbMIDI() {
            guard let s = session else { return }
            for id in Array(targets.keys) {
                let last = s.midiLastSet(id)
                guard last.generation != midiSeen[id, default: 0] else { continue }
                midiSeen[id] = last.generation
                targets[id] = last.value
            }
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
    public init(options: LiveHostOptions, log: @escaping @Sendable (String) -> Void,
                onTerminate: (@Sendable (Int32) -> Void)? = nil) {
        self.options = options
        self.log = log
        self.onTerminate = onTerminate
        let targets = options.processor.table.complete(options.initialValues)
        state = Mutex(State(engine: Self.makeEngine(targets, options), targets: targets, midi: options.midi))
    }

    private static func makeEngine(_ values: [ParameterIndex: Double], _ options: LiveHostOptions) -> Engine {
        if let smoothing = options.smoothing {
            return Engine(processor: options.processor, initialValues: values, smoothingTime: smoothing)
        }
        return Engine(processor: options.processor, initialValues: values)
    }

    // MARK: Life cycle

    /// Joins the server, registers the ports, makes the connections and starts watching the
    /// server. Throws when the options are invalid or no server can be reached.
    public func start() throws(LiveHostError) {
        try options.validate()
        let session = try openSession()
        state.withLock { $0.attach(session) }
        let planned = session.plannedConnections(options)
        for warning in planned.warnings { log("detent: \(warning)") }
        let failed = session.connect(planned.connections)
        state.withLock { $0.remembered = Set(planned.connections).subtracting(failed) }
        startSupervisor()
    }

    /// Closes the client and stops watching the server. Safe to call more than once.
    public func stop() {
        let thread = state.withLock { st -> NamedThread? in
            st.stopping = true
            defer { st.supervisor = nil }
            return st.supervisor
        }
        wake.signal()
        if let thread, !thread.isCurrent { thread.join() }
        let session = state.withLock { st -> JackSession? in st.detach() }
        if let session { close(session) }
    }

    /// Closes a session; one whose server died within a bounded time (see
    /// ``JackSession/closeAfterServerLoss(timeout:)``).
    private func close(_ session: JackSession) {
        guard session.serverGone else { return session.close() }
        if !session.closeAfterServerLoss(timeout: .seconds(2)) {
            log("detent: the JACK library did not release the lost client within 2 s; leaving it behind")
        }
    }

    /// Set when the host stopped by itself: the status the process should exit with.
    public var exitStatus: Int32? { state.withLock { $0.exitStatus } }

    /// Opens a session, preparing the engine for the server's format. The same engine
    /// carries on when the sample rate is unchanged (values, glides and its timeline intact);
    /// a new rate needs a new engine, which starts from the current targets.
    private func openSession() throws(LiveHostError) -> JackSession {
        try JackSession(options: options, midi: state.withLock { $0.midi }, wake: wake.pointer) {
            rate, bufferSize throws(LiveHostError) in
            try state.withLock { st throws(LiveHostError) in
                if st.engine.sampleRate != Double(rate) {
                    if st.engine.sampleRate != 0 {
                        st.engine = Self.makeEngine(st.targets, options)
                        st.lastStamp = .min
                    }
                    do {
                        try st.engine.prepare(sampleRate: Double(rate), maxFrames: max(Self.preparedFrames, Int(bufferSize)),
                                              channels: options.channels)
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
    @discardableResult
    public func send(_ values: [ParameterIndex: Double]) -> [ParameterChange] {
        state.withLock { st in
            // MIDI settings that came before this one must not later pass for newer ones.
            st.absorbMIDI()
            var frame = ParameterChange.now
            if let s = st.session, !s.serverGone, let clock = s.clock {
                frame = max(clock.stamp(atJack: s.frameTime), st.lastStamp)
                st.lastStamp = frame
            }
            var sent: [ParameterChange] = []
            for id in table.indices {
                guard let value = values[id] else { continue }
                let v = table[id].clamp(value)
                st.targets[id] = v
                let change = ParameterChange(id, v, frame: frame)
                st.engine.controls.send(change)
                sent.append(change)
            }
            return sent
        }
    }

    public func set(_ values: [ParameterIndex: Double]) { send(values) }

    /// The parameters of the processor hosted.
    public var table: ParameterTable { options.processor.table }

    /// What MIDI control changes do now; nil when the host has no MIDI input.
    public var midiControls: MIDIControls? { state.withLock { $0.midi } }

    /// Edits what MIDI control changes do, from the next message on (and on every later
    /// connection), and returns the new mapping. Returns nil, changing nothing, when the host
    /// has no MIDI input. The edit runs under the host's lock, so two editors (the panel and
    /// typed commands) cannot lose each other's changes.
    @discardableResult
    public func updateMIDIControls(_ edit: (inout MIDIControls) -> Void) -> MIDIControls? {
        state.withLock { st in
            guard var controls = st.midi else { return nil }
            edit(&controls)
            st.midi = controls
            st.session?.updateMIDI(controls)
            return controls
        }
    }

    /// How many MIDI control changes have arrived on the channel listened to, mapped or not,
    /// and the last one's controller number: what MIDI learn waits for. Nil without MIDI.
    public func lastMIDIControl() -> (count: UInt64, controller: Int)? {
        state.withLock { st in st.midi == nil ? nil : st.heard }
    }

    public func targets() -> [ParameterIndex: Double] {
        state.withLock { st in
            st.absorbMIDI()
            return st.targets
        }
    }

    public func status() -> HostStatus {
        state.withLock { st in
            st.absorbMIDI()
            var values = st.targets
            var peaks = [Float](repeating: 0, count: options.channels)
            var rms: [Double] = []
            if st.engine.channels > 0 {
                let snapshot = st.engine.telemetry.snapshot()
                // Before the first block nothing was published: the targets are the values.
                if snapshot.framesProcessed > 0 { values = snapshot.values }
                peaks = snapshot.peaks
                // A rebuilt engine restarts its counters: measure from scratch then.
                let earlier = st.lastSnapshot.flatMap { $0.framesProcessed <= snapshot.framesProcessed ? $0 : nil }
                rms = snapshot.rms(since: earlier)
                st.lastSnapshot = snapshot
            }
            let live = st.session.flatMap { $0.serverGone ? nil : $0 }
            return HostStatus(
                server: options.serverDisplayName, client: live?.name,
                sampleRate: live.map { Int($0.sampleRate) }, bufferSize: live.map { Int($0.bufferSize) },
                xruns: st.closedXruns + (st.session?.xruns ?? 0), dspLoad: live?.dspLoad,
                values: values, peaks: peaks, rms: rms, reconnects: st.reconnects,
                midiMessages: st.closedMIDIMessages + (st.session?.midiMessages ?? 0))
        }
    }

    /// The frame clock of the current connection (nil before its first cycle).
    public var frameClock: FrameClock? { state.withLock { $0.session?.clock } }

    /// The client's name on the server, nil while disconnected.
    public var clientName: String? { state.withLock { $0.session?.name } }

    /// The connections the host will make again on a new server.
    public var rememberedConnections: Set<PortConnection> { state.withLock { $0.remembered } }

    // MARK: Supervisor

    private func startSupervisor() {
        guard let thread = try? NamedThread(name: "live-supervisor", { self.supervise() }) else {
            log("detent: cannot start the supervisor thread; the server will not be watched")
            return
        }
        state.withLock { $0.supervisor = thread }
    }

    /// Sleeps until a callback posts or a timer is due, then handles whatever happened.
    private func supervise() {
        while true {
            let timeout = state.withLock { st -> Duration in
                let now = ContinuousClock.now
                var timeout = Duration.seconds(1)
                for deadline in [st.nextAttempt, st.settleDeadline].compactMap({ $0 }) {
                    timeout = min(timeout, deadline - now)
                }
                return timeout
            }
            // Several posts may have piled up: one pass of the supervisor handles them all.
            if wake.wait(timeout: timeout) { wake.drain() }
            if state.withLock({ $0.stopping }) { return }
            if !handleLoss() { return }
            reconnectIfDue()
            rememberConnectionsIfSettled()
        }
    }

    /// Closes a session whose server went away (or changed its sample rate). Returns false
    /// when the host stops instead of reconnecting.
    private func handleLoss() -> Bool {
        let lost = state.withLock { st -> JackSession? in
            guard let s = st.session, s.serverGone || s.formatChanged else { return nil }
            _ = st.detach()
            st.settleDeadline = nil
            st.failures = 0
            st.nextAttempt = .now
            return s
        }
        guard let lost else { return true }
        let gone = lost.serverGone
        let rate = lost.sampleRate
        close(lost)
        if !gone {
            log("detent: the JACK sample rate changed to \(rate) Hz; restarting the client")
            return true
        }
        let server = options.serverDisplayName
        guard options.reconnect else {
            log("detent: the JACK server '\(server)' stopped; exiting (--no-reconnect)")
            state.withLock {
                $0.exitStatus = 1
                $0.stopping = true
            }
            onTerminate?(1)
            return false
        }
        log("detent: the JACK server '\(server)' stopped; keeping the current values and reconnecting when it returns")
        return true
    }

    private func reconnectIfDue() {
        let due = state.withLock { st in
            st.session == nil && (st.nextAttempt.map { $0 <= .now } ?? false)
        }
        guard due else { return }
        do {
            let session = try openSession()
            let remembered = state.withLock { st in
                st.attach(session)
                st.reconnects += 1
                st.failures = 0
                st.nextAttempt = nil
                st.lastFailure = nil
                return st.remembered
            }
            let planned = session.plannedConnections(options).connections
            let failed = session.connect(Array(Set(planned).union(remembered)))
            state.withLock { st in
                st.remembered.formUnion(planned)
                st.pending = Set(failed)
            }
            log("detent: reconnected to the JACK server '\(options.serverDisplayName)' as '\(session.name)' "
                + "(\(session.sampleRate) Hz, \(session.bufferSize) frames)")
        } catch {
            let report = state.withLock { st -> Bool in
                st.failures += 1
                st.nextAttempt = .now + options.backoff.delay(afterFailures: st.failures - 1)
                defer { st.lastFailure = error }
                return st.lastFailure != error
            }
            // Say why once, not at every attempt (a server that stays away is not news).
            if report, error != .noServer(server: options.server) { log("detent: reconnecting: \(error)") }
        }
    }

    /// Once the graph has been quiet for `settleTime`: makes remembered connections whose
    /// peer has appeared, then remembers the connections as they are (a connection the user
    /// removed is forgotten; one whose peer is missing is kept for later).
    private func rememberConnectionsIfSettled() {
        let session = state.withLock { st -> JackSession? in
            guard let s = st.session, !s.serverGone else { return nil }
            if s.takeGraphChanged() { st.settleDeadline = .now + Self.settleTime }
            guard let deadline = st.settleDeadline, deadline <= .now else { return nil }
            st.settleDeadline = nil
            return s
        }
        guard let session else { return }
        let (remembered, pending) = state.withLock { ($0.remembered, $0.pending) }
        let appeared = pending.filter { session.portExists($0.peer) }
        session.connect(Array(appeared))
        let current = session.currentConnections()
        let missing = remembered.union(pending).filter { !session.portExists($0.peer) }
        state.withLock { st in
            st.remembered = current.union(missing)
            st.pending = missing
        }
    }
}
