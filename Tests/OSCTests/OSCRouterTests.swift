import Parameters
import OSC
import Testing
import TestSupport

@Suite("OSC routing")
struct OSCRouterTests {
    let table = LowpassGain.table

    /// Routes as from anyone but this user (another machine, another user) unless `thisUser`.
    func route(_ path: String, _ arguments: [OSCArgument], thisUser: Bool = false) -> Result<OSCRequest, OSCRejection> {
        OSCRouter.route(path, arguments, table: table, fromThisUser: thisUser)
    }

    @Test("addresses, arguments and ranges that are taken")
    func accepted() {
        #expect(route("/detent/param/cutoff", [.float(800)]) == .success(.set(.cutoff, 800)))
        #expect(route("/detent/param/GAIN", [.int32(-6)]) == .success(.set(.gain, -6)))
        #expect(route("/detent/param/cutoff/norm", [.float(0.5)]) == .success(.setPosition(.cutoff, 0.5)))
        #expect(route("/detent/get/resonance", []) == .success(.get(.resonance)))
        #expect(route("/detent/preset/load", [.string("Dark")]) == .success(.presetLoad("Dark")))
        #expect(route("/detent/reset", []) == .success(.reset))
        #expect(route("/detent/subscribe", []) == .success(.subscribe))
        #expect(route("/detent/unsubscribe", []) == .success(.unsubscribe))
        #expect(route("/detent/status", []) == .success(.status(json: false)))
        #expect(route("/detent/status", [.string("json")]) == .success(.status(json: true)))
        #expect(route("/detent/midi/learn", [.string("Resonance")]) == .success(.midiLearn(.resonance)))
        #expect(route("/detent/midi/learn", []) == .success(.midiLearn(nil)))
        #expect(route("/detent/slot/restart", [.string("drive")]) == .success(.restartSlot("drive")))
        guard case .failure(let rejection) = route("/detent/slot/restart", []) else { Issue.record("taken with no slot"); return }
        #expect(rejection.description == "/detent/slot/restart: expects one string, the slot's name")
    }

    @Test("the chain is edited (which loads plug-in code) and shown for this user only")
    func chainEdits() {
        #expect(route("/detent/chain", [.string("add lp2=builtin at 1")], thisUser: true) == .success(.chain("add lp2=builtin at 1")))
        #expect(route("/detent/chain", [], thisUser: true) == .success(.chain("")))
        for arguments in [[OSCArgument.string("remove lp")], []] {
            guard case .failure(let other) = route("/detent/chain", arguments) else { Issue.record("taken from someone else"); return }
            #expect(other.description.hasPrefix("/detent/chain: taken only from this user on this machine"), "\(other)")
        }
        guard case .failure(let wrong) = route("/detent/chain", [.float(1)], thisUser: true) else { Issue.record("a number taken"); return }
        #expect(wrong.description.hasPrefix("/detent/chain: expects one string"))
    }

    @Test("a preset file's path is taken from this user only; a name from anywhere")
    func presetPaths() {
        for path in ["/etc/passwd", "../../secret", "presets/Dark", "mine.json", "MINE.JSON"] {
            #expect(route("/detent/preset/load", [.string(path)], thisUser: true) == .success(.presetLoad(path)))
            guard case .failure(let rejection) = route("/detent/preset/load", [.string(path)]) else {
                Issue.record("\(path) was taken from another machine")
                continue
            }
            #expect(rejection.description.contains("only from this user on this machine"), "\(rejection)")
        }
        for name in ["Dark", "Warm pad", "..", "v1.2"] {
            #expect(route("/detent/preset/load", [.string(name)]) == .success(.presetLoad(name)))
        }
    }

    @Test("everything else is refused with a reason, never a change", arguments: [
        ("/other/param/cutoff", [OSCArgument.float(800)], "unknown address"),
        ("/detent/param/volume", [.float(1)], "no parameter 'volume'"),
        ("/detent/param/cutoff", [], "expects one number"),
        ("/detent/param/cutoff", [.string("800")], "expects one number"),
        ("/detent/param/cutoff", [.float(1), .float(2)], "expects one number"),
        ("/detent/param/cutoff", [.float(.nan)], "not finite"),
        ("/detent/param/cutoff", [.double(.infinity)], "not finite"),
        ("/detent/param/cutoff", [.float(30_000)], "outside"),
        ("/detent/param/cutoff/norm", [.float(1.5)], "0 … 1"),
        ("/detent/preset/load", [.float(1)], "expects one string"),
        ("/detent/reset", [.float(1)], "expects no arguments"),
        ("/detent/get/cutoff/x", [], "unknown address"),
        ("/detent/status", [.float(1)], "expects no arguments, or the string json"),
        ("/detent/status", [.string("xml")], "expects no arguments, or the string json"),
        ("/detent/midi/learn", [.string("volume")], "no parameter 'volume'"),
        ("/detent/midi/learn", [.int32(74)], "expects one string"),
        ("/detent/midi/learn/cutoff", [], "unknown address"),
    ] as [(String, [OSCArgument], String)])
    func refused(path: String, arguments: [OSCArgument], reason: String) {
        guard case .failure(let rejection) = route(path, arguments) else {
            Issue.record("\(path) was taken")
            return
        }
        #expect(rejection.description.contains(reason), "\(rejection)")
        #expect(!rejection.description.contains("\n"))
    }

    @Test("feedback sends each parameter at most every interval, and always its latest value")
    func throttle() {
        var throttle = FeedbackThrottle(interval: .milliseconds(20))
        let start = ContinuousClock.now
        #expect(throttle.due([.cutoff: 100, .gain: 0], now: start).map(\.1) == [100, 0])
        #expect(throttle.due([.cutoff: 100, .gain: 0], now: start + .milliseconds(30)).isEmpty, "nothing changed")
        #expect(throttle.due([.cutoff: 200, .gain: 0], now: start + .milliseconds(31)).map(\.1) == [200])
        // Within the interval: held back, then the latest arrives.
        #expect(throttle.due([.cutoff: 300, .gain: 0], now: start + .milliseconds(35)).isEmpty)
        #expect(throttle.due([.cutoff: 400, .gain: 0], now: start + .milliseconds(40)).isEmpty)
        #expect(throttle.due([.cutoff: 400, .gain: 0], now: start + .milliseconds(51)).map(\.1) == [400])
    }
}
