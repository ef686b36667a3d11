/// The live host's supervisor as a value: what happened, and when, in; what to do out.
///
/// It decides when a connection is over (the server stopped, or changed its sample rate),
/// when to try a server again (back-off), what is worth telling, when the graph has settled
/// enough to remember connections, and when the server may have died unannounced: PipeWire's
/// libjack can lose its daemon without calling the shutdown callback Detent registers, so a
/// process callback that stops counting cycles while the client should be running is checked
/// with a round trip to the server (``Action/probeServer``), off the audio thread. One
/// unanswered round trip is confirmed by a second a moment later: a server that is going
/// away tells its clients itself (jackd2 does), and libjack is best left to finish that
/// before its client is closed.
///
/// It reads no clock and does no I/O: ``LiveHost`` feeds it events with the time they were
/// seen and carries out the actions, so every rule here is tested without a server and
/// without sleeping, the way `Knob` is.
///
/// ```swift
/// var supervisor = Supervisor(settings: .init(backoff: Backoff()))
/// let t = ContinuousClock.now
/// supervisor.handle(.connected, at: t)                       // []
/// supervisor.handle(.serverStopped, at: t + .seconds(1))     // [.closeSession(serverLost: true), .announce(.serverStopped(exiting: false)), .connect]
/// supervisor.handle(.connectFailed(.noServer(server: nil)), at: t + .seconds(1))  // [] — next try 250 ms later
/// supervisor.deadline                                        // t + 1.25 s
/// ```
package struct Supervisor: Sendable {
    package struct Settings: Sendable, Equatable {
        /// The waits between attempts to reach a server that went away.
        package var backoff: Backoff
        /// False: a lost server ends the host (`--no-reconnect`).
        package var reconnect: Bool
        /// How long the graph must stay quiet before connections are remembered: a server
        /// that is shutting down first drops every connection, which must not be taken as
        /// the user's wish.
        package var settleTime: Duration
        /// How long the process callback may stay silent before the server is asked whether
        /// it is still there; doubled (up to `backoff.maximum`) while it keeps answering, so a
        /// graph that is stopped on purpose costs a round trip every few seconds at most.
        package var stallTime: Duration
        /// How long after an unanswered round trip the server is asked again, before it is
        /// taken for gone.
        package var confirmTime: Duration
        /// How often the cycle count is looked at while connected.
        package var checkInterval: Duration
        /// Whether a silent process callback is checked with round trips at all: not with
        /// jackd2's libjack, which always calls the shutdown callback, and which can crash when
        /// a short-lived client opens and closes beside clients whose server is going away
        /// (seen in the tests, where many clients share one process).
        package var watchesCycles: Bool

        package init(backoff: Backoff = Backoff(), reconnect: Bool = true, settleTime: Duration = .milliseconds(500),
                    stallTime: Duration = .milliseconds(500), confirmTime: Duration = .milliseconds(250),
                    checkInterval: Duration = .milliseconds(200), watchesCycles: Bool = true) {
            self.backoff = backoff
            self.reconnect = reconnect
            self.settleTime = settleTime
            self.stallTime = stallTime
            self.confirmTime = confirmTime
            self.checkInterval = checkInterval
            self.watchesCycles = watchesCycles
        }
    }

    /// What happened.
    package enum Event: Sendable, Equatable {
        /// A session is up: the first one, or a reconnection.
        case connected
        /// An attempt to open a session failed.
        case connectFailed(LiveHostError)
        /// The server is gone: the shutdown callback came, or a round trip found no server.
        case serverStopped
        /// The server's sample rate no longer matches the engine's: the client must restart.
        case formatChanged
        /// A port or connection came or went somewhere in the graph.
        case graphChanged
        /// The process callback's cycle count on this connection, read now. Until it has
        /// moved from 0 the client has not run, so nothing can have stopped: a server that
        /// is slow to take a new client in is not suspected.
        case cycles(UInt64)
        /// The answer to ``Action/probeServer``.
        case probed(alive: Bool)
        /// Nothing but time passing (a deadline came).
        case tick
    }

    /// What the host is to do, in order.
    package enum Action: Sendable, Equatable {
        /// Close the current session: its server is gone (then the close may hang in the
        /// library and must be bounded), or its format is stale.
        case closeSession(serverLost: Bool)
        /// Tell the user (one line).
        case announce(Announcement)
        /// Try to open a session now; report ``Event/connected`` or ``Event/connectFailed(_:)``.
        case connect
        /// Make the remembered connections whose peers have appeared, then remember the
        /// connections as they are.
        case settleConnections
        /// Ask the server for a round trip, off the audio thread; report ``Event/probed(alive:)``.
        case probeServer
        /// Stop for good, with this exit status.
        case terminate(status: Int32)
    }

    /// What is worth telling.
    package enum Announcement: Sendable, Equatable {
        case serverStopped(exiting: Bool)
        case sampleRateChanged
        case reconnected
        /// The first connection, of a host that started before its server (a service).
        case connected
        /// Why reconnecting fails, once per new reason (a server that stays away is not news).
        case reconnectFailed(LiveHostError)
    }

    package enum Phase: Sendable, Equatable {
        /// Before the first session.
        case starting
        case connected
        /// Without a session; the next attempt is due at `attempt`.
        case waiting(attempt: ContinuousClock.Instant, failures: Int)
        /// An attempt is under way.
        case connecting(failures: Int)
        case stopped
    }

    package let settings: Settings
    package private(set) var phase = Phase.starting
    /// Reconnections so far.
    package private(set) var reconnects = 0
    /// When connections are to be remembered, once the graph has been quiet until then.
    package private(set) var settleDeadline: ContinuousClock.Instant?
    private var lastFailure: LiveHostError?
    /// The host started before its server and has not yet connected.
    private var waitingFromStart = false
    /// The cycle count last seen to move, and when.
    private var heartbeat: (count: UInt64?, since: ContinuousClock.Instant)?
    /// Round trips answered during the current silence of the process callback.
    private var answeredProbes = 0
    private var probing = false
    /// After one unanswered round trip: when to ask again.
    private var confirmAt: ContinuousClock.Instant?
    private var nextCheck: ContinuousClock.Instant?

    package init(settings: Settings) {
        self.settings = settings
    }

    /// The next moment the host must call ``handle(_:at:)`` even if nothing happens (with
    /// ``Event/tick``, or the cycle count while connected); nil: only when something does.
    package var deadline: ContinuousClock.Instant? {
        var due: [ContinuousClock.Instant] = []
        switch phase {
        case .connected:
            if let nextCheck { due.append(nextCheck) }
            if let settleDeadline { due.append(settleDeadline) }
        case .waiting(let attempt, _):
            due.append(attempt)
        case .starting, .connecting, .stopped:
            break
        }
        return due.min()
    }

    /// Takes in one event seen at `now` and returns what to do about it.
    @discardableResult
    package mutating func handle(_ event: Event, at now: ContinuousClock.Instant) -> [Action] {
        switch (phase, event) {
        case (.stopped, _):
            return []

        case (.starting, .connected), (.connecting, .connected):
            return connected(at: now)

        case (.starting, .connectFailed(let error)):
            // A service started before its server waits for it as for one that went away.
            waitingFromStart = true
            lastFailure = error
            phase = .waiting(attempt: now + settings.backoff.delay(afterFailures: 0), failures: 1)
            return []

        case (.connecting(let failures), .connectFailed(let error)):
            phase = .waiting(attempt: now + settings.backoff.delay(afterFailures: failures), failures: failures + 1)
            defer { lastFailure = error }
            if case .noServer = error { return [] }
            return error == lastFailure ? [] : [.announce(.reconnectFailed(error))]

        case (.connected, .serverStopped):
            return lose(announcing: .serverStopped(exiting: !settings.reconnect), at: now)

        case (.connected, .probed(alive: false)):
            probing = false
            guard confirmAt != nil else {
                confirmAt = now + settings.confirmTime
                return []
            }
            return lose(announcing: .serverStopped(exiting: !settings.reconnect), at: now)

        case (.connected, .formatChanged):
            return lose(announcing: .sampleRateChanged, at: now)

        case (.connected, .graphChanged):
            settleDeadline = now + settings.settleTime
            return []

        case (.connected, .cycles(let count)):
            return counted(count, at: now)

        case (.connected, .probed(alive: true)):
            probing = false
            confirmAt = nil
            answeredProbes += 1
            if let beat = heartbeat { heartbeat = (beat.count, now) }
            return []

        case (.connected, .tick):
            return settleIfDue(at: now)

        case (.waiting(let attempt, let failures), _) where now >= attempt:
            phase = .connecting(failures: failures)
            return [.connect]

        default:
            return []
        }
    }

    /// The session is up (first, or again): the watch starts afresh. A reconnection is
    /// announced — as the first connection when the service started before its server.
    private mutating func connected(at now: ContinuousClock.Instant) -> [Action] {
        let reconnected = phase != .starting
        phase = .connected
        settleDeadline = nil
        heartbeat = (nil, now)
        answeredProbes = 0
        probing = false
        confirmAt = nil
        nextCheck = now + settings.checkInterval
        guard reconnected else { return [] }
        lastFailure = nil
        if waitingFromStart {
            waitingFromStart = false
            return [.announce(.connected)]
        }
        reconnects += 1
        return [.announce(.reconnected)]
    }

    /// The process callback's cycle count, read at `now`: a count that moved is a heartbeat;
    /// one that stood still for the stall wait (or past a confirmation's time) has the server
    /// probed. Only a server that may die without a word needs its cycles watched.
    private mutating func counted(_ count: UInt64, at now: ContinuousClock.Instant) -> [Action] {
        nextCheck = settings.watchesCycles ? now + settings.checkInterval : nil
        var actions = settleIfDue(at: now)
        guard settings.watchesCycles, count > 0 else { return actions }
        if let beat = heartbeat, beat.count == count {
            let due = confirmAt.map { now >= $0 } ?? (now - beat.since >= stallWait)
            if !probing && due {
                probing = true
                actions.append(.probeServer)
            }
        } else {
            heartbeat = (count, now)
            answeredProbes = 0
            confirmAt = nil
        }
        return actions
    }

    /// How long the callback may be silent before the next round trip: `stallTime`, then
    /// doubling while the server keeps answering.
    private var stallWait: Duration {
        var wait = settings.stallTime
        for _ in 0..<answeredProbes where wait < settings.backoff.maximum { wait = wait * 2 }
        return max(settings.stallTime, min(wait, settings.backoff.maximum))
    }

    private mutating func settleIfDue(at now: ContinuousClock.Instant) -> [Action] {
        guard let deadline = settleDeadline, deadline <= now else { return [] }
        settleDeadline = nil
        return [.settleConnections]
    }

    /// The session is over: close it, say why, and reconnect at once (or stop).
    private mutating func lose(announcing announcement: Announcement, at now: ContinuousClock.Instant) -> [Action] {
        settleDeadline = nil
        heartbeat = nil
        probing = false
        confirmAt = nil
        nextCheck = nil
        let serverLost = announcement != .sampleRateChanged
        let actions: [Action] = [.closeSession(serverLost: serverLost), .announce(announcement)]
        if announcement == .serverStopped(exiting: true) {
            phase = .stopped
            return actions + [.terminate(status: 1)]
        }
        phase = .connecting(failures: 0)
        return actions + [.connect]
    }
}
