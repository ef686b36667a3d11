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
}
