import Parameters
import Remote
import Testing
import TestSupport

@Suite("OSC routing")
struct OSCRouterTests {
    let table = LowpassGain.table

    @Test("addresses, arguments and ranges that are taken")
    func accepted() {
        #expect(OSCRouter.route("/detent/param/cutoff", [.float(800)], table: table) == .success(.set(.cutoff, 800)))
        #expect(OSCRouter.route("/detent/param/GAIN", [.int32(-6)], table: table) == .success(.set(.gain, -6)))
        #expect(OSCRouter.route("/detent/param/cutoff/norm", [.float(0.5)], table: table) == .success(.setPosition(.cutoff, 0.5)))
        #expect(OSCRouter.route("/detent/get/resonance", [], table: table) == .success(.get(.resonance)))
        #expect(OSCRouter.route("/detent/preset/load", [.string("Dark")], table: table) == .success(.presetLoad("Dark")))
        #expect(OSCRouter.route("/detent/reset", [], table: table) == .success(.reset))
        #expect(OSCRouter.route("/detent/subscribe", [], table: table) == .success(.subscribe))
        #expect(OSCRouter.route("/detent/unsubscribe", [], table: table) == .success(.unsubscribe))
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
    ] as [(String, [OSCArgument], String)])
    func refused(path: String, arguments: [OSCArgument], reason: String) {
        guard case .failure(let rejection) = OSCRouter.route(path, arguments, table: table) else {
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
