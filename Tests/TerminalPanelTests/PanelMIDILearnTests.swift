import Control
import AudioEngine
import Testing
import Parameters
@testable import TerminalPanel

/// A live host with a MIDI input: a mapping, and a counter of control changes heard that the
/// test moves by hand (as the audio thread would).
final class FakeMIDIHost: PanelHost {
    var controllers: [ParameterIndex: Int] = [.cutoff: 74, .resonance: 71, .gain: 7]
    var heard: (count: UInt64, controller: Int) = (12, 74)
    var assigned: [(Int, ParameterIndex)] = []

    func set(_ values: [ParameterIndex: Double]) {}
    func targets() -> [ParameterIndex: Double] { [:] }
    var refreshInterval: Double? { 1.0 / 30 }
    func midiControllers() -> [ParameterIndex: Int]? { controllers }
    func assignMIDIController(_ number: Int, to id: ParameterIndex) {
        assigned.append((number, id))
        for (other, n) in controllers where n == number { controllers[other] = nil }
        controllers[id] = number
    }
    func lastMIDIControl() -> (count: UInt64, controller: Int)? { heard }
    var pickups: [ParameterIndex: Double] = [:]
    func midiPickups() -> [ParameterIndex: Double] { pickups }

    /// A control change arrives.
    func turn(_ controller: Int) { heard = (heard.count + 1, controller) }
}

@Suite("Panel MIDI learn")
struct PanelMIDILearnTests {
    /// The status line (the last row).
    static func statusLine(_ panel: Panel, at time: Double) -> String {
        PanelRenderer.render(panel, at: time).screen.text(row: panel.height - 1)
    }

    @Test("m waits for a controller and maps the first one turned to the focused knob")
    func learns() {
        let host = FakeMIDIHost()
        let (panel, _) = makePanel(host: host)
        panel.press(.tab, at: 0)  // Resonance
        panel.press(.character("m"), at: 0.1)
        #expect(panel.mode == .midiLearn(try! MIDILearn(.resonance, heard: (12, 0), generation: 0, current: 0)))
        #expect(Self.statusLine(panel, at: 0.1).hasPrefix("MIDI learn: turn a controller for Resonance (now CC 71; Esc cancels)"))
        // Nothing heard yet: still waiting, whatever the keys say.
        panel.advance(to: 0.2)
        panel.press(.up, at: 0.25)
        #expect(panel.mode == .midiLearn(try! MIDILearn(.resonance, heard: (12, 0), generation: 0, current: 0)))
        #expect(panel.value(.resonance) == LowpassGain.table[.resonance].defaultValue)
        host.turn(21)
        panel.advance(to: 0.3)
        #expect(host.assigned.map(\.0) == [21] && host.assigned.map(\.1) == [.resonance])
        #expect(panel.mode == .normal)
        #expect(panel.message?.text == "Resonance answers to CC 21")
        #expect(Self.statusLine(panel, at: 0.3).hasPrefix("Resonance answers to CC 21"))
    }

    @Test("learning a controller another knob had says so")
    func takesFromAnother() {
        let host = FakeMIDIHost()
        let (panel, _) = makePanel(host: host)
        panel.press(.character("m"), at: 0)  // Cutoff
        host.turn(7)
        panel.advance(to: 0.1)
        #expect(host.controllers == [.cutoff: 7, .resonance: 71])
        #expect(panel.message?.text == "Cutoff answers to CC 7; Gain no longer does")
    }

    @Test("Esc or m again cancels and maps nothing")
    func cancels() {
        for key in [Key.escape, .character("m")] {
            let host = FakeMIDIHost()
            let (panel, _) = makePanel(host: host)
            panel.press(.character("m"), at: 0)
            panel.press(key, at: 0.1)
            host.turn(21)
            panel.advance(to: 0.2)
            #expect(panel.mode == .normal)
            #expect(host.assigned.isEmpty)
            #expect(panel.message?.text == "MIDI learn cancelled")
        }
    }

    @Test("without a MIDI input, m says so and nothing changes")
    func noMIDI() {
        let (panel, _) = makePanel()
        panel.press(.character("m"), at: 0)
        #expect(panel.mode == .normal)
        #expect(panel.message == Panel.Message(text: "no MIDI input to learn from (detent live has one, unless --no-midi)",
                                               isError: true))
    }

    @Test("the help lists m")
    func help() {
        #expect(HelpOverlay.lines(ascii: true).contains { $0.0 == "m" && $0.1.hasPrefix("MIDI learn") })
    }

    /// A pickup controller far from its knob moves nothing: the status line says where it is
    /// and which way to turn it, and then that it has caught the knob.
    @Test("a waiting pickup controller is shown with the way to turn it, then picked up")
    func pickup() {
        let host = FakeMIDIHost()
        let (panel, _) = makePanel(host: host)
        let knob = LowpassGain.table[.cutoff].normalized(panel.value(.cutoff))
        host.pickups = [.cutoff: 0.2]
        panel.advance(to: 0.1)
        let percent = Int((knob * 100).rounded())
        #expect(panel.message?.text == "Cutoff: controller at 20 %, knob at \(percent) % — turn it up to pick up")
        #expect(Self.statusLine(panel, at: 0.1).hasPrefix("Cutoff: controller at 20 %"))
        host.pickups = [.cutoff: 0.95]
        panel.advance(to: 0.2)
        #expect(panel.message?.text.hasSuffix("turn it down to pick up") == true)
        host.pickups = [:]
        panel.advance(to: 0.3)
        #expect(panel.message?.text == "Cutoff: picked up")
    }
}
