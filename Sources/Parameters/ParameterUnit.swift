/// The unit of a parameter: how its values are written and read by people.
public enum ParameterUnit: String, Sendable, Hashable, Codable, BitwiseCopyable {
    /// Frequency; shown as `850 Hz` or `1.20 kHz`, typed as `800`, `800 Hz`, `1.2k`, `1.2 kHz`.
    case hertz
    /// Filter quality; shown as `0.71`, typed as `0.707` or `0.707 Q`.
    case quality
    /// Level; shown as `−6.0 dB`, typed as `-6`, `-6 dB`, `−6dB`.
    case decibels
    /// A plain number; shown with three significant digits (`0.50`, `12.5`, `440`).
    case none
    /// A share; shown as `25.0 %`, typed as `25` or `25 %`.
    case percent
    /// Time; shown as `12.5 ms`, typed as `12.5`, `12.5 ms`.
    case milliseconds
    /// Time; shown as `1.50 s`, typed as `1.5`, `1.5 s`.
    case seconds
    /// Pitch interval; shown as `−12.0 st`, typed as `-12`, `-12 st`.
    case semitones

    /// The unit's symbol as shown in tables (`Hz`, `Q`, `dB`).
    public var symbol: String {
        switch self {
        case .hertz: "Hz"
        case .quality: "Q"
        case .decibels: "dB"
        case .none: ""
        case .percent: "%"
        case .milliseconds: "ms"
        case .seconds: "s"
        case .semitones: "st"
        }
    }

    /// What a person may type, for error messages.
    public var expectation: String {
        switch self {
        case .hertz: "a frequency in Hz (800, 800 Hz, 1.2k, 1.2 kHz)"
        case .quality: "a Q value (0.707, 4)"
        case .decibels: "a level in dB (-6, -6 dB, +3 dB, -inf)"
        case .none: "a number"
        case .percent: "a percentage (25, 25 %)"
        case .milliseconds: "a time in ms (20, 20 ms)"
        case .seconds: "a time in s (1.5, 1.5 s)"
        case .semitones: "semitones (-12, 7 st)"
        }
    }

    /// Words that mean "silence" for a parameter whose minimum is silence, as
    /// ``isSilenceWord(_:)`` compares them: lowercased, without spaces, `−` (U+2212) as `-`.
    static let silenceWords: Set<String> = ["-inf", "-infdb", "-∞", "-∞db", "off", "mute", "silence"]

    /// `text` asks for silence: `-inf`, `−inf dB`, `−∞`, `-∞dB`, `off`, … in any case and
    /// spacing, with either minus sign.
    static func isSilenceWord(_ text: String) -> Bool {
        silenceWords.contains(text.lowercased().replacingMinusSign.filter { $0 != " " && $0 != "\t" })
    }

    /// Formats `value` with a precision that adapts to its magnitude, and up to `extraDigits`
    /// more decimals where they are not zeros.
    func format(_ value: Double, ascii: Bool, extraDigits: Int = 0) -> String {
        func fixed(_ v: Double, decimals: Int, ascii: Bool) -> String {
            DecimalText.fixed(v, decimals: decimals, extraDecimals: extraDigits, ascii: ascii)
        }
        switch self {
        case .hertz:
            // Three significant digits; switch to kHz where the rounded value reaches 1000.
            if DecimalText.rounded(value, decimals: 0) >= 1000 {
                let k = value / 1000
                let decimals = DecimalText.rounded(k, decimals: 2) < 10 ? 2 : (DecimalText.rounded(k, decimals: 1) < 100 ? 1 : 0)
                return fixed(k, decimals: decimals, ascii: ascii) + " kHz"
            }
            let decimals = DecimalText.rounded(value, decimals: 1) < 100 ? 1 : 0
            return fixed(value, decimals: decimals, ascii: ascii) + " Hz"
        case .quality:
            return fixed(value, decimals: 2, ascii: ascii)
        case .decibels:
            let text = fixed(value, decimals: 1, ascii: ascii)
            let positive = DecimalText.rounded(value, decimals: 1) > 0
            return (positive ? "+" : "") + text + " dB"
        case .semitones:
            return fixed(value, decimals: 1, ascii: ascii) + " st"
        case .none, .percent, .milliseconds, .seconds:
            // Three significant digits for the usual magnitudes.
            let m = abs(DecimalText.rounded(value, decimals: 2))
            let decimals = m < 10 ? 2 : (m < 100 ? 1 : 0)
            let text = fixed(value, decimals: decimals, ascii: ascii)
            return symbol.isEmpty ? text : text + " " + symbol
        }
    }

    /// Formats a whole number with the unit's symbol (`3`, `−12 st`).
    func formatInteger(_ value: Double, ascii: Bool) -> String {
        let text = DecimalText.fixed(value, decimals: 0, ascii: ascii)
        return symbol.isEmpty || self == .quality ? text : text + " " + symbol
    }

    /// The text shown for a silent minimum.
    func formatSilence(ascii: Bool) -> String {
        ascii ? "-inf dB" : "−∞ dB"
    }

    /// Parses a number with this unit's optional suffix (``DecimalText/typed(_:suffixes:)``,
    /// the one rule for typed values); nil when it is not one.
    func parse(_ text: String) -> Double? {
        DecimalText.typed(text, suffixes: suffixes)
    }

    /// The suffixes a typed value of this unit may end with, and what each multiplies by.
    private var suffixes: [(suffix: String, scale: Double)] {
        switch self {
        case .hertz: [("khz", 1000), ("hz", 1), ("k", 1000)]
        case .quality: [("q", 1)]
        case .decibels: [("db", 1)]
        case .none: []
        case .percent, .milliseconds, .seconds, .semitones: [(symbol, 1)]
        }
    }
}

extension String {
    /// The string with the typographic minus (U+2212) replaced by ASCII `-`.
    var replacingMinusSign: String {
        String(map { $0 == "\u{2212}" ? "-" : $0 })
    }
}
