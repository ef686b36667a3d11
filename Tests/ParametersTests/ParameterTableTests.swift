import Testing
import Parameters
@testable import Parameters
import TestSupport

@Suite("Parameter table")
struct ParameterTableTests {
    @Test("formats values with units and adaptive precision")
    func formatting() {
        let cutoff = LowpassGain.table[.cutoff]
        #expect(cutoff.format(1200) == "1.20 kHz")
        #expect(cutoff.format(850) == "850 Hz")
        #expect(cutoff.format(20) == "20.0 Hz")
        #expect(cutoff.format(999.7) == "1.00 kHz")
        #expect(cutoff.format(12_345) == "12.3 kHz")
        #expect(cutoff.format(20_000) == "20.0 kHz")
        let gain = LowpassGain.table[.gain]
        #expect(gain.format(-6) == "\u{2212}6.0 dB")
        #expect(gain.format(-6, ascii: true) == "-6.0 dB")
        #expect(gain.format(3) == "+3.0 dB")
        #expect(gain.format(-0.04) == "0.0 dB")
        #expect(gain.format(-60) == "\u{2212}∞ dB")
        #expect(LowpassGain.table[.resonance].format(0.707) == "0.71")
    }

    @Test("parses what people type", arguments: [
        ("cutoff", "1.2k", 1200.0), ("cutoff", "800 Hz", 800), ("cutoff", "1.2 kHz", 1200),
        ("cutoff", "800hz", 800), ("cutoff", " 440 ", 440), ("gain", "-6 dB", -6), ("gain", "-6", -6),
        ("gain", "\u{2212}6dB", -6), ("gain", "+3 dB", 3), ("gain", "-inf", -60), ("gain", "off", -60),
        ("gain", "\u{2212}inf", -60), ("gain", "\u{2212}inf dB", -60), ("gain", "\u{2212}\u{221E}", -60),
        ("gain", "\u{2212}6 dB", -6), ("gain", "\u{2212}INF", -60), ("gain", "\u{2212}\u{221E}dB", -60),
        ("gain", "- inf", -60),
        ("resonance", "0.707", 0.707), ("resonance", "4 Q", 4),
    ])
    func parsing(id: String, text: String, expected: Double) throws {
        let spec = try LowpassGain.table[LowpassGain.table.index(of: id)]
        #expect(try spec.parse(text) == expected)
    }

    @Test("refuses bad values with a message naming the parameter", arguments: [
        ("cutoff", "5 dB"), ("cutoff", "abc"), ("cutoff", ""), ("cutoff", "nan"), ("cutoff", "50k"),
        ("gain", "13"), ("gain", "1k"), ("resonance", "0.1"), ("resonance", "inf"),
    ])
    func refusing(id: String, text: String) throws {
        let spec = try LowpassGain.table[LowpassGain.table.index(of: id)]
        #expect {
            _ = try spec.parse(text)
        } throws: { error in
            String(describing: error).contains(id) && String(describing: error).contains("'\(text)'")
        }
    }

    @Test("a level below a silent minimum names the minimum as a number, and how to ask for silence")
    func silentMinimumRange() {
        let gain = LowpassGain.table[.gain]
        #expect(throws: ParameterError.outOfRange(id: "gain", text: "-61", range: "-60.0 dB … +12.0 dB, or -inf for silence")) {
            _ = try gain.parse("-61")
        }
        #expect(throws: ParameterError.outOfRange(id: "cutoff", text: "50k", range: "20.0 Hz … 20.0 kHz")) {
            _ = try LowpassGain.table[.cutoff].parse("50k")
        }
    }

    @Test("an unknown id names the valid ids")
    func unknownID() {
        #expect(throws: ParameterError.unknownID("freq", valid: LowpassGain.table.textIDs)) { _ = try LowpassGain.table.index(of: "freq") }
        #expect(ParameterError.unknownID("freq", valid: LowpassGain.table.textIDs).description == "unknown parameter 'freq' (valid ids: cutoff, resonance, gain)")
        #expect(throws: ParameterError.notAnAssignment("cutoff800", valid: LowpassGain.table.textIDs)) { _ = try LowpassGain.table.parseAssignment("cutoff800") }
    }

    @Test("ID=VALUE assignments use the row's parser")
    func assignments() throws {
        let (id, value) = try LowpassGain.table.parseAssignment("Cutoff=1.5k")
        #expect(id == .cutoff && value == 1500)
        let (g, v) = try LowpassGain.table.parseAssignment("gain=-6dB")
        #expect(g == .gain && v == -6)
    }

    @Test("formatted values parse back to the same text for every parameter")
    func textRoundTrip() throws {
        for id in LowpassGain.table.ids {
            let spec = LowpassGain.table[id]
            for i in 0...200 {
                let value = spec.value(atNormalized: Double(i) / 200)
                let text = spec.format(value)
                let back = try spec.parse(text)
                #expect(spec.format(back) == text, "\(id) \(value) → \(text) → \(back)")
            }
        }
    }

    @Test("taper round trips and is monotonic")
    func taper() {
        for id in LowpassGain.table.ids {
            let spec = LowpassGain.table[id]
            var previous = -Double.infinity
            for i in 0...1000 {
                let p = Double(i) / 1000
                let v = spec.value(atNormalized: p)
                #expect(v >= previous)
                #expect(spec.range.contains(v))
                #expect(abs(spec.normalized(v) - p) < 1e-12)
                previous = v
            }
        }
        // Log taper: the middle of the cutoff knob is the geometric mean of its range.
        #expect(abs(LowpassGain.table[.cutoff].value(atNormalized: 0.5) - (20.0 * 20_000).squareRoot()) < 1e-9)
        // Linear-in-dB taper: the middle of gain is the arithmetic middle in dB.
        #expect(LowpassGain.table[.gain].value(atNormalized: 0.5) == -24)
    }

    @Test("decibels map to amplitude, the minimum to silence")
    func engineDomain() {
        let gain = LowpassGain.table[.gain]
        #expect(gain.engineValue(-60) == 0)
        #expect(gain.engineValue(0) == 1)
        #expect(abs(gain.engineValue(-6) - 0.501187233627272) < 1e-14)
        #expect(abs(gain.engineValue(12) - 3.981071705534972) < 1e-13)
        #expect(abs(gain.value(fromEngine: gain.engineValue(-6)) + 6) < 1e-12)
        #expect(gain.value(fromEngine: 0) == -60)
        #expect(LowpassGain.table[.cutoff].engineValue(440) == 440)
    }

    @Test("the text table lists every row")
    func table() {
        let text = ParameterTableText.table(LowpassGain.table)
        for id in LowpassGain.table.ids {
            #expect(text.contains(LowpassGain.table[id].id) && text.contains(LowpassGain.table[id].name))
        }
        #expect(text.contains("\u{2212}60.0 dB (silence) … +12.0 dB"))
        let cutoffRow = text.split(separator: "\n").first { $0.hasPrefix("cutoff ") }
        #expect(cutoffRow?.split(separator: " ").last == "74")
    }

    @Test("every parameter has its own MIDI controller, outside the channel mode messages")
    func midiControllers() {
        let numbers = LowpassGain.table.specs.compactMap(\.midiController)
        #expect(numbers.count == LowpassGain.table.count)
        #expect(Set(numbers).count == numbers.count)
        #expect(numbers.allSatisfy(ParameterSpec.midiControllerRange.contains))
        #expect(ParameterTableText.jsonLine(LowpassGain.table[.gain]).contains(#""midiController":7,"#))
    }
}
