import Control
import Parameters
import AudioEngine
import Isolation
import JackHost
import Platform
import Synchronization

/// The supervisor's side of the live host: a thread that waits for what the callbacks report
/// (a server gone, a rate changed, MIDI heard, a slot's fault), asks ``Supervisor`` what to do,
/// and does it — reconnecting, relaying MIDI and program changes, telling xruns.
extension LiveHost {

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
            let count = st.counters.closedXruns + (st.session?.xruns ?? 0)
            defer { st.counters.xrunsTold = count }
            return (count, count - st.counters.xrunsTold)
        }
        guard new > 0 else { return }
        xrunLog.line("detent: warning: the JACK server reported \(new == 1 ? "an xrun" : "\(new) xruns") (\(count) since the start)")
    }

    /// Publishes what MIDI controllers did on the audio thread since the last look: targets
    /// they moved, and that a controller was heard (what MIDI learn waits for).
    private func relayMIDIChanges() {
        let published = state.withLock { st -> HostChanges in
            st.absorbMIDI()
            var what: HostChanges = st.midiCounts.movedUnpublished ? .values : []
            st.midiCounts.movedUnpublished = false
            let heard = st.heard.count
            if heard != st.midiCounts.heardPublished {
                st.midiCounts.heardPublished = heard
                what.insert(.controllerHeard)
            }
            return what
        }
        changes.publish(published)
    }

    /// Takes the values plug-ins gave their own parameters (linked controls, their own
    /// editors) as the rig's: the targets jump to them (the plug-in has them already), and
    /// every surface is told, as for a typed `set`. The process callback wakes the supervisor
    /// in the cycle a plug-in says it moved one.
    private func relayOwnChanges() {
        state.withLock { st in
            guard let told = st.engine.kernelReports?.takeOwnChanges(), !told.isEmpty else { return }
            let table = st.processor.table
            var values: [ParameterIndex: Double] = [:]
            for change in told {
                if let id = table.find(change.id) { values[id] = change.value }
            }
            _ = sendLocked(values, &st, rampFrames: 0)
        }
    }

    /// Carries out program changes the callback took since the last look.
    private func relayProgramChanges() {
        let due = state.withLock { st -> (Int, String, @Sendable (Int, String) -> Void)? in
            guard let s = st.session, let handler = st.onProgram, let midi = st.midi else { return nil }
            let taken = s.midiProgram
            guard taken.count != st.midiCounts.programsSeen else { return nil }
            st.midiCounts.programsSeen = taken.count
            guard taken.program < midi.programPresets.count else { return nil }
            return (taken.program, midi.programPresets[taken.program], handler)
        }
        if let (number, name, handler) = due { handler(number, name) }
    }

    func startWatcher() {
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
                if faulted > st.counters.toldFaultedCycles {
                    let count = faulted - st.counters.toldFaultedCycles
                    st.counters.toldFaultedCycles = faulted
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
            relayOwnChanges()
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
        st.counters.lastSnapshot = nil
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
                return st.wiring.remembered
            }
            let planned = session.plannedConnections(options).connections
            let failed = session.connect(Array(Set(planned).union(remembered)))
            return state.withLock { st in
                st.wiring.remembered.formUnion(planned)
                st.wiring.pending = Set(failed)
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
        let (remembered, pending) = state.withLock { ($0.wiring.remembered, $0.wiring.pending) }
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
            st.wiring.remembered = current.union(missing)
            st.wiring.pending = missing
        }
    }
}
