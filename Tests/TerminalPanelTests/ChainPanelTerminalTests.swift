import Foundation
import Testing
import TestSupport
@testable import TerminalPanel

/// `detent panel` with a chain of three slots (the built-in, mda's Overdrive and x42's EQ, 42
/// knobs) on a pseudo-terminal: the slots as tabs under the header, `}` moving the focus to the
/// next slot, `/` finding a knob in another slot, `b` bypassing a slot, and a saved preset that
/// holds every slot's values under their `SLOT.ID`s.
extension PanelTerminalTests {
    static let chainPlugins = ["--plugin", "builtin", "--plugin", "drive=http://drobilla.net/plugins/mda/Overdrive",
                               "--plugin", "eq=http://gareus.org/oss/lv2/fil4#mono"]

    @Test("detent panel with a 3-slot chain: slots as tabs, focus across slots, search, bypass, a chain preset saved")
    func chainPanel() throws {
        let config = TemporaryFolder()
        let pty = try start(["panel"] + Self.chainPlugins, config: config)
        let before = pty.initialSettings
        // The tabs: the focused knob's slot marked, then the focused knob's name.
        #expect(pty.wait { screen in
            screen.line(0).hasPrefix(" Lowpass + gain → MDA Overdrive → x42-eq") && screen.line(1).hasPrefix(" [builtin]  drive   eq")
                && screen.line(1).contains("Bypass")
        })
        // } moves to the next slot's first knob: its bypass.
        pty.send("}")
        #expect(pty.wait { $0.line(1).hasPrefix("  builtin  [drive]  eq") && $0.contains("slot drive") })
        // / finds a knob by id or name in any slot: the EQ's first band frequency.
        pty.send("/")
        #expect(pty.wait { $0.contains("Find knob: ") })
        pty.send("eq.freq1")
        #expect(pty.wait { $0.line(1).hasPrefix("  builtin   drive  [eq]") && $0.contains("Find knob: eq.freq1") })
        pty.send("\r")
        pty.send("=")
        #expect(pty.wait { $0.contains("Frequency 1 = ") })
        pty.send("\u{7F}" + "440\r")
        // b bypasses the focused knob's slot; the tab says so.
        pty.send("b")
        #expect(pty.wait { $0.contains("eq bypassed") && $0.line(1).contains("eq ⏻") })
        pty.send("s")
        #expect(pty.wait { $0.contains("Save preset as: Default") })
        pty.send(String(repeating: "\u{7F}", count: 7) + "Rig\r")
        #expect(pty.wait { $0.contains("saved 'Rig'") })
        pty.send("q")
        #expect(pty.waitForExit()?.exited == 0)
        expectRestored(pty, settings: before)

        let saved = try Data(contentsOf: URL(fileURLWithPath: config.file("detent/presets/Rig.json")))
        let preset = try #require(try JSONSerialization.jsonObject(with: saved) as? [String: Any])
        #expect((preset["processor"] as? String)?.hasPrefix("chain:builtin=detent:lowpass-gain drive=") == true)
        let values = try #require(preset["values"] as? [String: Double])
        #expect(values["eq.bypass"] == 1 && values["drive.bypass"] == 0)
        #expect(values["eq.freq1"].map { abs($0 - 440) < 0.01 } == true)
        #expect(values["builtin.cutoff"] == 1_000)
    }
}
