import Foundation
import Testing
import TestSupport
@testable import TerminalPanel

/// `detent panel --plugin` on a pseudo-terminal, with a real installed plug-in of 32 controls
/// (LSP's mono compressor: switches, enumerations, continuous knobs): its name in the header,
/// its knobs a page at a time, a switch and an enumeration turned by keys and a click, and a
/// saved preset that holds the values turned.
extension PanelTerminalTests {
    static let compressor = "http://lsp-plug.in/plugins/lv2/compressor_mono"

    /// One row of `detent params --json`.
    struct Row {
        let id: String, name: String, kind: String, defaultValue: Double
        /// An enumeration's (value, label) pairs in value order.
        let labels: [(Double, String)]
    }

    /// The plug-in's table, as `detent params --plugin` prints it.
    func table(_ plugin: String, in folder: TemporaryFolder) throws -> [Row] {
        let outcome = try ChildProcess.run(try BuiltProducts.detent, ["params", "--plugin", plugin, "--json"],
                                           environment: ["HOME": folder.path, "XDG_CONFIG_HOME": folder.path])
        try #require(outcome.status.exited == 0, "\(outcome.stderrText)")
        return try outcome.stdoutText.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let values = (object["values"] as? [[String: Any]] ?? []).compactMap { point -> (Double, String)? in
                guard let value = point["value"] as? Double, let label = point["label"] as? String else { return nil }
                return (value, label)
            }
            return Row(id: object["id"] as! String, name: object["name"] as! String, kind: object["kind"] as! String,
                       defaultValue: object["default"] as! Double, labels: values.sorted { $0.0 < $1.0 })
        }
    }

    /// The text of `frame`'s cells on row `y` of the emulated screen.
    func text(_ screen: ScreenEmulator, row y: Int, in frame: PanelLayout.Frame) -> String {
        screen.rows[y][frame.x..<min(frame.x + frame.width, screen.width)].compactMap { $0 }.joined()
    }

    @Test("detent panel --plugin: the plug-in's name and knobs, pages, a switch and an enumeration turned, a preset saved")
    func pluginPanel() throws {
        let config = TemporaryFolder()
        let rows = try table(Self.compressor, in: config)
        try #require(rows.count >= 20)
        let layout = PanelLayout(width: 80, height: 24, knobCount: rows.count, nameWidth: rows.map(\.name.count).max()!,
                                 meterCount: 0, plot: false)
        try #require(layout.style == .full && layout.perPage == 8)
        func index(_ id: String) throws -> Int { try #require(rows.firstIndex { $0.id == id }) }
        let enabled = try index("enabled"), mode = try index("scm"), listen = try index("scl"), highpass = try index("shpm")
        #expect(rows[enabled].kind == "toggle" && rows[listen].kind == "toggle")
        #expect(rows[mode].kind == "enumeration" && rows[highpass].kind == "enumeration")
        // The plan below needs the first two on page 1 and the others on page 2.
        try #require(enabled < 8 && mode < 8 && (8..<16).contains(listen) && (8..<16).contains(highpass))

        let pty = try start(["panel", "--plugin", Self.compressor], config: config)
        let before = pty.initialSettings
        let pages = "[ page 1/\(layout.pageCount) ]"
        // The whole first page, down to its last knob's value (a frame may arrive in pieces).
        let enabledSlot = layout.slots[enabled], lastSlot = layout.slots[7]
        let pageOne = rows[0..<8].map { String($0.name.prefix(12)) }
        #expect(pty.wait { screen in
            screen.line(0).hasPrefix(" LSP Compressor Mono  Preset: Default") && screen.contains(pages)
                && screen.contains("[Enabled]") && pageOne.allSatisfy(screen.contains)
                && text(screen, row: enabledSlot.valueRow, in: enabledSlot.frame).contains("on")
                && !text(screen, row: lastSlot.valueRow, in: lastSlot.frame).allSatisfy { $0 == " " }
        })
        #expect(!pty.screen.contains("Filter response"))

        // Space flips the switch under the focus: Enabled, on by default, goes off.
        pty.send(" ")
        #expect(pty.wait { text($0, row: enabledSlot.valueRow, in: enabledSlot.frame).contains("off") && $0.contains("(modified)") })

        // ↑ on the sidechain mode steps to the next label.
        let modeSlot = layout.slots[mode]
        let modeLabels = rows[mode].labels
        let modeStart = try #require(modeLabels.firstIndex { $0.0 == rows[mode].defaultValue })
        try #require(modeStart + 1 < modeLabels.count)
        let modeNext = modeLabels[modeStart + 1]
        pty.send(String(mode + 1))  // the knob's number on the page
        #expect(pty.wait { text($0, row: modeSlot.nameRow, in: modeSlot.frame).contains("[") })
        pty.send("\u{1B}[A")
        #expect(pty.wait { text($0, row: modeSlot.valueRow, in: modeSlot.frame).contains("‹ \(modeNext.1) ›") })

        // ] shows page 2; a click flips the switch drawn there, ↑ steps the high-pass mode.
        pty.send("]")
        let listenSlot = layout.slots[listen - 8]
        #expect(pty.wait { screen in
            screen.contains("[ page 2/\(layout.pageCount) ]") && !screen.contains("[Enabled]")
                && text(screen, row: listenSlot.nameRow, in: listenSlot.frame).contains(String(rows[listen].name.prefix(12)))
                && text(screen, row: listenSlot.valueRow, in: listenSlot.frame).contains("off")
        })
        let x = Int(listenSlot.center.x), y = Int(listenSlot.center.y)
        pty.send("\u{1B}[<0;\(x + 1);\(y + 1)M\u{1B}[<0;\(x + 1);\(y + 1)m")
        #expect(pty.wait { text($0, row: listenSlot.valueRow, in: listenSlot.frame).contains("on") })
        let highpassSlot = layout.slots[highpass - 8]
        pty.send(String(highpass - 8 + 1))
        #expect(pty.wait { $0.line(1).hasPrefix(" \(rows[highpass].name)") })  // cut in its slot, whole above
        pty.send("\u{1B}[A")
        let highpassNext = rows[highpass].labels[1]
        #expect(pty.wait { text($0, row: highpassSlot.valueRow, in: highpassSlot.frame).contains("‹ \(highpassNext.1) ›") })

        // s saves the knobs as a user preset of this plug-in.
        pty.send("s")
        #expect(pty.wait { $0.contains("Save preset as: Default") })
        pty.send(String(repeating: "\u{7F}", count: 7) + "Squash\r")
        #expect(pty.wait { $0.contains("Preset: Squash") && $0.contains("saved 'Squash'") })
        pty.send("q")
        #expect(pty.waitForExit()?.exited == 0)
        expectRestored(pty, settings: before)

        let saved = try Data(contentsOf: URL(fileURLWithPath: config.file("detent/presets/Squash.json")))
        let preset = try #require(try JSONSerialization.jsonObject(with: saved) as? [String: Any])
        #expect(preset["processor"] as? String == Self.compressor)
        let values = try #require(preset["values"] as? [String: Double])
        #expect(values["enabled"] == 0)
        #expect(values["scm"] == modeNext.0)
        #expect(values["scl"] == 1)
        #expect(values["shpm"] == highpassNext.0)
        #expect(values.count == rows.count)
    }

    @Test("detent panel --plugin with an unknown plug-in fails before the terminal is touched")
    func unknownPlugin() throws {
        let config = TemporaryFolder()
        let pty = try start(["panel", "--plugin", "http://example.org/not-installed"], config: config)
        #expect(pty.waitForExit()?.exited == 64)
        #expect(pty.wait { $0.contains("not-installed") })
        #expect(!String(decoding: pty.output, as: UTF8.self).contains("\u{1B}[?1049h"))
    }
}
