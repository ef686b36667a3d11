import JackHost
import Testing

/// The supervisor's rules, with time passed in: no server, no sleeping.
@Suite struct SupervisorTests {
    let t0 = ContinuousClock.now
    func at(_ ms: Int) -> ContinuousClock.Instant { t0 + .milliseconds(ms) }

    static let settings = Supervisor.Settings(
        backoff: Backoff(initial: .milliseconds(250), maximum: .seconds(5)), reconnect: true,
        settleTime: .milliseconds(500), stallTime: .milliseconds(500), checkInterval: .milliseconds(200))

    func connected(_ settings: Supervisor.Settings = Self.settings) -> Supervisor {
        var supervisor = Supervisor(settings: settings)
        #expect(supervisor.handle(.connected, at: at(0)).isEmpty, "the first connection is no news")
        #expect(supervisor.phase == .connected)
        return supervisor
    }

    @Test func aLostServerIsClosedAnnouncedAndTriedAgainAtOnce() {
        var s = connected()
        #expect(s.handle(.serverStopped, at: at(1_000))
            == [.closeSession(serverLost: true), .announce(.serverStopped(exiting: false)), .connect])
        #expect(s.phase == .connecting(failures: 0))
        #expect(s.deadline == nil, "nothing is due while an attempt is under way")
    }

    @Test func attemptsBackOffFromTheInitialDelayToTheMaximum() {
        var s = connected()
        s.handle(.serverStopped, at: at(0))
        var now = 0
        var waits: [Int] = []
        for _ in 0..<8 {
            #expect(s.handle(.connectFailed(.noServer(server: nil)), at: at(now)).isEmpty, "an absent server is not news")
            let due = s.deadline!
            #expect(s.handle(.tick, at: due - .milliseconds(1)).isEmpty, "not before it is due")
            #expect(s.handle(.tick, at: due) == [.connect])
            let wait = due - at(now)
            waits.append(Int(wait.components.seconds * 1_000 + wait.components.attoseconds / 1_000_000_000_000_000))
            now += waits.last!
        }
        #expect(waits == [250, 500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000])
        #expect(s.handle(.connected, at: at(now)) == [.announce(.reconnected)])
        #expect(s.reconnects == 1)
        // A later loss starts again from the initial delay.
        s.handle(.serverStopped, at: at(now + 10))
        s.handle(.connectFailed(.noServer(server: nil)), at: at(now + 10))
        #expect(s.deadline == at(now + 10 + 250))
    }

    @Test func aReasonForFailingIsToldOncePerNewReason() {
        var s = connected()
        s.handle(.serverStopped, at: at(0))
        let busy = LiveHostError.nameTaken("detent")
        #expect(s.handle(.connectFailed(busy), at: at(0)) == [.announce(.reconnectFailed(busy))])
        s.handle(.tick, at: s.deadline!)
        #expect(s.handle(.connectFailed(busy), at: at(300)).isEmpty, "the same reason again")
        s.handle(.tick, at: s.deadline!)
        let other = LiveHostError.activationFailed("detent")
        #expect(s.handle(.connectFailed(other), at: at(900)) == [.announce(.reconnectFailed(other))])
    }

    @Test func withoutReconnectALostServerTerminatesWithStatusOne() {
        var settings = Self.settings
        settings.reconnect = false
        var s = connected(settings)
        #expect(s.handle(.serverStopped, at: at(10))
            == [.closeSession(serverLost: true), .announce(.serverStopped(exiting: true)), .terminate(status: 1)])
        #expect(s.phase == .stopped)
        #expect(s.handle(.tick, at: at(100_000)).isEmpty && s.handle(.connected, at: at(100_000)).isEmpty)
        #expect(s.deadline == nil)
    }

    @Test func aNewSampleRateRestartsTheClientWithoutCountingAReconnection() {
        var s = connected()
        #expect(s.handle(.formatChanged, at: at(5))
            == [.closeSession(serverLost: false), .announce(.sampleRateChanged), .connect])
        #expect(s.handle(.connected, at: at(6)) == [.announce(.reconnected)])
    }

    @Test func connectionsAreRememberedOnceTheGraphHasBeenQuietForTheSettleTime() {
        var s = connected()
        #expect(s.handle(.graphChanged, at: at(100)).isEmpty)
        #expect(s.handle(.graphChanged, at: at(400)).isEmpty, "a new change restarts the wait")
        #expect(s.settleDeadline == at(900))
        #expect(s.handle(.tick, at: at(899)).isEmpty)
        #expect(s.handle(.tick, at: at(900)) == [.settleConnections])
        #expect(s.handle(.tick, at: at(2_000)).isEmpty, "once")
    }

    @Test func aLossForgetsAPendingSettle() {
        var s = connected()
        s.handle(.graphChanged, at: at(0))
        s.handle(.serverStopped, at: at(100))
        s.handle(.connected, at: at(200))
        #expect(s.settleDeadline == nil)
        #expect(s.handle(.tick, at: at(10_000)).isEmpty)
    }

    @Test func eventsOutOfPlaceChangeNothing() {
        var s = Supervisor(settings: Self.settings)
        #expect(s.handle(.serverStopped, at: at(0)).isEmpty, "no session yet")
        #expect(s.handle(.connectFailed(.noServer(server: nil)), at: at(0)).isEmpty)
        s.handle(.connected, at: at(0))
        #expect(s.handle(.connectFailed(.noServer(server: nil)), at: at(1)).isEmpty, "no attempt under way")
        #expect(s.handle(.connected, at: at(2)).isEmpty)
        #expect(s.reconnects == 0)
    }

    @Test func whileConnectedTheCycleCountIsCheckedEveryInterval() {
        var s = connected()
        #expect(s.deadline == at(200))
        s.handle(.cycles(7), at: at(200))
        #expect(s.deadline == at(400))
        s.handle(.graphChanged, at: at(250))
        #expect(s.deadline == at(400), "the earlier of the check and the settle deadline")
        s.handle(.cycles(9), at: at(400))
        #expect(s.deadline == at(600))
    }

    /// Feeds the cycle count every check interval from `from` to `to` (ms), returning the
    /// actions with the time each came.
    func check(_ s: inout Supervisor, count: UInt64, from: Int, to: Int) -> [(Int, Supervisor.Action)] {
        stride(from: from, through: to, by: 200).flatMap { ms in s.handle(.cycles(count), at: at(ms)).map { (ms, $0) } }
    }

    @Test func aSilentProcessCallbackIsCheckedWithOneRoundTrip() {
        var s = connected()
        #expect(check(&s, count: 1, from: 200, to: 600).isEmpty, "cycles keep coming")
        _ = check(&s, count: 2, from: 800, to: 800)
        // Silent since 800 ms: asked once the stall time has passed, and only once.
        let asked = check(&s, count: 2, from: 1_000, to: 2_000)
        #expect(asked.map(\.1) == [.probeServer])
        #expect(asked.first?.0 == 1_400)
        // No answer: asked again once the confirmation time has passed.
        #expect(s.handle(.probed(alive: false), at: at(2_050)).isEmpty)
        #expect(s.handle(.cycles(2), at: at(2_200)).isEmpty)
        #expect(s.handle(.cycles(2), at: at(2_300)) == [.probeServer])
        #expect(s.handle(.probed(alive: false), at: at(2_310))
            == [.closeSession(serverLost: true), .announce(.serverStopped(exiting: false)), .connect])
    }

    @Test func aSecondRoundTripThatIsAnsweredOrCyclesThatComeBackCancelTheSuspicion() {
        var s = connected()
        _ = check(&s, count: 1, from: 200, to: 800)
        s.handle(.probed(alive: false), at: at(800))
        #expect(s.handle(.cycles(1), at: at(1_000)).isEmpty)
        #expect(s.handle(.cycles(1), at: at(1_200)) == [.probeServer])
        #expect(s.handle(.probed(alive: true), at: at(1_210)).isEmpty)
        #expect(s.phase == .connected)
        // Cycles come again: a later silence starts from the beginning.
        _ = check(&s, count: 2, from: 1_400, to: 1_400)
        #expect(check(&s, count: 2, from: 1_600, to: 2_000).map(\.0) == [2_000])
        s.handle(.probed(alive: false), at: at(2_000))
        _ = check(&s, count: 3, from: 2_200, to: 2_200)
        #expect(check(&s, count: 3, from: 2_400, to: 2_600).isEmpty, "no second round trip after cycles came back")
    }

    @Test func aClientThatHasNotRunYetIsNotSuspected() {
        var s = connected()
        #expect(check(&s, count: 0, from: 200, to: 10_000).isEmpty)
        // Once it has run, a silence is.
        _ = check(&s, count: 1, from: 10_200, to: 10_200)
        #expect(check(&s, count: 1, from: 10_400, to: 10_800).map(\.1) == [.probeServer])
    }

    @Test func withoutWatchingCyclesASilenceIsNoReason() {
        var settings = Self.settings
        settings.watchesCycles = false
        var s = connected(settings)
        _ = check(&s, count: 1, from: 200, to: 200)
        #expect(check(&s, count: 1, from: 400, to: 30_000).isEmpty)
        #expect(s.handle(.serverStopped, at: at(30_100)).contains(.closeSession(serverLost: true)))
    }

    @Test func aServerThatAnswersIsAskedAgainLessAndLessOften() {
        var s = connected()
        _ = check(&s, count: 5, from: 200, to: 200)
        var probes: [Int] = []
        for ms in stride(from: 400, through: 20_000, by: 200) where s.handle(.cycles(5), at: at(ms)) == [.probeServer] {
            probes.append(ms)
            #expect(s.handle(.probed(alive: true), at: at(ms)).isEmpty)
        }
        // After 0.5 s of silence, then 1 s, 2 s, 4 s, and at most the back-off's maximum.
        #expect(Array(probes.prefix(6)) == [800, 1_800, 3_800, 7_800, 12_800, 17_800])
        // Cycles again: the next silence is checked after the stall time again.
        _ = check(&s, count: 6, from: 20_200, to: 20_200)
        #expect(check(&s, count: 6, from: 20_400, to: 20_800).map(\.0) == [20_800])
    }

    @Test func detectionWithoutTheShutdownCallbackTakesUnderTwoSeconds() {
        // The worst case: the last cycle just after a check, the server dying with it.
        var s = connected()
        _ = check(&s, count: 3, from: 200, to: 200)
        var lostAt: Int?
        for ms in stride(from: 400, through: 3_000, by: 200) where lostAt == nil {
            if s.handle(.cycles(4), at: at(ms)) == [.probeServer],
               s.handle(.probed(alive: false), at: at(ms)).contains(.closeSession(serverLost: true)) {
                lostAt = ms
            }
        }
        #expect(s.phase == .connecting(failures: 0))
        let detected = try! #require(lostAt)
        #expect(detected - 200 <= 2_000 - 400, "with 400 ms left for the two round trips")
    }

    @Test func aProbeAnswerAfterTheSessionEndedChangesNothing() {
        var s = connected()
        _ = check(&s, count: 1, from: 200, to: 800)
        s.handle(.serverStopped, at: at(900))
        #expect(s.handle(.probed(alive: false), at: at(950)).isEmpty)
        #expect(s.phase == .connecting(failures: 0))
    }

    @Test func aHostStartedBeforeItsServerWaitsAndAnnouncesItsFirstConnectionAsSuch() {
        var supervisor = Supervisor(settings: .init(backoff: Backoff()))
        let start = ContinuousClock.now
        #expect(supervisor.handle(.connectFailed(.noServer(server: "s")), at: start).isEmpty)
        guard case .waiting(let attempt, _) = supervisor.phase else {
            Issue.record("waiting, not \(supervisor.phase)")
            return
        }
        #expect(supervisor.deadline == attempt)
        #expect(supervisor.handle(.tick, at: attempt) == [.connect])
        #expect(supervisor.handle(.connected, at: attempt) == [.announce(.connected)])
        #expect(supervisor.reconnects == 0 && supervisor.phase == .connected)
    }
}

