import Parameters
import KnobKit
import Presets
import Testing
import TestSupport
@testable import TerminalPanel

/// A panel with forty knobs (``ManyKnobs``): rows that fill the width, pages turned by `[` and
/// `]`, the focus always on screen, and clicks that reach the knob drawn where they land.
@Suite("Panel pages")
struct PanelPagesTests {
    let late = 100.0

    @Test("knobs wrap into rows that fill the width; the pager says which page shows")
    func rowsFillTheWidth() throws {
        for (width, columns) in [(80, 4), (120, 7), (160, 9)] {
            let (panel, _) = ManyKnobs.panel(width: width, height: 24)
            let layout = panel.layout
            #expect(layout.style == .full)
            #expect(layout.perPage == columns * 2, "\(width) columns")
            let rows = Dictionary(grouping: layout.slots, by: \.art.y)
            #expect(rows.count == 2)
            #expect(rows.values.allSatisfy { $0.count == columns })
            // One more knob would not fit in a row.
            #expect((columns + 1) * PanelLayout.slotWidth > width - 2)
            for slot in layout.slots { #expect(slot.frame.x >= 0 && slot.frame.x + slot.frame.width <= width) }
            for row in rows.values {
                for (a, b) in zip(row, row.dropFirst()) { #expect(a.frame.x + a.frame.width <= b.frame.x) }
            }
            let screen = PanelRenderer.render(panel, at: late).screen
            let pages = (40 + columns * 2 - 1) / (columns * 2)
            #expect(screen.text(row: 1).hasSuffix("[ page 1/\(pages) ] "))
            #expect(screen.text(row: layout.statusRow).contains("[ ] pages"))
        }
    }

    @Test("the header names the processor; a plug-in gets no response curve, its knobs take the room")
    func headerAndNoCurve() {
        let (panel, _) = ManyKnobs.panel(width: 80, height: 40)
        #expect(!panel.showsResponse)
        #expect(panel.layout.plot == nil)
        #expect(panel.layout.perPage == 4 * 4)
        let screen = PanelRenderer.render(panel, at: late).screen
        #expect(screen.text(row: 0).hasPrefix(" Forty Knobs  Preset: (untitled) "))
        #expect(!screen.contains("Filter response"))
        let (builtIn, _) = makePanel(height: 40)
        #expect(builtIn.showsResponse)
        #expect(PanelRenderer.render(builtIn, at: late).screen.text(row: 0).hasPrefix(" Detent  Preset: "))
    }

    @Test("] and [ turn pages: the focus keeps its place on the page; the first and last pages stop")
    func pages() {
        let (panel, _) = ManyKnobs.panel()
        panel.press(.tab, at: 0)  // knob 1, place 1 on page 1
        panel.type("]", at: 1)
        #expect(panel.focus == 9)
        #expect(panel.layout.page == 1)
        #expect(panel.layout.shown == 8..<16)
        var screen = PanelRenderer.render(panel, at: late).screen
        #expect(screen.contains("[ page 2/5 ]"))
        #expect(screen.contains("[Mode 9]"))
        #expect(screen.contains("Switch 8") && !screen.contains("Switch 0 "))
        panel.type("[", at: 2)
        #expect(panel.focus == 1)
        panel.type("[", at: 3)
        #expect(panel.focus == 1)  // the first page: nothing moves
        for t in 0..<6 { panel.type("]", at: 4 + Double(t)) }
        #expect(panel.focus == 33)
        #expect(panel.layout.page == 4)
        screen = PanelRenderer.render(panel, at: late).screen
        #expect(screen.contains("[ page 5/5 ]"))
        // Page keys are not PgUp/PgDn: those still turn the focused knob ten steps.
        panel.press(.pageUp, at: 20)
        #expect(panel.focus == 33)
        #expect(panel.knob(ParameterIndex(33)).valueText() == "Notch")  // ten labels on stops at the last
    }

    @Test("moving the focus with Tab and arrows brings its page into view; 1…9 count on the page")
    func focusPagesIntoView() {
        let (panel, _) = ManyKnobs.panel()
        for _ in 0..<8 { panel.press(.tab, at: 0) }
        #expect(panel.focus == 8)
        #expect(panel.layout.shown == 8..<16)
        #expect(panel.layout.slot(of: 8) != nil)
        panel.press(.left, at: 0)
        #expect(panel.layout.shown == 0..<8)
        panel.press(.backTab, at: 0)
        panel.press(.backTab, at: 0)
        panel.press(.backTab, at: 0)
        panel.press(.backTab, at: 0)
        panel.press(.backTab, at: 0)
        panel.press(.backTab, at: 0)
        panel.press(.backTab, at: 0)
        panel.press(.backTab, at: 0)  // wraps around to the last knob
        #expect(panel.focus == 39)
        #expect(panel.layout.shown == 32..<40)
        panel.type("3", at: 1)
        #expect(panel.focus == 34)
        panel.type("9", at: 1)  // no ninth knob on this page
        #expect(panel.focus == 34)
        // Every focused knob is drawn focused, on whichever page it is.
        let screen = PanelRenderer.render(panel, at: late).screen
        #expect(screen.contains("[Voices 34]"))
    }

    @Test("the compact list scrolls: one line at a time as the focus passes its edge, a screen with ] and [")
    func compactScrolls() {
        let (panel, _) = ManyKnobs.panel(width: 40, height: 24)
        var layout = panel.layout
        #expect(layout.style == .compact)
        let lines = layout.perPage
        #expect(lines == 21)
        #expect(layout.shown == 0..<lines)
        for _ in 0..<lines { panel.press(.tab, at: 0) }
        layout = panel.layout
        #expect(panel.focus == lines)
        #expect(layout.shown == 1..<lines + 1)  // scrolled by one line, not a page
        var screen = PanelRenderer.render(panel, at: late).screen
        #expect(screen.text(row: layout.slot(of: lines)!.nameRow).hasPrefix("▸ Mode 21"))
        #expect(screen.text(row: 1).contains("[ 2–22 of 40 ]"))
        // Back up one: the list stays where it is while the focus is on it.
        panel.press(.backTab, at: 0)
        #expect(panel.layout.shown == 1..<lines + 1)
        panel.type("]", at: 1)
        #expect(panel.focus == 39)  // a screen on, held at the last knob
        #expect(panel.layout.shown == 19..<40)
        screen = PanelRenderer.render(panel, at: late).screen
        #expect(screen.text(row: 1).contains("[ 20–40 of 40 ]"))
        panel.type("[", at: 2)
        #expect(panel.layout.shown.contains(panel.focus))
        #expect(panel.layout.first == 0)
    }

    @Test("a switch: drawn as a switch, flipped by Enter, space and a click, never dragged")
    func switches() throws {
        let (panel, host) = ManyKnobs.panel()
        let switch0 = ParameterIndex(0)
        var screen = PanelRenderer.render(panel, at: late).screen
        let slot = try #require(panel.layout.slot(of: 0))
        #expect(screen.text(row: slot.art.y + 1).contains("╭────────╮"))
        #expect(screen.text(row: slot.art.y + 2).contains("│██      │"))
        #expect(screen.text(row: slot.valueRow).contains("off"))
        panel.press(.enter, at: 1)
        #expect(panel.values[switch0] == 1)
        #expect(panel.mode == .normal)  // no value prompt for a switch
        screen = PanelRenderer.render(panel, at: 1).screen
        #expect(screen.text(row: slot.art.y + 2).contains("│━━━━━━██│"))
        #expect(screen.text(row: slot.valueRow).contains("on"))
        panel.type(" ", at: 2)
        #expect(panel.values[switch0] == 0)
        // A click flips it; a drag after the press turns nothing.
        let x = Int(slot.center.x), y = Int(slot.center.y)
        panel.mouse(.press(.left), x: x, y: y, at: 3)
        panel.mouse(.drag(.left), x: x, y: y - 4, at: 3.1)
        panel.mouse(.release(.left), x: x, y: y - 4, at: 3.2)
        #expect(panel.values[switch0] == 1)
        // A second click, however quick, flips it back (no double-click reset).
        panel.mouse(.press(.left), x: x, y: y, at: 3.3)
        panel.mouse(.release(.left), x: x, y: y, at: 3.35)
        #expect(panel.values[switch0] == 0)
        #expect(host.sent.map(\.1) == [1, 0, 1, 0])
        // Undo gives each flip back.
        panel.type("u", at: 4)
        #expect(panel.values[switch0] == 1)
        // On a continuous knob Enter still opens the value prompt.
        panel.press(.tab, at: 5)
        panel.press(.tab, at: 5)
        panel.press(.tab, at: 5)
        panel.press(.enter, at: 5)
        guard case .valueEntry = panel.mode else {
            Issue.record("Enter on a level did not open the value prompt")
            return
        }
    }

    @Test("an enumeration: its label between ‹ ›, one label per key, per wheel notch, per click on a side")
    func enumerations() throws {
        let (panel, host) = ManyKnobs.panel()
        let mode = ParameterIndex(1)
        panel.press(.tab, at: 0)
        let slot = try #require(panel.layout.slot(of: 1))
        var screen = PanelRenderer.render(panel, at: late).screen
        #expect(screen.text(row: slot.valueRow).contains("‹ Lowpass ›"))
        panel.press(.up, at: 1)
        #expect(panel.knob(mode).valueText() == "Bandpass")
        panel.press(.up, at: 2)
        #expect(panel.knob(mode).valueText() == "Highpass")
        panel.press(.down, at: 3)
        #expect(panel.knob(mode).valueText() == "Bandpass")
        let x = Int(slot.center.x), y = Int(slot.center.y)
        panel.mouse(.wheel(.up), x: x, y: y, at: 4)
        #expect(panel.knob(mode).valueText() == "Highpass")
        panel.mouse(.wheel(.down), x: x, y: y, at: 5)
        #expect(panel.knob(mode).valueText() == "Bandpass")
        // A click right of the label's middle steps on, left of it steps back.
        panel.mouse(.press(.left), x: slot.valueColumn + 4, y: slot.valueRow, at: 6)
        panel.mouse(.release(.left), x: slot.valueColumn + 4, y: slot.valueRow, at: 6.05)
        #expect(panel.knob(mode).valueText() == "Highpass")
        panel.mouse(.press(.left), x: slot.valueColumn - 4, y: slot.valueRow, at: 7)
        panel.mouse(.release(.left), x: slot.valueColumn - 4, y: slot.valueRow, at: 7.05)
        #expect(panel.knob(mode).valueText() == "Bandpass")
        #expect(host.sent.map(\.1) == [1, 2, 1, 2, 1, 2, 1])
        screen = PanelRenderer.render(panel, at: 7.1).screen
        #expect(screen.text(row: slot.valueRow).contains("‹ Bandpass ›"))
        // In ASCII the marks are < >.
        let (ascii, _) = ManyKnobs.panel(ascii: true)
        #expect(PanelRenderer.render(ascii, at: late).screen.contains("< Lowpass >"))
    }

    @Test("an integer steps by one per key and notch, ten per page key")
    func integers() throws {
        let (panel, _) = ManyKnobs.panel()
        let voices = ParameterIndex(2)
        panel.type("3", at: 0)
        #expect(panel.focus == 2)
        panel.press(.up, at: 1)
        #expect(panel.values[voices] == 5)
        panel.press(.up, .ctrl, at: 2)  // a fine step of an integer is still one
        #expect(panel.values[voices] == 6)
        panel.press(.pageUp, at: 3)
        #expect(panel.values[voices] == 16)
        let slot = try #require(panel.layout.slot(of: 2))
        panel.mouse(.wheel(.down), x: Int(slot.center.x), y: Int(slot.center.y), at: 4)
        #expect(panel.values[voices] == 15)
        #expect(PanelRenderer.render(panel, at: 4).screen.text(row: slot.valueRow).contains("15"))
    }

    @Test("a click on page 2 reaches the knob drawn there; a drag turns it, not page 1's")
    func mouseOnPage2() throws {
        let (panel, host) = ManyKnobs.panel()
        panel.type("]", at: 0)
        let layout = panel.layout
        #expect(layout.shown == 8..<16)
        // Knob 11 (Level 11) sits in the fourth place of page 2 — where knob 3 is on page 1.
        let slot = try #require(layout.slot(of: 11))
        #expect(slot == PanelLayout(width: 80, height: 24, knobCount: 40, nameWidth: 9, meterCount: 0, plot: false).slots[3])
        let x = Int(slot.center.x), y = Int(slot.center.y)
        #expect(layout.knob(atX: x, y: y) == 11)
        panel.mouse(.press(.left), x: x, y: y, at: 1)
        panel.mouse(.drag(.left), x: x, y: y - 2, at: 1.1)
        panel.mouse(.release(.left), x: x, y: y - 2, at: 1.2)
        #expect(panel.focus == 11)
        #expect(panel.values[ParameterIndex(11)] > 0)
        #expect(panel.values[ParameterIndex(3)] == 0)
        #expect(Set(host.sent.map(\.0)) == [ParameterIndex(11)])
        // The pager's ] is a place to click too.
        let pager = try #require(layout.pager)
        let text = PanelRenderer.pagerText(layout, ascii: false)
        panel.mouse(.press(.left), x: pager.width - 2, y: pager.y, at: 2)
        #expect(panel.layout.shown == 16..<24)
        panel.mouse(.press(.left), x: pager.width - 1 - text.count, y: pager.y, at: 3)
        #expect(panel.layout.shown == 8..<16)
    }

    @Test("outputs: a section of their own, a meter when the range is known, the value always")
    func outputs() throws {
        let host = OutputsHost(outputs: [
            PanelOutput(id: "grlm", label: "Gain reduction", unit: "dB", range: -24...0, value: -12),
            PanelOutput(id: "olm", label: "Output level", unit: "dB", range: -60...0, value: 0),
            PanelOutput(id: "lat", label: "Latency", unit: "ms", value: 1.5),
        ])
        let (panel, _) = ManyKnobs.panel(width: 80, height: 30, host: host)
        panel.advance(to: 0)
        #expect(panel.outputs.count == 3)
        let layout = panel.layout
        let frame = try #require(layout.outputs)
        #expect(layout.outputColumns == 2)
        #expect(frame.height == 2)
        #expect(frame.y > layout.slots.map { $0.valueRow }.max()!)
        let screen = PanelRenderer.render(panel, at: 0).screen
        let first = screen.text(row: frame.y), second = screen.text(row: frame.y + 1)
        #expect(first.contains("Gain reduction ⣿⣿⣿⣿⣿⣀⣀⣀⣀⣀ −12.0 dB"))
        #expect(first.contains("Output level   ⣿⣿⣿⣿⣿⣿⣿⣿⣿⣿ 0.00 dB"))
        #expect(second.contains("Latency"))
        #expect(second.contains("1.50 ms"))
        #expect(!second.contains("⣀"))  // no range: no meter
        // A new reading is drawn at the next poll.
        host.shown[0].value = -3
        panel.didDraw(at: 0)
        panel.advance(to: 1)
        #expect(panel.needsDraw)
        #expect(PanelRenderer.render(panel, at: 1).screen.text(row: frame.y).contains("−3.00 dB"))
        // Without audio there are none, and no section.
        #expect(NoAudioHost().outputs().isEmpty)
        #expect(ManyKnobs.panel(width: 80, height: 30).0.layout.outputs == nil)
    }

    @Test("the preset browser lists the processor's own factory presets and the user's presets for it, no others")
    func browserScoped() throws {
        let folder = TemporaryFolder()
        let factory = FactoryPreset(fileName: "Bright.json", jsonText: """
            {"formatVersion": 1, "name": "Bright", "processor": "\(ManyKnobs.identifier)", "values": {"sw0": 1}}
            """, source: "the plug-in's preset Bright")
        let store = PresetStore(userDirectory: folder.path + "/presets", factoryPresets: [factory], scope: ManyKnobs.scope)
        let builtIn = PresetStore(userDirectory: folder.path + "/presets")
        _ = try builtIn.save(Preset(name: "Lowpass only"), replacing: false)
        let (panel, _) = ManyKnobs.panel(store: store)
        panel.type("]", at: 0)
        panel.press(.up, at: 1)  // Switch 8 on
        panel.type("s", at: 2)
        panel.type("Mine", at: 2)
        panel.press(.enter, at: 2)
        #expect(panel.shownMessage(at: 2)?.text.hasPrefix("saved 'Mine'") == true)
        panel.type("p", at: 3)
        guard case .browser(let browser) = panel.mode else {
            Issue.record("p did not open the browser")
            return
        }
        #expect(browser.rows.map(\.name).sorted() == ["Bright", "Mine"])
        let screen = PanelRenderer.render(panel, at: 3).screen
        #expect(screen.contains("Bright") && screen.contains("factory"))
        #expect(screen.contains("Mine") && screen.contains("user"))
        #expect(!screen.contains("Lowpass only"))
        // Loading the factory preset moves the plug-in's knobs.
        panel.press(.home, at: 4)
        panel.press(.enter, at: 4)
        #expect(panel.values[ParameterIndex(0)] == 1)
        #expect(panel.presetName == "Bright")
        let saved = try String(contentsOfFile: folder.path + "/presets/Mine.json", encoding: .utf8)
        #expect(saved.contains(ManyKnobs.identifier))
        #expect(saved.contains("\"sw8\": 1"))
    }
}

extension PanelPagesTests {
    @Test("a name too long for its slot is cut with an ellipsis, and shown whole under the header while focused")
    func longNames() throws {
        let long = try ParameterTable([
            ParameterSpec(id: "shpf", name: "High-pass filter frequency", unit: .hertz, range: 10...20_000, taper: .logarithmic,
                          defaultValue: 10, smoothing: .multiplicative),
            ParameterSpec(id: "shpm", name: "High-pass filter mode", unit: .none, range: 0...1, taper: .linear,
                          defaultValue: 0, smoothing: .none, kind: .enumeration([ScalePoint(0, "off"), ScalePoint(1, "12 dB/oct")])),
        ])
        let store = PresetStore(userDirectory: "/nonexistent/detent-panel-tests", scope: PresetScope(processor: "urn:long", table: long))
        for (width, height) in [(80, 24), (44, 16)] {
            let panel = Panel(values: ParameterValues(table: long), host: NoAudioHost(), store: store, title: "Long", width: width, height: height)
            var screen = PanelRenderer.render(panel, at: late).screen
            #expect(screen.text(row: 1).hasPrefix(" High-pass filter frequency"), "\(width)×\(height)")
            #expect(screen.contains("High-pass filt…"))
            panel.press(.tab, at: 0)
            screen = PanelRenderer.render(panel, at: late).screen
            #expect(screen.text(row: 1).hasPrefix(" High-pass filter mode"))
        }
    }
}
