import Foundation
import Parameters
import Testing
@testable import VST2

/// What a VST2 parameter's display texts say about its values: a number read with its
/// rounding and unit, and a straight line or equal ratios fitted only where every text agrees.
@Suite("VST2 display texts")
struct VST2CurveTests {
    /// 33 points across 0…1 and what `show` prints at each.
    static func samples(_ show: (Double) -> String) -> [(normalized: Double, text: String)] {
        (0...32).map { Double($0) / 32 }.map { ($0, show($0)) }
    }

    @Test("a number is read with its rounding and what follows it; a name or -inf is none")
    func shown() {
        func reads(_ text: String, _ value: Double, _ resolution: Double, _ suffix: String) -> Bool {
            guard let shown = VST2Curve.shown(text) else { return false }
            return shown.value == value && abs(shown.resolution - resolution) <= 1e-9 * resolution && shown.suffix == suffix
        }
        #expect(reads("10.000000", 10, 5e-7, ""))
        #expect(reads(" -12.5 dB", -12.5, 0.05, "dB"))
        #expect(reads("\u{2212}3", -3, 0.5, ""))
        #expect(reads("1.5e3 Hz", 1500, 50, "Hz"))
        #expect(VST2Curve.shown("-inf") == nil)
        #expect(VST2Curve.shown("Off") == nil)
        #expect(VST2Curve.shown(".") == nil)
    }

    @Test("a straight line takes its ends as the range, its unit from the texts")
    func linear() throws {
        let fit = try #require(VST2Curve.fit(Self.samples { String(format: "%.6f ms", 0.1 + 99.9 * $0) }))
        #expect(fit.range == 0.1...100 && fit.taper == .linear && fit.unit == "ms")
        // Rounded to whole numbers, the same line still fits.
        #expect(VST2Curve.fit(Self.samples { String(format: "%.0f", -80 + 80 * $0) })?.range == -80...0)
    }

    @Test("equal ratios are logarithmic")
    func logarithmic() throws {
        let fit = try #require(VST2Curve.fit(Self.samples { String(format: "%.0f Hz", 20 * pow(1000, $0)) }))
        #expect(fit.range == 20...20_000 && fit.taper == .logarithmic && fit.unit == "Hz")
    }

    @Test("anything else fits nothing: another curve, falling values, -inf, two units")
    func none() {
        // amsynth's envelope times: neither a line nor equal ratios.
        #expect(VST2Curve.fit(Self.samples { String(format: "%.6f", 0.0005 + 15.625 * pow($0, 3)) }) == nil)
        #expect(VST2Curve.fit(Self.samples { String(format: "%.2f", 10 - 10 * $0) }) == nil)
        #expect(VST2Curve.fit(Self.samples { $0 == 0 ? "-inf" : String(format: "%.1f", 20 * log10($0)) }) == nil)
        #expect(VST2Curve.fit(Self.samples { $0 < 0.5 ? String(format: "%.0f Hz", 1000 * $0) : String(format: "%.2f kHz", $0) }) == nil)
    }

    @Test("a plug-in's reading of a text is believed only when its display shows that text")
    func answerShowsText() {
        #expect(VST2TextSearch.shows("30 ms", display: "30.0", label: "ms"))
        #expect(VST2TextSearch.shows("30ms", display: "30.0 ms", label: ""))
        #expect(VST2TextSearch.shows("-6", display: "-6.02", label: "dB"))
        #expect(VST2TextSearch.shows("off", display: "Off", label: ""))
        #expect(VST2TextSearch.shows("anything", display: "", label: ""))
        // A word read as the lowest value (JUCE's builds), a number in another unit, another number.
        #expect(!VST2TextSearch.shows("loud", display: "0.00", label: "dB"))
        #expect(!VST2TextSearch.shows("30 Hz", display: "30.0", label: "ms"))
        #expect(!VST2TextSearch.shows("30 ms", display: "12.0", label: "ms"))
    }
}
