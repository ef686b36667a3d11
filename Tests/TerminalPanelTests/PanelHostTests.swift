import AudioEngine
import Testing
import Parameters
@testable import TerminalPanel

/// A live host as the `live` command will plug in: status, meters and values changed by others.
final class FakeLiveHost: PanelHost {
    var values: [ParameterIndex: Double] = [:]
    var sent: [(ParameterIndex, Double)] = []
    var currentStatus = PanelStatus(clientName: "detent", sampleRate: 44_100, bufferSize: 256, dspLoad: 3.25, xruns: 2)
    var currentMeters: [MeterReading]? = [MeterReading(label: "L", peak: 0.5, rms: 0.25), MeterReading(label: "R", peak: 1, rms: 0.9)]
    var polls = 0

    func set(_ new: [ParameterIndex: Double]) {
        for (id, value) in new {
            values[id] = value
            sent.append((id, value))
        }
    }
    func targets() -> [ParameterIndex: Double] {
        polls += 1
        return values
    }
    func status() -> PanelStatus { currentStatus }
    func meters() -> [MeterReading]? { currentMeters }
    var refreshInterval: Double? { 1.0 / 30 }
    var notices: [String] = []
    func takeNotices() -> [String] {
        defer { notices = [] }
        return notices
    }
}

@Suite("Panel host")
struct PanelHostTests {
    @Test("the no-audio host keeps the last value sent; status and meters are absent")
    func noAudio() {
        let (panel, host) = makePanel()
        panel.press(.up, at: 0)
        #expect(host.values[.cutoff] == panel.value(.cutoff))
        #expect(host.status().isEmpty)
        #expect(host.meters() == nil)
        #expect(host.refreshInterval == nil)
        // Nothing to poll: with no input, nothing will ever change by itself once labels settle.
        #expect(panel.nextChange(after: 100) == nil)
    }

    @Test("a live host is polled every refresh interval; its status and meters are shown")
    func polling() {
        let live = FakeLiveHost()
        let (panel, _) = makePanel(host: live)
        panel.advance(to: 0)
        #expect(live.polls == 1)
        #expect(panel.status == live.currentStatus)
        #expect(panel.meters == live.currentMeters)
        #expect(panel.nextChange(after: 0) == 1.0 / 30)
        panel.advance(to: 0.01)
        #expect(live.polls == 1)
        panel.advance(to: 1.0 / 30)
        #expect(live.polls == 2)
        let screen = PanelRenderer.render(panel, at: 0.1).screen
        #expect(screen.text(row: 0).hasSuffix(" detent · 256 frames · 44.1 kHz · DSP 3.3% · 2 xruns "))
        // A narrower header gives up the client name first.
        panel.resize(width: 72, height: 24, at: 0.2)
        let narrow = PanelRenderer.render(panel, at: 0.2).screen
        #expect(narrow.text(row: 0).hasSuffix(" 256 frames · 44.1 kHz · DSP 3.3% · 2 xruns "))
        #expect(screen.contains("Out L"))
        #expect(screen.contains("Filter response (dB) at 44.1 kHz"))
    }

    @Test("a value changed by someone else (MIDI, a typed command) moves the knob, animated")
    func externalChange() {
        let live = FakeLiveHost()
        let (panel, _) = makePanel(host: live)
        panel.advance(to: 0)
        live.values[.cutoff] = 4_000
        panel.advance(to: 0.05)
        #expect(panel.value(.cutoff) == 4_000)
        #expect(panel.knob(.cutoff).isAnimating(at: 0.06))
        #expect(live.sent.isEmpty)  // nothing echoed back
        // The panel's own sends are not taken for someone else's.
        panel.press(.up, at: 0.1)
        let mine = panel.value(.cutoff)
        panel.advance(to: 0.2)
        #expect(panel.value(.cutoff) == mine)
        #expect(live.sent.map(\.1) == [mine])
    }
}
