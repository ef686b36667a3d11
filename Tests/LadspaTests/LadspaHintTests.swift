import Glibc
@testable import Ladspa
import Parameters
import Testing

/// The range hints of ladspa.h mapped as the header defines them: bounds (× the sample rate
/// for SAMPLE_RATE ports), the DEFAULT_* values (LOW, MIDDLE, HIGH geometric for LOGARITHMIC
/// ports, rounded for INTEGER ones), toggles, integers and tapers.
@Suite("LADSPA range hints")
struct LadspaHintTests {
    static let below: Int32 = 0x1, above: Int32 = 0x2, toggled: Int32 = 0x4, sampleRate: Int32 = 0x8
    static let logarithmic: Int32 = 0x10, integer: Int32 = 0x20

    static func hints(_ bits: Int32, _ lower: Float, _ upper: Float, _ value: LadspaHints.Default = .none) -> LadspaHints {
        LadspaHints(descriptor: bits | value.rawValue, lower: lower, upper: upper)
    }

    @Test("every default of a linear bounded port", arguments: [
        (LadspaHints.Default.minimum, 2.0), (.low, 4.0), (.middle, 6.0), (.high, 8.0), (.maximum, 10.0),
        (.zero, 0.0), (.one, 1.0), (.hundred, 100.0), (.concertA, 440.0),
    ] as [(LadspaHints.Default, Double)])
    func linearDefaults(value: LadspaHints.Default, expected: Double) {
        let h = Self.hints(Self.below | Self.above, 2, 10, value)
        #expect(h.defaultValue(sampleRate: 48_000) == expected)
    }

    @Test("LOW, MIDDLE and HIGH of a logarithmic port are geometric: exp(log(lo)·(1−w) + log(hi)·w)")
    func logarithmicDefaults() {
        for (value, weight) in [(LadspaHints.Default.low, 0.25), (.middle, 0.5), (.high, 0.75)] {
            let h = Self.hints(Self.below | Self.above | Self.logarithmic, 10, 10_000, value)
            let expected = exp(log(10.0) * (1 - weight) + log(10_000.0) * weight)
            #expect(abs(h.defaultValue(sampleRate: 48_000)! - expected) < 1e-9)
        }
        // 10 … 10 000, middle: 316.2…, not the arithmetic 5005.
        let middle = Self.hints(Self.below | Self.above | Self.logarithmic, 10, 10_000, .middle)
        #expect(abs(middle.defaultValue(sampleRate: 48_000)! - 316.227766) < 1e-5)
        #expect(middle.turnsLogarithmically(sampleRate: 48_000))
        // A logarithmic port whose range reaches 0 cannot be geometric: arithmetic, linear taper.
        let zero = Self.hints(Self.below | Self.above | Self.logarithmic, 0, 1, .middle)
        #expect(zero.defaultValue(sampleRate: 48_000) == 0.5)
        #expect(!zero.turnsLogarithmically(sampleRate: 48_000))
    }

    @Test("SAMPLE_RATE multiplies the bounds and the defaults made from them, not 0, 1, 100 or 440")
    func sampleRateRelative() {
        let h = Self.hints(Self.below | Self.above | Self.sampleRate, 0.0001, 0.45, .maximum)
        #expect(h.range(sampleRate: 48_000) == Double(Float(0.0001)) * 48_000...Double(Float(0.45)) * 48_000)
        #expect(h.defaultValue(sampleRate: 44_100) == Double(Float(0.45)) * 44_100)
        let concert = Self.hints(Self.below | Self.above | Self.sampleRate, 0, 0.5, .concertA)
        #expect(concert.defaultValue(sampleRate: 96_000) == 440)
        // swh's Butterworth cutoff: 0.0001…0.45 × rate, logarithmic, DEFAULT_LOW.
        let cutoff = Self.hints(Self.below | Self.above | Self.sampleRate | Self.logarithmic, 0.0001, 0.45, .low)
        let lo = Double(Float(0.0001)) * 48_000, hi = Double(Float(0.45)) * 48_000
        #expect(abs(cutoff.defaultValue(sampleRate: 48_000)! - exp(log(lo) * 0.75 + log(hi) * 0.25)) < 1e-9)
    }

    @Test("INTEGER rounds the default and holds the range inward to whole numbers")
    func integers() {
        let h = Self.hints(Self.below | Self.above | Self.integer, -0.1, 3.1, .high)
        #expect(h.range(sampleRate: 48_000) == 0...3)
        #expect(h.defaultValue(sampleRate: 48_000) == 2)   // 2.3, rounded
        #expect(Self.hints(Self.below | Self.above | Self.integer, -1, 4, .middle).defaultValue(sampleRate: 48_000) == 2)  // 1.5 away from zero
        let port = LadspaPort(index: 0, name: "Stages", isInput: true, isAudio: false, hints: h)
        let spec = LadspaTable.spec(port, id: "stages")
        #expect(spec.kind == .integer && spec.defaultValue == 2 && spec.range == 0...3)
    }

    @Test("TOGGLED is a toggle 0 … 1 whatever the bounds; DEFAULT_1 starts it on")
    func toggles() {
        let on = Self.hints(Self.toggled, 0, 0, .one)
        #expect(on.range(sampleRate: 48_000) == 0...1 && on.startingValue(sampleRate: 48_000) == 1)
        let off = Self.hints(Self.toggled, 0, 0)
        #expect(off.startingValue(sampleRate: 48_000) == 0)
        let spec = LadspaTable.spec(LadspaPort(index: 3, name: "Bypass", isInput: true, isAudio: false, hints: on), id: "bypass")
        #expect(spec.kind == .toggle && spec.defaultValue == 1)
    }

    @Test("no default: the lower bound; unbounded sides get a range that holds the default")
    func missing() {
        let h = Self.hints(Self.below | Self.above, -12, 12)
        #expect(h.defaultValue(sampleRate: 48_000) == nil && h.startingValue(sampleRate: 48_000) == -12)
        let unbounded = Self.hints(0, 0, 0, .hundred)
        #expect(unbounded.range(sampleRate: 48_000) == 0...200 && unbounded.startingValue(sampleRate: 48_000) == 100)
        let onlyBelow = Self.hints(Self.below, 5, 0)
        #expect(onlyBelow.range(sampleRate: 48_000) == 5...6)
    }

    @Test("ids and units come from port names")
    func names() {
        #expect(LadspaTable.id(fromName: "Cutoff Frequency (Hz)", index: 0) == "cutoff_frequency")
        #expect(LadspaTable.unit(inName: "Cutoff Frequency (Hz)") == .hertz)
        #expect(LadspaTable.id(fromName: "Dry/Wet mix", index: 1) == "dry_wet_mix")
        #expect(LadspaTable.unit(inName: "Gain [dB]") == .decibels)
        #expect(LadspaTable.unit(inName: "Delay (ms)") == .milliseconds)
        #expect(LadspaTable.id(fromName: "(Hz)", index: 7) == "hz")
        #expect(LadspaTable.id(fromName: "— ∞ —", index: 7) == "port_7")
    }
}
