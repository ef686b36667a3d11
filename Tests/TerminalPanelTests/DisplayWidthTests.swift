import Testing
@testable import TerminalPanel

/// Display widths: the classes by sample, and agreement with the C library's `wcwidth` (what
/// terminals measure) over every code point both know.
@Suite("Display width")
struct DisplayWidthTests {
    @Test("narrow: ASCII, Latin, Greek, Cyrillic, box drawing, braille, arrows, halfwidth kana")
    func narrow() {
        for character: Character in ["a", "Z", " ", "~", "é", "λ", "ж", "─", "┐", "⣿", "▸", "−", "×", "ｶ", "e\u{301}", "\u{AD}"] {
            #expect(DisplayWidth.of(character) == 1, "\(character.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("wide: CJK, kana, Hangul, fullwidth forms, ideographic space, emoji presentation, emoji sequences")
    func wide() {
        let samples: [Character] = [
            "暗", "い", "カ", "가", "ㄅ", "Ａ", "￥", "\u{3000}", "𠀋", "\u{1100}\u{1161}",
            "☕", "⌚", "😀", "🤖", "❤️", "🇯🇵", "👍🏽", "👨‍👩‍👧",
        ]
        for character in samples {
            #expect(DisplayWidth.of(character) == 2, "\(character.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("zero: control and format characters, and a combining mark with nothing before it")
    func zero() {
        for character: Character in ["\u{7}", "\t", "\r\n", "\u{7F}", "\u{9B}", "\u{200B}", "\u{200D}", "\u{2060}", "\u{FEFF}", "\u{301}"] {
            #expect(DisplayWidth.of(character) == 0, "\(character.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("one scalar: the same width as the C library's wcwidth for every assigned code point both know")
    func agreesWithWcwidth() {
        var disagreements: [String] = []
        for value in UInt32(0x20)...0x3FFFF {
            guard let scalar = Unicode.Scalar(value),
                  let age = scalar.properties.age, age.major < 14
            else { continue }
            let reference = ScreenEmulator.columns(scalar)
            guard reference >= 0 else { continue }
            // Ahom medial ra became a spacing mark in Unicode 14; the C library's table is older.
            if DisplayWidth.of(Character(scalar)) != reference, value != 0x1171E {
                disagreements.append(String(value, radix: 16) + ":\(reference)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(40))")
    }

    @Test("a string is the sum of its characters")
    func strings() {
        #expect(DisplayWidth.of("暗い音") == 3 * DisplayWidth.of("暗" as Character))
        #expect(DisplayWidth.of("Café ☕ Lounge") == "Café ☕ Lounge".count + 1)
        #expect(DisplayWidth.of("") == 0)
    }

    @Test("unsettled: only wide clusters whose code points a terminal would measure differently")
    func unsettled() {
        for character: Character in ["❤️", "👨‍👩‍👧", "👍🏽"] { #expect(DisplayWidth.isUnsettled(character)) }
        for character: Character in ["a", "暗", "☕", "e\u{301}", "\u{1100}\u{1161}", "🇯🇵"] { #expect(!DisplayWidth.isUnsettled(character)) }
    }
}
