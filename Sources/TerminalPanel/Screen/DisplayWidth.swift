/// How many terminal columns text takes: 0, 1 or 2 per character.
///
/// A Swift `Character` is a grapheme cluster, which a terminal draws as one glyph — but CJK
/// ideographs, kana, Hangul, fullwidth forms and emoji are drawn two columns wide, and control
/// and format characters (or a combining mark with nothing to combine with) take none. Laying
/// text out by `count` puts everything after a wide character one column too far right, so
/// every layout measure of drawn text goes through here.
///
/// The rules are those of `wcwidth` as terminals implement it, from Unicode's East Asian Width
/// property (W and F are wide) and emoji presentation, applied to a whole cluster by its first
/// scalar — except that a cluster shown as an emoji (a flag, a `U+FE0F` sequence) is wide.
///
/// ```swift
/// DisplayWidth.of("暗い音")      // 6
/// DisplayWidth.of("Café ☕")     // 6
/// DisplayWidth.of("\u{200B}")   // 0
/// ```
public enum DisplayWidth {
    /// The columns `character` takes.
    public static func of(_ character: Character) -> Int {
        // The common case, ASCII, without walking the scalars.
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F ? 1 : 0 }
        let scalars = character.unicodeScalars
        let first = scalars.first!
        let base = columns(first)
        guard base != 0, scalars.count > 1 else { return base }
        if isRegionalIndicator(first) { return scalars.dropFirst().contains(where: isRegionalIndicator) ? 2 : 1 }
        // Emoji presentation selector: ❤ (text, narrow) becomes ❤️ (emoji, wide).
        if scalars.contains(Self.emojiPresentationSelector), first.properties.isEmoji { return 2 }
        return base
    }

    /// The columns `text` takes: the sum over its characters.
    public static func of<Text: StringProtocol>(_ text: Text) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// True when terminals may disagree with ``of(_:)`` about `character`: a wide cluster
    /// built from several scalars (❤️, a ZWJ family, a flag, a skin tone), which a terminal
    /// that measures scalar by scalar draws narrower or wider. Whoever tracks the cursor
    /// should stop trusting its column after writing one.
    public static func isUnsettled(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard scalars.count > 1 else { return false }
        return scalars.reduce(0) { $0 + columns($1) } != of(character)
    }

    // MARK: - One scalar

    static let emojiPresentationSelector: Unicode.Scalar = "\u{FE0F}"

    /// The columns one scalar takes on its own.
    static func columns(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        // Format characters that are printed all the same: the soft hyphen and the marks
        // that prefix a number (Arabic number sign, Syriac abbreviation mark …).
        if value == 0xAD || prependedConcatenationMarks.contains(value) { return 1 }
        switch scalar.properties.generalCategory {
        case .control, .format, .nonspacingMark, .enclosingMark, .lineSeparator, .paragraphSeparator:
            return 0
        default:
            break
        }
        // Hangul vowels and final consonants join the initial consonant before them.
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        if isRegionalIndicator(scalar) { return 1 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return isEastAsianWide(value) ? 2 : 1
    }

    static let prependedConcatenationMarks: Set<UInt32> = [
        0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD, 0x110CD,
    ]

    static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    /// Unicode's East Asian Width W and F ranges, leaving out the emoji among them (emoji
    /// presentation decides those) and the unassigned gaps inside blocks (harmless either way).
    static func isEastAsianWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        // Sorted, non-overlapping: a binary search would do, but the first test rejects
        // nearly everything drawn (Latin, box drawing, braille) before the table.
        for range in wideRanges {
            if value < range.lowerBound { return false }
            if value <= range.upperBound { return true }
        }
        return false
    }

    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,    // Hangul Jamo initial consonants
        0x2329...0x232A,    // angle brackets
        0x2E80...0x303E,    // CJK radicals, Kangxi radicals, ideographic description, CJK symbols
        0x3041...0x33FF,    // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo … CJK compatibility
        0x3400...0x4DFF,    // CJK unified ideographs extension A, Yijing hexagrams (wide since Unicode 16)
        0x4E00...0x9FFF,    // CJK unified ideographs
        0xA000...0xA4CF,    // Yi syllables and radicals
        0xA960...0xA97F,    // Hangul Jamo extended A
        0xAC00...0xD7A3,    // Hangul syllables
        0xF900...0xFAFF,    // CJK compatibility ideographs
        0xFE10...0xFE19,    // vertical forms
        0xFE30...0xFE6F,    // CJK compatibility forms, small form variants
        0xFF00...0xFF60,    // fullwidth forms
        0xFFE0...0xFFE6,    // fullwidth signs
        0x16FE0...0x16FE4,  // ideographic symbols and punctuation
        0x16FF0...0x16FF1,
        0x17000...0x18CD5,  // Tangut, Tangut components, Khitan small script
        0x18D00...0x18D08,  // Tangut supplement
        0x1AFF0...0x1B2FF,  // Kana extended, Kana supplement, small Kana, Nushu
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x2FFFD,  // CJK extensions B–F, compatibility supplement
        0x30000...0x3FFFD,  // CJK extensions G, H
    ]
}
