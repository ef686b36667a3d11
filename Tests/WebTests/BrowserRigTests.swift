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
        #expect(detent.finish() == 0)
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
        _ = try browser.evaluate("""
            (() => { const f = document.querySelector('#rig .wireform'); f.querySelector('input').value = 'input';
                     f.querySelector('select').value = 'comp'; f.querySelector('button').click(); })()
            """)
        try waitUntil("the connection is made") { (try? detent.ask("chain"))?.contains(" input>comp ") == true }
        try browser.waitFor("document.querySelectorAll('svg.graph path').length === 7")
        #expect(try browser.evaluate(overlaps) as? Int == 0)
        _ = try browser.evaluate("document.querySelector('#rig button[title=\"disconnect input → comp\"]').click()")
        try waitUntil("the connection is taken away") { (try? detent.ask("chain"))?.contains("input>comp") == false }
        try browser.waitFor("document.querySelectorAll('svg.graph path').length === 6")

        // A slot put on a connection from the catalogue.
        _ = try browser.evaluate("document.getElementById('add').click()")
        try browser.waitFor("document.querySelector('#plugins li[data-identifier=\"builtin\"]') !== null", timeout: 60)
        _ = try browser.evaluate("document.querySelector('#plugins li[data-identifier=\"builtin\"]').click()")
        _ = try browser.evaluate("""
            (() => { const w = document.getElementById('where'); w.value = [...w.options].find(o => o.textContent === 'on comp → output').value;
                     document.getElementById('slotname').value = 'tail'; document.getElementById('addit').click(); })()
            """)
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
