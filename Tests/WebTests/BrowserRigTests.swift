import Foundation
import Testing
import TestSupport

/// The page builds the rig in a real browser: the catalogue, the edits' buttons, the graph
/// drawn without overlaps, and a list where a drawing would not fit.
extension BrowserTests {
    /// The typed `chain`'s slots, in order (`chain a (…) -> b (…)`).
    static func slots(_ answer: String) -> [String] {
        answer.dropFirst("chain ".count).components(separatedBy: " -> ").map { String($0.prefix { $0 != " " }) }
    }

    /// With DETENT_SCREENSHOTS=FOLDER: the page as a 1280 × 900 window and a 390 × 844 phone
    /// show it, as `web-rig-NAME-1280.png` and `web-rig-NAME-390.png` there (docs/ holds them).
    static func screenshots(_ browser: HeadlessBrowser, named name: String) throws {
        guard let folder = ProcessInfo.processInfo.environment["DETENT_SCREENSHOTS"] else { return }
        _ = try browser.evaluate("document.getElementById('toast').style.display = 'none'")
        try browser.screenshot(width: 1280, height: 900, mobile: false).write(to: URL(fileURLWithPath: "\(folder)/web-rig-\(name)-1280.png"))
        try browser.screenshot(width: 390, height: 844, mobile: true).write(to: URL(fileURLWithPath: "\(folder)/web-rig-\(name)-390.png"))
        try browser.call("Emulation.clearDeviceMetricsOverride")
    }

    @Test("A chain is built on the page: a plug-in found in the catalogue and added after a slot, then renamed, moved and removed")
    func pageBuildsAChain() throws {
        let server = try JackServer()
        let detent = try LiveProgram(on: server, ["--headless", "--no-midi", "--http", "0", "--plugin", "a=builtin", "--plugin", "b=builtin"])
        let port = try detent.webPort()
        let browser = try HeadlessBrowser()
        try browser.open("http://127.0.0.1:\(port)/")
        try browser.waitFor("document.querySelectorAll('#rig .slot').length === 2 && document.getElementById('add') !== null")
        #expect(try browser.evaluate("[...document.querySelectorAll('#rig .line > *')].map(e => e.dataset.slot || e.textContent).join(' ')")
                as? String == "input → a → b → output")

        // The catalogue, searched; the plug-in chosen, placed after a, named.
        _ = try browser.evaluate("document.getElementById('add').click()")
        try browser.waitFor("document.querySelectorAll('#plugins li').length > 100", timeout: 60)
        #expect(try browser.evaluate("document.querySelector('#plugins li b').textContent") as? String == "Lowpass + gain")
        _ = try browser.evaluate("""
            (() => { const s = document.getElementById('search'); s.value = 'overdrive robillard lv2'; s.dispatchEvent(new Event('input')); })()
            """)
        let overdrive = "#plugins li[data-identifier=\"http://drobilla.net/plugins/mda/Overdrive\"]"
        try browser.waitFor("document.querySelector('\(overdrive)') !== null")
        #expect(try browser.evaluate("document.querySelector('\(overdrive) small').textContent") as? String
                == "LV2 · Distortion Plugin · David Robillard · 2→2 channels")
        _ = try browser.evaluate("document.querySelector('\(overdrive)').click()")
        _ = try browser.evaluate("""
            (() => { const w = document.getElementById('where'); w.value = [...w.options].find(o => o.textContent === 'after a').value;
                     document.getElementById('slotname').value = 'drive'; document.getElementById('addit').click(); })()
            """)
        try waitUntil("the slot is added") { (try? detent.ask("chain")).map(Self.slots) == ["a", "drive", "b"] }
        try browser.waitFor("[...document.querySelectorAll('#rig .slot')].map(s => s.dataset.slot).join() === 'a,drive,b'")
        try browser.waitFor("document.querySelectorAll('section[data-slot=\"drive\"] svg.knob').length === 4")
        try browser.waitFor("document.getElementById('toast').textContent.startsWith('chain a (Lowpass + gain) -> drive (MDA Overdrive)')")

        // A slot's buttons: rename (its name asked), move, remove (after a confirmation).
        _ = try browser.evaluate("window.prompt = () => 'crunch'; window.confirm = () => true")
        _ = try browser.evaluate("document.querySelector('#rig .slot[data-slot=\"drive\"] button[title=\"rename drive\"]').click()")
        try waitUntil("the slot is renamed") { (try? detent.ask("chain")).map(Self.slots) == ["a", "crunch", "b"] }
        try browser.waitFor("document.querySelector('section[data-slot=\"crunch\"]') !== null")
        try browser.waitFor("document.querySelector('#rig .slot[data-slot=\"crunch\"] button[title=\"move crunch later\"]') !== null")
        _ = try browser.evaluate("document.querySelector('#rig .slot[data-slot=\"crunch\"] button[title=\"move crunch later\"]').click()")
        try waitUntil("the slot is moved") { (try? detent.ask("chain")).map(Self.slots) == ["a", "b", "crunch"] }
        try Self.screenshots(browser, named: "chain")
        try browser.waitFor("document.querySelector('#rig .slot[data-slot=\"a\"] button[title=\"remove a\"]') !== null")
        _ = try browser.evaluate("document.querySelector('#rig .slot[data-slot=\"a\"] button[title=\"remove a\"]').click()")
        try waitUntil("the slot is removed") { (try? detent.ask("chain")).map(Self.slots) == ["b", "crunch"] }
        try browser.waitFor("[...document.querySelectorAll('#rig .slot')].map(s => s.dataset.slot).join() === 'b,crunch'")
        // A refusal is the typed one's line.
        _ = try browser.evaluate("window.prompt = () => 'b'")
        _ = try browser.evaluate("document.querySelector('#rig .slot[data-slot=\"crunch\"] button[title=\"rename crunch\"]').click()")
        try browser.waitFor("document.getElementById('toast').textContent.startsWith(\"two chain slots are named 'b'\")")
        // Wired, the chain becomes its line's graph, drawn as one.
        try Self.connect(browser, from: "b", to: "output")
        try waitUntil("the chain is a graph") { (try? detent.ask("chain"))?.hasSuffix("input>b b>crunch crunch>output b>output") == true }
        try browser.waitFor("document.querySelectorAll('svg.graph g.node').length === 4")
        #expect(detent.finish() == 0)
    }

    /// Adds Detent's built-in from the catalogue as slot `name`, placed at the option `place`
    /// offers ("on comp → output", "new branch input → output").
    static func addBuiltIn(_ browser: HeadlessBrowser, where place: String, as name: String) throws {
        _ = try browser.evaluate("document.getElementById('add').click()")
        try browser.waitFor("document.querySelector('#plugins li[data-identifier=\"builtin\"]') !== null", timeout: 60)
        _ = try browser.evaluate("document.querySelector('#plugins li[data-identifier=\"builtin\"]').click()")
        _ = try browser.evaluate("""
            (() => { const w = document.getElementById('where'); w.value = [...w.options].find(o => o.textContent === '\(place)').value;
                     document.getElementById('slotname').value = '\(name)'; document.getElementById('addit').click(); })()
            """)
    }

    /// Connects `from` (typed: a node or a new input's name) to `to` (chosen) with the form.
    static func connect(_ browser: HeadlessBrowser, from: String, to: String) throws {
        _ = try browser.evaluate("""
            (() => { const f = document.querySelector('#rig .wireform'); f.querySelector('input').value = '\(from)';
                     f.querySelector('select').value = '\(to)'; f.querySelector('button').click(); })()
            """)
    }

    @Test("A graph is drawn with no box over another and no line through a box; connected and disconnected on the page; a list on a phone")
    func pageDrawsAndWiresAGraph() throws {
        let folder = TemporaryFolder()
        let graph = folder.write("g.json", text: #"""
            {"slots":{"lp":{"plugin":"builtin"},"drive":{"plugin":"http://drobilla.net/plugins/mda/Overdrive"},
             "comp":{"plugin":"urn:zamaudio:ZamComp"}},
             "connections":[["input","lp"],["input","drive"],["lp","comp"],["drive","comp"],["key","comp:sidechain"],["comp","output"]]}
            """#)
        let server = try JackServer()
        let detent = try LiveProgram(on: server, ["--headless", "--no-midi", "--http", "0", "--graph", graph])
        let port = try detent.webPort()
        let browser = try HeadlessBrowser()
        try browser.open("http://127.0.0.1:\(port)/")
        try browser.waitFor("document.querySelectorAll('svg.graph g.node').length === 6")
        /// Boxes over boxes, and points of lines inside a box, on the drawing now.
        let overlaps = """
            (() => { const boxes = [...document.querySelectorAll('svg.graph rect')].map(r => r.getBBox());
              let bad = 0;
              boxes.forEach((a, i) => boxes.slice(i + 1).forEach(b => {
                if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height) bad++; }));
              for (const p of document.querySelectorAll('svg.graph path')) {
                const n = p.getTotalLength();
                for (let t = 0; t <= 60; t++) { const q = p.getPointAtLength(n * t / 60);
                  if (boxes.some(b => q.x > b.x + 1 && q.x < b.x + b.width - 1 && q.y > b.y + 1 && q.y < b.y + b.height - 1)) { bad++; break; } } }
              return bad; })()
            """
        #expect(try browser.evaluate(overlaps) as? Int == 0)
        #expect(try browser.evaluate("document.querySelectorAll('svg.graph path.side').length") as? Int == 1)

        // A connection made with the form, then taken away with its button.
        try Self.connect(browser, from: "input", to: "comp")
        try waitUntil("the connection is made") { (try? detent.ask("chain"))?.contains(" input>comp ") == true }
        try browser.waitFor("document.querySelectorAll('svg.graph path').length === 7")
        #expect(try browser.evaluate(overlaps) as? Int == 0)
        _ = try browser.evaluate("document.querySelector('#rig button[title=\"disconnect input → comp\"]').click()")
        try waitUntil("the connection is taken away") { (try? detent.ask("chain"))?.contains("input>comp") == false }
        try browser.waitFor("document.querySelectorAll('svg.graph path').length === 6")

        // A slot put on a connection from the catalogue.
        try Self.addBuiltIn(browser, where: "on comp → output", as: "tail")
        try waitUntil("the slot is put on the connection") { (try? detent.ask("chain"))?.hasSuffix("comp>tail tail>output") == true }
        try browser.waitFor("document.querySelectorAll('svg.graph g.node').length === 7")
        #expect(try browser.evaluate(overlaps) as? Int == 0)

        // On a phone: no drawing, the list of connections.
        try browser.call("Emulation.setDeviceMetricsOverride", ["width": 360, "height": 740, "deviceScaleFactor": 2, "mobile": true])
        try browser.waitFor("getComputedStyle(document.querySelector('svg.graph')).display === 'none'")
        #expect(try browser.evaluate("[...document.querySelectorAll('#rig ul.wires li span')].map(s => s.textContent).join(', ')") as? String
                == "input → lp, input → drive, lp → comp, drive → comp, key → comp:sidechain, comp → tail, tail → output")
        #expect(try browser.evaluate("document.documentElement.scrollWidth <= 360") as? Bool == true, "nothing wider than the phone")
        try Self.screenshots(browser, named: "graph")
        #expect(detent.finish() == 0)
    }
}

/// The whole way from an empty rig to a preset that renders what was heard: built on the page,
/// played live, recorded, rendered offline.
extension BrowserTests {
    /// The samples of a 32-bit integer WAV file `jack_rec` wrote, per channel, scaled to ±1.
    static func pcm32(_ path: String) throws -> [[Double]] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        var at = 12, count = 0
        while at + 8 <= bytes.count {
            let id = String(decoding: bytes[at..<at + 4], as: UTF8.self), size = u32(at + 4)
            if id == "fmt " {
                count = Int(bytes[at + 10]) | Int(bytes[at + 11]) << 8
                #expect(Int(bytes[at + 22]) == 32, "32-bit samples")
            } else if id == "data", count > 0 {
                let frames = min(size, bytes.count - at - 8) / (4 * count)
                return (0..<count).map { c in
                    (0..<frames).map { f in Double(Int32(truncatingIfNeeded: u32(at + 8 + 4 * (f * count + c)))) / 2_147_483_648 }
                }
            }
            at += 8 + size + size % 2
        }
        throw HeadlessBrowser.Failure(description: "\(path): no samples")
    }

    @Test("From an empty rig, the page adds an LV2, a LADSPA and the built-in found by search, moves one, bypasses one and saves; the preset renders offline what was heard live")
    func pageBuildsARigThatRendersAsItPlayed() throws {
        let server = try JackServer()
        let detent = try LiveProgram(on: server, ["--headless", "--no-midi", "--http", "0", "--channels", "1"])
        let port = try detent.webPort()
        let browser = try HeadlessBrowser()
        try browser.open("http://127.0.0.1:\(port)/")
        try browser.waitFor("document.getElementById('add') !== null && document.querySelectorAll('svg.knob').length === 3")
        // The processor alone is no slot: named, with no slot's buttons.
        #expect(try browser.evaluate("document.querySelector('#rig .line').textContent") as? String == "input→Detent→output")
        #expect(try browser.evaluate("document.querySelectorAll('#rig .slot, #rig .tools').length") as? Int == 0)

        /// Finds a plug-in by typing `search`, picks the row of `identifier` and adds it at the
        /// end as slot `name`.
        func add(_ search: String, _ identifier: String, as name: String, making slots: [String]) throws {
            _ = try browser.evaluate("document.getElementById('add').click()")
            // Listed ("N plug-ins"), after the catalogue is read once.
            try browser.waitFor("/^[0-9]+ plug-in/.test(document.getElementById('found').textContent)", timeout: 60)
            _ = try browser.evaluate("""
                (() => { const s = document.getElementById('search'); s.value = '\(search)'; s.dispatchEvent(new Event('input')); })()
                """)
            let row = "#plugins li[data-identifier=\"\(identifier)\"]"
            try browser.waitFor("document.querySelector('\(row)') !== null")
            _ = try browser.evaluate("document.querySelector('\(row)').click()")
            _ = try browser.evaluate("""
                (() => { document.getElementById('slotname').value = '\(name)'; document.getElementById('addit').click(); })()
                """)
            try waitUntil("\(name) is added") { (try? detent.ask("chain")).map(Self.slots) == slots }
            try browser.waitFor("[...document.querySelectorAll('#rig .slot')].map(s => s.dataset.slot).join() === '\(slots.joined(separator: ","))'")
        }
        try add("overdrive robillard lv2", "http://drobilla.net/plugins/mda/Overdrive", as: "drive", making: ["builtin", "drive"])
        try add("echo delay 0.01s cmt", "ladspa:1053:delay_0.01s", as: "echo", making: ["builtin", "drive", "echo"])
        try add("lowpass + gain", "builtin", as: "tone", making: ["builtin", "drive", "echo", "tone"])
        _ = try browser.evaluate("document.querySelector('#rig .slot[data-slot=\"echo\"] button[title=\"move echo earlier\"]').click()")
        try waitUntil("echo is moved") { (try? detent.ask("chain")).map(Self.slots) == ["builtin", "echo", "drive", "tone"] }
        // The page has the moved rig's layout before its switch is clicked: a value set from a
        // layout the host has moved on from is not applied (the page is sent the new one).
        try browser.waitFor("[...document.querySelectorAll('#rig .slot')].map(s => s.dataset.slot).join() === 'builtin,echo,drive,tone'")
        try browser.waitFor("document.querySelector('section[data-slot=\"drive\"] .power input') !== null")
        _ = try browser.evaluate("document.querySelector('section[data-slot=\"drive\"] .power input').click()")
        try waitUntil("drive is bypassed") { (try? detent.ask("get drive.bypass")) == "drive.bypass=on" }
        try browser.waitFor("document.querySelector('#rig .slot[data-slot=\"drive\"]').classList.contains('bypassed')")
        _ = try detent.ask("set tone.cutoff 3k")
        _ = try browser.evaluate("""
            (() => { document.getElementById('preset').value = 'Rig'; document.querySelector('#presets button[value=save]').click(); })()
            """)
        let preset = detent.configFolder + "/detent/presets/Rig.json"
        try waitUntil("the rig is saved") { FileManager.default.fileExists(atPath: preset) }

        // A second page and the typed chain see the same rig.
        let other = try PanelSocket(port: port, headers: ["Origin": "http://127.0.0.1:\(port)"])
        #expect(LiveWebTests.sections(try other.next("layout")) == ["builtin", "echo", "drive", "tone"])
        #expect(try detent.ask("chain") == "chain builtin (Lowpass + gain) -> echo (Echo Delay Line (Maximum Delay 0.01s)) -> drive (MDA Overdrive) -> tone (Lowpass + gain)")

        // Live: a tone through the rig, recorded with what Detent made of it, cycle for cycle.
        let folder = TemporaryFolder()
        let recording = folder.file("live.wav")
        let tone = try ChildProcess("/usr/bin/jack_simple_client", [], environment: server.clientEnvironment)
        defer {
            tone.signal(SIGTERM)
            tone.wait()
        }
        try waitUntil("the tone's client is there") { server.ports(matching: "^jack_simple_client:output1$").count == 1 }
        let connected = try ChildProcess.run("/usr/bin/jack_connect", ["jack_simple_client:output1", "detent:in_1"], environment: server.clientEnvironment)
        #expect(connected.status.exited == 0, "\(connected.stderrText)")
        let recorder = try ChildProcess("/usr/bin/jack_rec", ["-f", recording, "-d", "2", "-b", "32", "-B", "1048576",
                                                            "jack_simple_client:output1", "detent:out_1"], environment: server.clientEnvironment)
        try Self.finish(recorder, detent)

        // Offline: the recorded input through the saved preset's rig.
        let live = try Self.pcm32(recording)
        let input = folder.write("input.wav", WAV.float([live[0].map { Float($0) }]))
        let rendered = try ChildProcess.run(try BuiltProducts.detent, ["render", input, "-o", folder.file("offline.wav"), "--chain", preset],
                                            environment: ["XDG_CONFIG_HOME": folder.file("config"), "PATH": "/usr/bin:/bin"])
        #expect(rendered.status.exited == 0, "\(rendered.stderrText)")
        let offline = try Self.pcm32OrFloat(folder.file("offline.wav"))
        #expect(live[0].contains { abs($0) > 0.1 }, "the tone was recorded")
        #expect(offline.count == live[1].count)
        // The rig heard the tone before the recording began: its filters' and its echo's memory
        // of that fades within milliseconds, so the first tenth of a second is left out. From there on the
        // same samples, no shift (jack_rec's 32-bit integers hold each float to within 2⁻³¹).
        let settled = 4_800
        let worst = zip(offline[settled...], live[1][settled...]).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-7, "the live output and the preset's offline render differ by up to \(worst)")
    }

    /// Waits for `jack_rec` to end (30 s at most: it records a few seconds), then ends Detent;
    /// both must end well.
    static func finish(_ recorder: ChildProcess, _ detent: LiveProgram) throws {
        guard let ended = recorder.wait(seconds: 30) else {
            recorder.signal(SIGKILL)
            recorder.wait()
            throw HeadlessBrowser.Failure(description: "jack_rec did not end")
        }
        #expect(ended.exited == 0)
        #expect(detent.finish() == 0)
    }

    /// A float WAV file's one channel, as `detent render` writes it from a float input.
    static func pcm32OrFloat(_ path: String) throws -> [Double] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        var at = 12
        while at + 8 <= bytes.count {
            let id = String(decoding: bytes[at..<at + 4], as: UTF8.self), size = u32(at + 4)
            if id == "data" {
                let frames = min(size, bytes.count - at - 8) / 4
                return (0..<frames).map { f in Double(Float(bitPattern: UInt32(u32(at + 8 + 4 * f)))) }
            }
            at += 8 + size + size % 2
        }
        throw HeadlessBrowser.Failure(description: "\(path): no samples")
    }
}

/// A graph edited on the page ducks live as its saved preset does offline.
extension BrowserTests {
    /// The RMS level of `signal` over `range`, in dB.
    static func level(_ signal: [Double], _ range: Range<Int>) -> Double {
        10 * log10(signal[range].reduce(0) { $0 + $1 * $1 } / Double(range.count) + 1e-30)
    }

    @Test("A graph edited on the page (a parallel branch added, a side chain wired from a new named input) ducks live as its saved preset does offline")
    func pageEditsAGraphThatDucksAsOffline() throws {
        let folder = TemporaryFolder()
        let graph = folder.write("g.json", text: #"{"slots":{"comp":{"plugin":"urn:zamaudio:ZamComp"}},"connections":[["input","comp"],["comp","output"]]}"#)
        let server = try JackServer()
        let detent = try LiveProgram(on: server, ["--headless", "--no-midi", "--http", "0", "--channels", "1", "--graph", graph])
        let port = try detent.webPort()
        let browser = try HeadlessBrowser()
        try browser.open("http://127.0.0.1:\(port)/")
        try browser.waitFor("document.getElementById('add') !== null && document.querySelector('#rig .wireform') !== null")

        // A parallel branch, input → lp → output, from the catalogue.
        try Self.addBuiltIn(browser, where: "new branch input → output", as: "lp")
        try waitUntil("the branch is added") { (try? detent.ask("chain"))?.contains("input>lp") == true }
        // The key: a new named input wired to the compressor's side chain with the form.
        try browser.waitFor("[...document.querySelectorAll('#rig .wireform select option')].some(o => o.value === 'comp:sidechain')")
        try Self.connect(browser, from: "key", to: "comp:sidechain")
        try waitUntil("the key is wired") { (try? detent.ask("chain"))?.contains("key>comp:sidechain") == true }
        let chain = try detent.ask("chain")
        for edge in ["input>comp", "input>lp", "key>comp:sidechain", "comp>output", "lp>output"] {
            #expect(chain.contains(edge), "\(chain)")
        }
        try waitUntil("the key's port is there") { server.ports(matching: "^detent:key_1$").count == 1 }
        // Keyed by the side chain alone, hard; the branch beside it 20 dB down.
        for command in ["set comp.sidech 1", "set comp.thr -30", "set comp.rat 20", "set lp.gain -20"] { _ = try detent.ask(command) }
        _ = try browser.evaluate("""
            (() => { document.getElementById('preset').value = 'Ducker'; document.querySelector('#presets button[value=save]').click(); })()
            """)
        let preset = detent.configFolder + "/detent/presets/Ducker.json"
        try waitUntil("the rig is saved") { FileManager.default.fileExists(atPath: preset) }

        // Live: a tone into the graph, and a metronome into the key that clicks only once the
        // transport rolls, after the recording has begun (until then the compressor, keyed by
        // silence, is as a new one is).
        let tone = try ChildProcess("/usr/bin/jack_simple_client", [], environment: server.clientEnvironment)
        let metro = try ChildProcess("/usr/bin/jack_metro", ["-t", "-b", "240", "-f", "880", "-A", "0.7", "-D", "100", "-n", "metro"],
                                     environment: server.clientEnvironment)
        defer {
            for player in [tone, metro] {
                player.signal(SIGTERM)
                player.wait()
            }
        }
        try waitUntil("the players are there") {
            server.ports(matching: "^jack_simple_client:output1$").count == 1 && server.ports(matching: "^metro:").count == 1
        }
        let click = try #require(server.ports(matching: "^metro:").first)
        for (from, to) in [("jack_simple_client:output1", "detent:in_1"), (click, "detent:key_1")] {
            let connected = try ChildProcess.run("/usr/bin/jack_connect", [from, to], environment: server.clientEnvironment)
            #expect(connected.status.exited == 0, "\(connected.stderrText)")
        }
        let recording = folder.file("live.wav")
        let recorder = try ChildProcess("/usr/bin/jack_rec", ["-f", recording, "-d", "3", "-b", "32", "-B", "1048576",
                                                            "jack_simple_client:output1", click, "detent:out_1"], environment: server.clientEnvironment)
        // Its last port connected (it connects them in order), as the server shows it.
        try waitUntil("the recorder is connected") {
            (try? ChildProcess.run("/usr/bin/jack_lsp", ["-c", "jackrec:input3"], environment: server.clientEnvironment))?
                .stdoutText.contains("   detent:out_1") == true
        }
        let rolled = try ChildProcess.run("/usr/bin/jack_transport", [], environment: server.clientEnvironment, stdin: Array("play\nquit\n".utf8))
        #expect(rolled.status.exited == 0, "\(rolled.stderrText)")
        try Self.finish(recorder, detent)

        // Offline: the recorded tone and key through the saved preset's graph.
        let live = try Self.pcm32(recording)
        let input = folder.write("input.wav", WAV.float([live[0].map { Float($0) }]))
        let key = folder.write("key.wav", WAV.float([live[1].map { Float($0) }]))
        let rendered = try ChildProcess.run(try BuiltProducts.detent, ["render", input, "-o", folder.file("offline.wav"), "--chain", preset,
                                                                      "--input", "key=\(key)"],
                                            environment: ["XDG_CONFIG_HOME": folder.file("config"), "PATH": "/usr/bin:/bin"])
        #expect(rendered.status.exited == 0, "\(rendered.stderrText)")
        let offline = try Self.pcm32OrFloat(folder.file("offline.wav"))
        #expect(offline.count == live[2].count)
        // The tone's memory in the filter fades within milliseconds: from a tenth of a second on,
        // the same samples (jack_rec's 32-bit integers hold each float to within 2⁻³¹).
        let settled = 4_800
        let worst = zip(offline[settled...], live[2][settled...]).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-7, "the live output and the preset's offline render differ by up to \(worst)")

        // It ducks: while the key clicks the output is far below its level before the first click.
        let first = try #require(live[1].firstIndex { abs($0) > 0.01 }, "the metronome clicked")
        #expect(first >= 480, "the clicks began after the recording did")
        let clicks = stride(from: first, to: live[1].count - 2_400, by: 12_000).map { $0 + 960..<$0 + 2_400 }
        let open = Self.level(live[2], 240..<first)
        let ducked = clicks.map { Self.level(live[2], $0) }.max() ?? 0
        #expect(clicks.count >= 4 && open - ducked >= 10, "open \(open) dB, while the key clicks \(ducked) dB")
    }
}
