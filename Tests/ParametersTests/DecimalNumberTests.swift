import Testing
import Parameters

/// One rule for every number a person types: plain decimals, nothing Swift's `Double(_:)`
/// accepts beyond them.
@Suite("typed numbers")
struct DecimalNumberTests {
    @Test("plain decimals read as Double reads them", arguments: [
        "0", "3", "-3", "+3", "0.5", ".5", "-.5", "2.", "1e3", "1E-3", "-2.5e+2", "007", "12345678901234567890",
    ])
    func plain(_ text: String) {
        #expect(DecimalText.number(text) == Double(text))
    }

    @Test("hex, infinities, NaN, spaces and stray signs are not numbers", arguments: [
        "", "0x400", "0X1p3", "inf", "-inf", "infinity", "nan", "NaN", " 1", "1 ", "1,5", "--1", "+-1", "1-",
        "1e", "e3", ".", "-", "1e3.5", "1.2.3", "1e400", "١٢", "1_000",
    ])
    func notNumbers(_ text: String) {
        #expect(DecimalText.number(text) == nil)
    }

    @Test("a typed value follows the same rule: `set cutoff 0x400` is refused, not 1024 Hz")
    func typedValues() throws {
        let cutoff = LowpassGain.table[try #require(LowpassGain.table.find("cutoff"))]
        #expect(throws: (any Error).self) { try cutoff.parse("0x400") }
        #expect(throws: (any Error).self) { try cutoff.parse("inf") }
        #expect(try cutoff.parse("1.2k") == 1_200)
        #expect(try cutoff.parse("+800 Hz") == 800)
    }

    @Test("spaces go around a value and before its unit, never inside the number", arguments: [
        ("1 2 0 0", nil), ("1 200", nil), ("1.2 k hz", nil), ("- 6", nil), ("1 .2k", nil), ("0x1p3", nil),
        ("  1200 ", 1_200), ("1200Hz", 1_200), ("1200 hz", 1_200), ("1.2 kHz", 1_200), ("1.2k", 1_200),
        ("\u{2212}3e2", -300), ("+5", 5), ("\t 50\t", 50),
    ] as [(String, Double?)])
    func spaces(_ text: String, _ expected: Double?) {
        #expect(DecimalText.typed(text, suffixes: [("khz", 1000), ("hz", 1), ("k", 1000)]) == expected)
    }

    @Test("`--set \"cutoff=1 2 0 0\"` is refused, not saved as 1.2 kHz")
    func spacedDigitsAreRefused() throws {
        let table = LowpassGain.table
        let cutoff = table[try #require(table.find("cutoff"))]
        #expect(throws: (any Error).self) { try cutoff.parse("1 2 0 0") }
        let gain = table[try #require(table.find("gain"))]
        #expect(throws: (any Error).self) { try gain.parse("- 6 dB") }
        #expect(try gain.parse("-6 dB") == -6)
    }
}
