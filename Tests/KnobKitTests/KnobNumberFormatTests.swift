import Testing
@testable import KnobKit

@Suite("Number format for plain ranges")
struct KnobNumberFormatTests {
    @Test("writes fixed decimals, rounding half away from zero")
    func fixedDecimals() {
        let two = KnobNumberFormat(decimals: 2)
        #expect(two.format(0.5) == "0.50")
        #expect(two.format(2.125) == "2.13")  // exact in binary: a true half rounds away from zero
        #expect(two.format(-2.125) == "\u{2212}2.13")
        #expect(KnobNumberFormat(decimals: 0, unit: "%").format(42.5) == "43 %")
        #expect(KnobNumberFormat(decimals: 3).format(7) == "7.000")
    }

    @Test("negative numbers use the typographic minus, or - in ASCII; a rounded zero has no sign")
    func signs() {
        let one = KnobNumberFormat(decimals: 1, unit: "st")
        #expect(one.format(-3) == "\u{2212}3.0 st")
        #expect(one.format(-3, ascii: true) == "-3.0 st")
        #expect(one.format(-0.04) == "0.0 st")
        #expect(one.format(-0.0) == "0.0 st")
    }

    @Test("decimals are limited to 0…9")
    func decimalLimits() {
        #expect(KnobNumberFormat(decimals: -3).decimals == 0)
        #expect(KnobNumberFormat(decimals: 40).decimals == 9)
        #expect(KnobNumberFormat(decimals: 2).halfUnit == 0.005)
    }

    @Test("huge and non-finite numbers are written without trapping")
    func extremes() {
        let f = KnobNumberFormat(decimals: 2)
        #expect(f.format(1e300) == String(1e300))
        #expect(f.format(.infinity) == "∞")
        #expect(f.format(-.infinity, ascii: true) == "-inf")
        #expect(f.format(.nan) == "nan")
    }

    @Test("reads numbers with or without the unit, any case, either minus")
    func parsing() {
        let f = KnobNumberFormat(decimals: 1, unit: "Hz")
        #expect(f.parse("12.5") == 12.5)
        #expect(f.parse("12.5 Hz") == 12.5)
        #expect(f.parse("12.5hz") == 12.5)
        #expect(f.parse("\u{2212}3 HZ") == -3)
        #expect(f.parse("+3") == 3)
        #expect(f.parse("  7  ") == 7)
        for bad in ["", "Hz", "abc", "nan", "inf", "-inf", "++3", "+-3", "3 kHz", "0x10", "0x1p3", "1 2", "1_000"] {
            #expect(f.parse(bad) == nil, "\(bad)")
        }
    }
}
