import Foundation
import Testing
import TestSupport

/// The page in a real browser (Debian's Chromium, headless) over `detent live --http` with a
/// three-slot chain: what a person does with a mouse reaches the host, and what the host does
/// reaches the page. With DETENT_SCREENSHOTS=FOLDER it saves the page at phone and desktop
/// width there (docs/web-phone.png and docs/web-desktop.png are made so).
@Suite("The web panel in a browser", .serialized, .enabled(if: InCI.required(HeadlessBrowser.isInstalled), "needs Debian's chromium"))
struct BrowserTests {
    /// The knob position of a cutoff value (20 Hz … 20 kHz, logarithmic).
    static func position(_ hertz: Double) -> Double { log(hertz / 20) / log(1000) }

    /// A typed `get` answer's value in hertz (`a.cutoff=3.97 kHz`).
    static func hertz(_ answer: String) -> Double? {
        let text = answer.split(separator: "=").last.map(String.init) ?? ""
        let parts = text.split(separator: " ")
        guard let number = parts.first.flatMap({ Double($0) }), parts.count == 2 else { return nil }
        return parts[1] == "kHz" ? number * 1000 : number
    }

    @Test("Every slot's knobs are on the page; a drag, a fine drag, a double click, a typed value and a switch reach the host; the host's changes reach the page")
    func panel() throws {
        let server = try JackServer()
        let detent = try LiveProgram(on: server, ["--headless", "--no-midi", "--http", "0",
                                                  "--plugin", "a=builtin", "--plugin", "b=builtin", "--plugin", "c=builtin"])
        let port = try detent.webPort()
        let browser = try HeadlessBrowser()
        try browser.open("http://127.0.0.1:\(port)/")
        try browser.waitFor("document.querySelectorAll('svg.knob').length === 12")  // each slot: mix, cutoff, resonance, gain
        #expect(try browser.evaluate("[...document.querySelectorAll('section h2')].map(h => h.firstChild.textContent).join(',')") as? String == "a,b,c")
        #expect(try browser.evaluate("document.getElementById('status').textContent") as? String == "connected")
        #expect(try browser.evaluate("document.querySelectorAll('section h2 .switch input').length") as? Int == 3)

        // A drag of 40 px up: a fifth of the way round; with Shift, a fiftieth. The page sends
        // positions as the pointer moves, so each wait is for where the drag ends.
        func settles(near position: Double, within tolerance: Double) throws -> Double {
            var hertz = 0.0
            do {
                try waitUntil("b.cutoff settles near position \(position)") {
                    hertz = (try? detent.ask("get b.cutoff")).flatMap(Self.hertz) ?? 0
                    return hertz > 0 && abs(Self.position(hertz) - position) < tolerance
                }
            } catch {
                // Where it settled instead, and what the page shows, for the next look at it.
                let shown = try? browser.evaluate("document.querySelector('[data-id=\"b.cutoff\"] .value').textContent")
                Issue.record("b.cutoff is at \(hertz) Hz (position \(Self.position(hertz))); the page shows \(String(describing: shown))")
                throw error
            }
            return hertz
        }
        try browser.drag("[data-id=\"b.cutoff\"] svg", up: 40)
        let dragged = try settles(near: Self.position(1000) + 0.2, within: 0.005)
        try browser.drag("[data-id=\"b.cutoff\"] svg", up: 40, modifiers: 8)
        _ = try settles(near: Self.position(dragged) + 0.02, within: 0.004)
        let answer = try detent.ask("get b.cutoff")
        try browser.waitFor("document.querySelector('[data-id=\"b.cutoff\"] .value').textContent === '\(answer.split(separator: "=")[1])'")

        // A double click resets it; a typed value with its unit; a slot's bypass switch.
        try browser.doubleClick("[data-id=\"b.cutoff\"] svg")
        try waitUntil("the reset lands") { (try? detent.ask("get b.cutoff")) == "b.cutoff=1.00 kHz" }
        _ = try browser.evaluate("""
            (() => { const v = document.querySelector('[data-id="a.cutoff"] .value'); v.click();
                     const i = v.querySelector('input'); i.value = '2.5k';
                     i.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' })); })()
            """)
        try waitUntil("the typed value lands") { (try? detent.ask("get a.cutoff")) == "a.cutoff=2.50 kHz" }
        // The slot's power switch: lit and captioned "on" while the slot plays; off, bypassed.
        try browser.waitFor("document.querySelector('[data-id=\"c.bypass\"] input').checked === true")
        try browser.waitFor("document.querySelector('[data-id=\"c.bypass\"] .caption').textContent === 'on'")
        _ = try browser.evaluate("document.querySelector('[data-id=\"c.bypass\"] input').click()")
        try waitUntil("the switch lands") { (try? detent.ask("get c.bypass")) == "c.bypass=on" }
        try browser.waitFor("document.querySelectorAll('section')[2].classList.contains('bypassed')")
        try browser.waitFor("document.querySelector('[data-id=\"c.bypass\"] input').checked === false")
        try browser.waitFor("document.querySelector('[data-id=\"c.bypass\"] .caption').textContent === 'bypassed'")

        // Typed on standard input, and from another page: the knob and its label follow.
        _ = try detent.ask("set b.gain -12")
        try browser.waitFor("document.querySelector('[data-id=\"b.gain\"] .value').textContent === '−12.0 dB'")
        let other = try PanelSocket(port: port, headers: ["Origin": "http://127.0.0.1:\(port)"])
        _ = try other.next("layout")
        other.send(#"{"type":"value","id":"c.resonance","value":4}"#)
        try browser.waitFor("document.querySelector('[data-id=\"c.resonance\"] .value').textContent === '4.00'")

        // MIDI learn: the button, then a parameter's name; without a MIDI input (--no-midi) the
        // host says so on the page.
        _ = try browser.evaluate("document.getElementById('learn').click()")
        _ = try browser.evaluate("document.querySelector('[data-id=\"b.gain\"] .name').click()")
        try browser.waitFor("document.getElementById('toast').textContent.startsWith('no MIDI input to learn from')")
        _ = try browser.evaluate("document.getElementById('learn').click()")
        #expect(try browser.evaluate("document.body.classList.contains('learning')") as? Bool == false)

        // A preset saved from the page's form is offered in its list.
        _ = try browser.evaluate("""
            (() => { document.getElementById('preset').value = 'Phone';
                     document.querySelector('#presets button[value=save]').click(); })()
            """)
        try browser.waitFor("[...document.querySelectorAll('#preset-names option')].some(o => o.value === 'Phone')")
        #expect(try detent.ask("preset load Phone").hasPrefix("preset Phone: "))

        if let folder = ProcessInfo.processInfo.environment["DETENT_SCREENSHOTS"] {
            try browser.screenshot(width: 360, mobile: true).write(to: URL(fileURLWithPath: folder + "/web-phone.png"))
            try browser.screenshot(width: 1024, mobile: false).write(to: URL(fileURLWithPath: folder + "/web-desktop.png"))
        }
        #expect(detent.finish() == 0)
    }

    /// An isolated slot that crashes reads "down" on its power switch, not "on".
    @Test("a crashed isolated slot's switch reads down")
    func crashedSlotReadsDown() throws {
        let server = try JackServer()
        var environment = server.clientEnvironment
        environment["LV2_PATH"] = try FaultPlugin.built.get()
        let detent = try LiveProgram(server.liveArguments + ["--headless", "--no-midi", "--http", "0", "--isolate", "--channels", "1",
                                                            "--plugin", "lp=builtin", "--plugin", "f1=\(FaultPlugin.uri)"],
                                     environment: environment)
        try detent.waitForMessage("'detent' on JACK server '\(server.name)'", timeout: 30)
        let port = try detent.webPort()
        let browser = try HeadlessBrowser()
        try browser.open("http://127.0.0.1:\(port)/")
        let caption = "document.querySelector('section[data-slot=\"f1\"] .power .caption').textContent"
        try browser.waitFor("document.querySelector('section[data-slot=\"f1\"] .power .caption') !== null")
        #expect(try browser.evaluate(caption) as? String == "on")
        _ = try detent.ask("set f1.fault 1")
        // Both at one moment: the host restarts a crashed slot by itself, so a second look
        // taken after the first may already see it on again.
        try browser.waitFor(caption + " === 'down' && document.querySelector('section[data-slot=\"f1\"]').classList.contains('down')")
        #expect(detent.finish() == 0)
    }

    /// A chain's outputs strip says whose each meter is, and shows a latency as a number.
    @Test("in a chain, each output's meter names its slot; a latency has no bar")
    func outputsNameTheirSlot() throws {
        let server = try JackServer()
        let detent = try LiveProgram(on: server, ["--headless", "--no-midi", "--http", "0",
                                                  "--plugin", "lim=http://gareus.org/oss/lv2/dpl#stereo", "--plugin", "builtin"])
        let port = try detent.webPort()
        let browser = try HeadlessBrowser()
        try browser.open("http://127.0.0.1:\(port)/")
        try browser.waitFor("document.querySelector('[data-id=\"lim.latency\"]') !== null")
        let name = try browser.evaluate("document.querySelector('.meter[data-id=\"lim.level\"] .name').textContent") as? String
        #expect(name?.hasPrefix("lim · ") == true, "\(name ?? "none")")
        #expect(try browser.evaluate("getComputedStyle(document.querySelector('.meter[data-id=\"lim.latency\"] .bar')).visibility")
                as? String == "hidden")
        #expect(try browser.evaluate("getComputedStyle(document.querySelector('.meter[data-id=\"lim.level\"] .bar')).visibility")
                as? String == "visible")
        // The limiter's own Enable is the slot's power switch: one switch, not two.
        #expect(try browser.evaluate("document.querySelector('[data-id=\"lim.bypass\"]') !== null") as? Bool == true)
        #expect(try browser.evaluate("document.querySelector('[data-id=\"lim.enable\"]') === null") as? Bool == true)
        #expect(try browser.evaluate("document.querySelector('[data-id=\"lim.threshold\"]') !== null") as? Bool == true)
        #expect(detent.finish() == 0)
    }

    /// An enumeration is a list on the page (mda Shepard's three modes): choosing an entry
    /// reaches the host, and a value set on standard input chooses the entry on the page.
    @Test("an enumeration is a list whose choice reaches the host, and follows the host")
    func enumeration() throws {
        let server = try JackServer()
        let detent = try LiveProgram(on: server, ["--headless", "--no-midi", "--http", "0",
                                                  "--plugin", "http://drobilla.net/plugins/mda/Shepard"])
        let port = try detent.webPort()
        let browser = try HeadlessBrowser()
        try browser.open("http://127.0.0.1:\(port)/")
        try browser.waitFor("document.querySelector('[data-id=\"mode\"] select') !== null")
        #expect(try browser.evaluate("[...document.querySelectorAll('[data-id=\"mode\"] option')].map(o => o.textContent).join('|')")
                as? String == "Tones only|Input ring modulated by tones|Tones mixed with input")
        #expect(try browser.evaluate("document.querySelectorAll('svg.knob').length") as? Int == 2)
        _ = try browser.evaluate("""
            (() => { const s = document.querySelector('[data-id="mode"] select'); s.value = '1';
                     s.dispatchEvent(new Event('change')); })()
            """)
        try waitUntil("the choice lands") { (try? detent.ask("get mode")) == "mode=Tones mixed with input" }
        _ = try detent.ask("set mode Input ring modulated by tones")
        try browser.waitFor("document.querySelector('[data-id=\"mode\"] select').value === '0.5'")
        #expect(detent.finish() == 0)
    }
}
