import AudioEngine
import Foundation
import KnobKit
import Presets
import Testing
import Parameters
import TestSupport
@testable import TerminalPanel

/// Whole screens compared with files in `Golden/`: the characters, then one role letter per
/// cell (``CellRole/letter``), so colour-less differences (focus, turning) are caught too.
///
/// Every golden was checked by eye when written; each test also makes targeted assertions that
/// do not depend on the file, so a regenerated golden cannot silently bless a wrong screen.
/// To regenerate after an intended change: `DETENT_UPDATE_GOLDENS=1 swift test --filter
/// GoldenScreenTests`, then read the diff of `Golden/` before committing it.
@Suite("Golden screens")
struct GoldenScreenTests {
    static let folder = packageRoot + "/Tests/TerminalPanelTests/Golden"

    /// The golden file's text for `screen`.
    static func golden(_ screen: ScreenBuffer) -> String {
        screen.text + "\n--- roles ---\n" + screen.roleMap + "\n"
    }

    func check(_ name: String, _ screen: ScreenBuffer) throws {
        let path = Self.folder + "/" + name + ".txt"
        let actual = Self.golden(screen)
        if ProcessInfo.processInfo.environment["DETENT_UPDATE_GOLDENS"] == "1" {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        #expect(actual == expected, "screen \(name) differs from Golden/\(name).txt:\n\(actual)")
    }

    /// The cells of `role` in `screen`, as (x, y).
    func cells(_ role: CellRole, in screen: ScreenBuffer) -> [(Int, Int)] {
        (0..<screen.height).flatMap { y in (0..<screen.width).filter { screen[$0, y].role == role }.map { ($0, y) } }
    }

    /// Long after any change: every label shows its name again.
    let late = 100.0

    @Test("idle: defaults, focus on Cutoff, names and values from the table")
    func idle() throws {
        let (panel, _) = makePanel()
        let screen = PanelRenderer.render(panel, at: late).screen
        #expect(screen.text(row: 0).hasPrefix(" Detent  Preset: (untitled) "))
        #expect(!screen.text(row: 0).contains("modified"))
        #expect(screen.text(row: 0).hasSuffix(" no audio "))
        let slots = panel.layout.slots
        let names = screen.text(row: slots[0].nameRow)
        #expect(names.contains("[Cutoff]"))
        for id in LowpassGain.table.ids.dropFirst() { #expect(names.contains(" \(LowpassGain.table[id].name) ")) }
        let values = screen.text(row: slots[0].valueRow)
        for id in LowpassGain.table.ids { #expect(values.contains(LowpassGain.table[id].format(LowpassGain.table[id].defaultValue))) }
        // Only the focused knob's progress is drawn focused; nothing is turning or active.
        #expect(cells(.progressFocused, in: screen).allSatisfy { slots[0].art.contains(x: $0.0, y: $0.1) })
        #expect(cells(.progressTurning, in: screen).isEmpty)
        #expect(cells(.valueActive, in: screen).isEmpty)
        // Gain sits at its default: its bipolar progress is empty.
        #expect(cells(.progress, in: screen).allSatisfy { !slots[2].art.contains(x: $0.0, y: $0.1) })
        #expect(screen.contains("Filter response (dB) at 48 kHz"))
        try check("idle", screen)
    }

    @Test("focused: Tab moves the brackets and the focused progress to Resonance")
    func focused() throws {
        let (panel, _) = makePanel()
        panel.press(.tab, at: 0)
        panel.press(.up, at: 0)
        let screen = PanelRenderer.render(panel, at: late).screen
        let slots = panel.layout.slots
        let names = screen.text(row: slots[1].nameRow)
        #expect(names.contains("[Resonance]"))
        #expect(!names.contains("[Cutoff]"))
        #expect(!cells(.progressFocused, in: screen).isEmpty)
        #expect(cells(.progressFocused, in: screen).allSatisfy { slots[1].art.contains(x: $0.0, y: $0.1) })
        #expect(cells(.nameFocused, in: screen).allSatisfy { slots[1].frame.contains(x: $0.0, y: $0.1) })
        #expect(screen.text(row: 0).contains("(modified)"))
        #expect(screen.text(row: slots[1].valueRow).contains(panel.knob(.resonance).valueText()))
        try check("focused", screen)
    }

    @Test("turning: a drag on Gain in progress; its progress and value stand out")
    func turning() throws {
        let (panel, _) = makePanel()
        let slot = panel.layout.slots[2]
        let x = Int(slot.center.x), y = Int(slot.center.y)
        panel.mouse(.press(.left), x: x, y: y, at: 1)
        panel.mouse(.drag(.left), x: x, y: y + 3, at: 1.1)
        let screen = PanelRenderer.render(panel, at: 1.1).screen
        #expect(panel.knob(.gain).state == .turning)
        #expect(!cells(.progressTurning, in: screen).isEmpty)
        #expect(cells(.progressTurning, in: screen).allSatisfy { slot.art.contains(x: $0.0, y: $0.1) })
        let active = cells(.valueActive, in: screen)
        #expect(active.count == panel.knob(.gain).valueText().count)
        #expect(active.allSatisfy { $0.1 == slot.valueRow })
        // Three rows down of an 8-row travel: 3/8 of the range below 0 dB.
        let spec = LowpassGain.table[.gain]
        #expect(abs(spec.normalized(panel.value(.gain)) - (spec.normalized(0) - 3.0 / 8)) < 1e-12)
        #expect(screen.text(row: slot.valueRow).contains(spec.format(panel.value(.gain))))
        try check("turning", screen)
    }

    @Test("ASCII: the same panel in ASCII only")
    func ascii() throws {
        let (panel, _) = makePanel(ascii: true, values: ParameterValues(table: LowpassGain.table, [.cutoff: 2_500, .resonance: 4, .gain: -12]))
        let screen = PanelRenderer.render(panel, at: late).screen
        #expect(screen.cells.allSatisfy { $0.character.isASCII })
        #expect(screen.contains("[Cutoff]"))
        #expect(screen.contains("2.50 kHz"))
        #expect(screen.contains("-12.0 dB"))
        #expect(screen.contains("Up/Dn turn"))
        #expect(screen.contains("-48 "))
        try check("ascii", screen)
    }

    @Test("small: the compact layout, one line per knob, KnobKit's label rule on the value")
    func small() throws {
        let (panel, _) = makePanel(width: 44, height: 8)
        panel.press(.backTab, at: 0)
        panel.press(.down, at: 0)
        let screen = PanelRenderer.render(panel, at: 0.5).screen
        #expect(panel.layout.style == .compact)
        let slots = panel.layout.slots
        for (i, id) in LowpassGain.table.ids.enumerated() {
            let line = screen.text(row: slots[i].nameRow)
            #expect(line.contains(LowpassGain.table[id].name))
            #expect(line.contains(panel.knob(id).valueText()))
        }
        #expect(screen.text(row: slots[2].nameRow).hasPrefix("▸ Gain"))
        // Within the persistence time the turned value stands out; after it, it does not.
        #expect(cells(.valueActive, in: screen).allSatisfy { $0.1 == slots[2].valueRow })
        #expect(!cells(.valueActive, in: screen).isEmpty)
        let later = PanelRenderer.render(panel, at: late).screen
        #expect(cells(.valueActive, in: later).isEmpty)
        try check("small", screen)
    }

    @Test("too small: says so, with the size needed and the size there is")
    func tooSmall() throws {
        let (panel, _) = makePanel(width: 20, height: 4)
        let screen = PanelRenderer.render(panel, at: 0).screen
        let minimum = PanelLayout.minimumSize(knobCount: 3, nameWidth: "Resonance".count)
        #expect(screen.text(row: 0) == "Window too small    ")
        #expect(screen.text(row: 1).hasPrefix("need \(minimum.width)×\(minimum.height)"))
        #expect(screen.text(row: 2).hasPrefix("have 20×4"))
        try check("too-small", screen)
    }

    @Test("help: the overlay over the panel lists every binding")
    func help() throws {
        let (panel, _) = makePanel()
        panel.type("?", at: 0)
        let screen = PanelRenderer.render(panel, at: late).screen
        for (key, text) in HelpOverlay.lines(ascii: false) {
            #expect(screen.contains(key))
            #expect(screen.contains(text))
        }
        try check("help", screen)
    }
}
