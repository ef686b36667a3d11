import AudioEngine
import Testing
import Parameters
@testable import KnobKit

@Suite("Knob scale: table rows and plain ranges")
struct KnobScaleTests {
    @Test("a table scale answers with the table row's own facts", arguments: LowpassGain.table.ids)
    func tableFacts(id: ParameterIndex) {
        let scale = KnobScale(id)
        let spec = LowpassGain.table[id]
        #expect(scale.spec == spec)
        #expect(scale.name == spec.name)
        #expect(scale.range == spec.range)
        #expect(scale.defaultValue == spec.defaultValue)
        #expect(scale.taper == spec.taper)
        for i in 0...20 {
            let p = Double(i) / 20
            let v = spec.value(atNormalized: p)
            #expect(scale.value(atNormalized: p) == v)
            #expect(scale.normalized(v) == spec.normalized(v))
            #expect(scale.format(v) == spec.format(v))
            #expect(scale.format(v, ascii: true) == spec.format(v, ascii: true))
        }
    }

    @Test("a table scale parses through the table's parser and refuses with its messages")
    func tableParsing() throws {
        let cutoff = KnobScale(.cutoff)
        #expect(try cutoff.parse("1.2k") == LowpassGain.table[.cutoff].parse("1.2k"))
        #expect(try KnobScale(.gain).parse("-inf") == LowpassGain.table[.gain].range.lowerBound)
        for bad in ["5 dB", "50k", "abc"] {
            var tableError: ParameterError?
            do { _ = try LowpassGain.table[.cutoff].parse(bad) } catch { tableError = error }
            let expected = try #require(tableError)
            #expect(throws: expected) { _ = try cutoff.parse(bad) }
        }
    }

    @Test("taper round trips and is strictly increasing for every scale", arguments: ScaleCase.allCases)
    func taperRoundTrip(scaleCase: ScaleCase) throws {
        let scale = try scaleCase.make()
        var previous = -Double.infinity
        for i in 0...1000 {
            let p = Double(i) / 1000
            let v = scale.value(atNormalized: p)
            #expect(scale.range.contains(v))
            #expect(v > previous, "not increasing at \(p)")
            #expect(scale.normalized(v).isClose(to: p, tolerance: 1e-12), "\(p) → \(v) → \(scale.normalized(v))")
            previous = v
        }
        #expect(scale.value(atNormalized: 0) == scale.range.lowerBound)
        #expect(scale.value(atNormalized: 1) == scale.range.upperBound)
    }

    @Test("formatted values parse back to the same text", arguments: ScaleCase.allCases)
    func textRoundTrip(scaleCase: ScaleCase) throws {
        let scale = try scaleCase.make()
        for i in 0...300 {
            let value = scale.value(atNormalized: Double(i) / 300)
            for ascii in [false, true] {
                let text = scale.format(value, ascii: ascii)
                let back = try scale.parse(text)
                #expect(scale.format(back, ascii: ascii) == text, "\(value) → \(text) → \(back)")
            }
        }
    }

    @Test("clamping keeps values in range: infinities to the ends, NaN to the default")
    func clamping() throws {
        let mix = try KnobScale(name: "Mix", range: 0...100, defaultValue: 25)
        #expect(mix.clamp(-5) == 0)
        #expect(mix.clamp(105) == 100)
        #expect(mix.clamp(.infinity) == 100)
        #expect(mix.clamp(-.infinity) == 0)
        #expect(mix.clamp(.nan) == 25)
        #expect(mix.value(atNormalized: .nan) == 0)
        #expect(mix.value(atNormalized: 2) == 100)
        #expect(mix.normalized(.nan) == 0.25)
    }

    @Test("a plain scale refuses bad ranges with one line naming the knob")
    func plainScaleErrors() {
        #expect(throws: KnobError.emptyRange(name: "Mix")) {
            _ = try KnobScale(name: "Mix", range: 1...1, defaultValue: 1)
        }
        #expect(throws: KnobError.nonFiniteRange(name: "Mix")) {
            _ = try KnobScale(name: "Mix", range: 0...Double.infinity, defaultValue: 1)
        }
        #expect(throws: KnobError.defaultOutsideRange(name: "Mix", value: 2)) {
            _ = try KnobScale(name: "Mix", range: 0...1, defaultValue: 2)
        }
        #expect(throws: KnobError.taperNeedsPositiveRange(name: "Rate")) {
            _ = try KnobScale(name: "Rate", range: 0...10, defaultValue: 1, taper: .logarithmic)
        }
        let message = KnobError.defaultOutsideRange(name: "Mix", value: 2).description
        #expect(message == "knob 'Mix': default 2.0 lies outside the range")
        #expect(!message.contains("\n"))
    }

    @Test("a plain scale refuses text that is not a number in range, naming the knob and the text")
    func plainParsing() throws {
        let mix = try KnobScale(name: "Mix", range: 0...100, defaultValue: 50,
                                format: KnobNumberFormat(decimals: 0, unit: "%"))
        #expect(try mix.parse("42") == 42)
        #expect(try mix.parse(" 42 % ") == 42)
        #expect(try mix.parse("+7%") == 7)
        #expect(throws: ParameterError.invalidValue(id: "Mix", text: "lots", expected: "a number (e.g. 50 %)")) {
            _ = try mix.parse("lots")
        }
        #expect(throws: ParameterError.outOfRange(id: "Mix", text: "120%", range: "0 % … 100 %")) {
            _ = try mix.parse("120%")
        }
        for bad in ["nan", "inf", "", "+-3", "4 4"] {
            #expect(throws: ParameterError.self) { _ = try mix.parse(bad) }
        }
    }
}
