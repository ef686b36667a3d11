import AudioEngine
import KnobKit
import Parameters
import Presets
import Testing
@testable import TerminalPanel

/// Habits people bring from mixers and synths: number keys, a mute key, the server in the
/// header, meters that read apart from their labels, a theme for light backgrounds, ASCII
/// in a locale without UTF-8.
@Suite("Panel habits")
struct PanelHabitTests {
    @Test("1…9 focus the knob of that number; numbers past the last knob do nothing")
    func numberKeys() {
        let (panel, host) = makePanel()
        panel.type("3", at: 0)
        #expect(panel.focus == 2)
        panel.type("1", at: 0)
        #expect(panel.focus == 0)
        panel.type("2", at: 0)
        #expect(panel.focus == 1)
        panel.type("4", at: 0)
        panel.type("9", at: 0)
        #expect(panel.focus == 1)
        #expect(host.sent.isEmpty)
    }

    @Test("M silences the level and, pressed again, gives back the level it had")
    func mute() {
        let (panel, host) = makePanel()
        panel.type("3=-6", at: 0)
        panel.press(.enter, at: 0)
        panel.type("2", at: 0)  // Resonance: M still mutes the level
        panel.type("M", at: 1)
        #expect(panel.value(.gain) == LowpassGain.table[.gain].range.lowerBound)
        #expect(host.values[.gain] == LowpassGain.table[.gain].range.lowerBound)
        #expect(panel.isMuted(2))
        #expect(panel.message?.text.contains("muted") == true)
        panel.type("M", at: 2)
        #expect(panel.value(.gain) == -6)
        #expect(host.values[.gain] == -6)
        #expect(!panel.isMuted(2))
        // Undo takes the unmute back, then the mute.
        panel.type("u", at: 3)
        #expect(panel.value(.gain) == LowpassGain.table[.gain].range.lowerBound)
        panel.type("u", at: 4)
        #expect(panel.value(.gain) == -6)
    }

    @Test("a level turned up while muted is not taken back by M: it mutes again")
    func muteAfterTurning() {
        let (panel, _) = makePanel()
        panel.type("3", at: 0)
        panel.type("=-6", at: 0)
        panel.press(.enter, at: 0)
        panel.type("M", at: 1)
        panel.press(.up, at: 2)
        #expect(panel.value(.gain) > -60)
        panel.type("M", at: 3)
        #expect(panel.value(.gain) == -60)
        panel.type("M", at: 4)
        #expect(panel.value(.gain) != -60)
    }

    @Test("a table without a silent level has nothing to mute, and says so")
    func nothingToMute() throws {
        let table = try ParameterTable([LowpassGain.table[.cutoff]])
        let (panel, host) = makePanel(values: ParameterValues(table: table))
        panel.type("M", at: 0)
        #expect(host.sent.isEmpty)
        #expect(panel.message == Panel.Message(text: "no level to mute", isError: true))
    }

    @Test("the live header names the server with the client")
    func serverInHeader() {
        let live = FakeLiveHost()
        live.currentStatus.serverName = "studio"
        let (panel, _) = makePanel(width: 100, host: live)
        panel.advance(to: 0)
        let header = PanelRenderer.render(panel, at: 0).screen.text(row: 0)
        #expect(header.hasSuffix(" detent on studio · 256 frames · 44.1 kHz · DSP 3.3% · 2 xruns "))
        #expect(PanelRenderer.statusFields(PanelStatus(serverName: "default")) == ["server default"])
    }

    @Test("a slot that is down is the last field the header gives up: it shows at 80 columns")
    func faultAtEightyColumns() {
        let live = FakeLiveHost()
        live.currentStatus.serverName = "studio"
        live.currentStatus.faultedSlots = ["trap"]
        let (panel, _) = makePanel(width: 80, host: live)
        panel.advance(to: 0)
        let header = PanelRenderer.render(panel, at: 0).screen.text(row: 0)
        #expect(header.hasSuffix(" trap down (R restarts) "), "\(header)")
    }

    @Test("a chain's slot that is down says so on its tab")
    func downSlotTab() throws {
        let chain = try Processor.chain([("a", .lowpassGain), ("b", .lowpassGain)])
        let live = FakeLiveHost()
        live.currentStatus.faultedSlots = ["b"]
        let (panel, _) = makePanel(width: 80, values: ParameterValues(table: chain.table), host: live)
        panel.advance(to: 0)
        let tabs = PanelRenderer.render(panel, at: 0).screen.text(row: 1)
        #expect(tabs.contains(" b down "), "\(tabs)")
    }

    @Test("a host's line (a slot gone down) shows in the message line at once, not when the panel closes")
    func noticeShowsAtOnce() {
        let live = FakeLiveHost()
        let (panel, _) = makePanel(width: 80, host: live)
        panel.advance(to: 0)
        live.notices = ["detent: f1: Detent Faults crashed (Segmentation fault); it passes its input through until restarted"]
        panel.advance(to: 0.5)
        let screen = PanelRenderer.render(panel, at: 0.5).screen
        let shown = (0..<screen.height).map { screen.text(row: $0) }.contains { $0.contains("f1: Detent Faults crashed (Segmentation fault)") }
        #expect(shown, "\((0..<screen.height).map { screen.text(row: $0) })")
        #expect(panel.message?.isError == true)
    }

    @Test("a meter's bar starts one blank column after its label")
    func meterGap() {
        let live = FakeLiveHost()
        let (panel, _) = makePanel(host: live)
        panel.advance(to: 0)
        let screen = PanelRenderer.render(panel, at: 0).screen
        let row = (0..<screen.height).first { screen.text(row: $0).contains("Out L") }!
        let text = screen.text(row: row)
        let label = text.range(of: "Out L")!
        #expect(text[label.upperBound...].first == " ")
        #expect(text[label.upperBound...].dropFirst().first != " ")
    }

    @Test("themes: light has no bright white or yellow; plain has no colour; the choice order")
    func themes() throws {
        let light = Theme(.light)
        for role in CellRole.allCases {
            let codes = light.sgr(role).dropFirst(2).dropLast().split(separator: ";").compactMap { Int($0) }
            #expect(!codes.contains(97) && !codes.contains(93) && !codes.contains(33), "\(role)")
            let plain = Theme(.plain).sgr(role).dropFirst(2).dropLast().split(separator: ";").compactMap { Int($0) }
            #expect(plain.allSatisfy { $0 < 30 }, "\(role)")
        }
        #expect(try Theme.forEnvironment([:]).style == .dark)
        #expect(try Theme.forEnvironment(["DETENT_THEME": "Light"]).style == .light)
        #expect(try Theme.forEnvironment(["DETENT_THEME": "light"], chosen: .plain).style == .plain)
        #expect(try Theme.forEnvironment(["NO_COLOR": "1"], chosen: .light).style == .plain)
        #expect(throws: TerminalError.unknownTheme("sepia")) { try Theme.forEnvironment(["DETENT_THEME": "sepia"]) }
        #expect(TerminalError.unknownTheme("sepia").description == "DETENT_THEME 'sepia' is not a theme (choose one of dark, light, plain)")
    }

    @Test("the locale decides Unicode: LC_ALL, then LC_CTYPE, then LANG; none set is the C locale")
    func locale() {
        #expect(!TerminalLocale.isUTF8([:]))
        #expect(!TerminalLocale.isUTF8(["LANG": "C"]))
        #expect(!TerminalLocale.isUTF8(["LANG": "POSIX"]))
        #expect(TerminalLocale.isUTF8(["LANG": "C.UTF-8"]))
        #expect(TerminalLocale.isUTF8(["LANG": "de_DE.utf8"]))
        #expect(!TerminalLocale.isUTF8(["LANG": "en_US.UTF-8", "LC_ALL": "C"]))
        #expect(TerminalLocale.isUTF8(["LANG": "C", "LC_CTYPE": "en_US.UTF-8"]))
        #expect(TerminalLocale.isUTF8(["LC_ALL": "", "LANG": "en_US.UTF-8"]))
    }
}
