/// Fixed-point decimal text without Foundation: the one formatter behind every number Detent
/// shows (the parameter table, knobs over plain ranges), and the one parser of every number
/// a person types (values, automation times, loudness targets, tails).
public enum DecimalText {
    /// A plain decimal number, the one rule for typed numbers: an optional sign, digits with an
    /// optional point (`3`, `-0.5`, `.5`, `2.`), an optional exponent (`1e3`); finite. Not hex
    /// (`Double("0x400")` is 1024: `set cutoff 0x400` must not set 1024 Hz), not `inf` or
    /// `nan`, no spaces, no typographic minus (callers replace it), nothing after the number.
    public static func number<Text: StringProtocol>(_ text: Text) -> Double? {
        var bytes = text.utf8.makeIterator()
        var digits = 0, point = false, exponent = false, exponentDigits = 0, previous: UInt8 = 0, count = 0
        while let b = bytes.next() {
            count += 1
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if exponent { exponentDigits += 1 } else { digits += 1 }
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                // A sign only first, or right after the exponent's `e`.
                guard count == 1 || (previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E")) else { return nil }
            case UInt8(ascii: "."):
                guard !point, !exponent else { return nil }
                point = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard !exponent, digits > 0 else { return nil }
                exponent = true
            default:
                return nil
            }
            previous = b
        }
        guard digits > 0, !exponent || exponentDigits > 0, let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }

    /// A typed value, the one rule on every surface (`--set`, typed commands, the panels, OSC
    /// strings, presets' text): surrounding spaces, an optional leading `+`, the typographic
    /// minus (U+2212), then a plain ``number(_:)``, then optionally — after spaces or none —
    /// the first of `suffixes` it ends with (case-insensitive), whose scale multiplies it
    /// (`"1.2 kHz"` with `("khz", 1000)`). Spaces inside the number are refused (`"1 2 0 0"`
    /// is not 1200), as are hex, `inf` and `nan`.
    public static func typed(_ text: String, suffixes: [(suffix: String, scale: Double)] = []) -> Double? {
        // A plain number, the common case (a batch reads a value or more per job), is read
        // as bytes without the work on characters below, which gives it the same value.
        if let plain = number(text) { return plain }
        var s = Substring(String(text.map { $0 == "\u{2212}" ? "-" : $0 }))
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        var scale = 1.0
        let lowered = s.lowercased()
        if let match = suffixes.first(where: { !$0.suffix.isEmpty && lowered.hasSuffix($0.suffix.lowercased()) }) {
            s.removeLast(match.suffix.count)
            scale = match.scale
            while let c = s.last, c.isWhitespace { s.removeLast() }
        }
        if s.first == "+" {
            s.removeFirst()
            guard s.first != "-", s.first != "+" else { return nil }
        }
        guard let number = number(s) else { return nil }
        return number * scale
    }

    /// `value` rounded to `decimals` places (half away from zero).
    public static func rounded(_ value: Double, decimals: Int) -> Double {
        let scale = power10(decimals)
        return (value * scale).rounded(.toNearestOrAwayFromZero) / scale
    }

    /// `value` written with exactly `decimals` places, rounded half away from zero. Negative
    /// values use `−` (U+2212), or `-` when `ascii`; a value that rounds to zero never shows
    /// a sign.
    public static func fixed(_ value: Double, decimals: Int, ascii: Bool = false) -> String {
        guard value.isFinite else {
            return value.isNaN ? "nan" : (value < 0 ? (ascii ? "-inf" : "\u{2212}∞") : (ascii ? "inf" : "∞"))
        }
        let scale = power10(decimals)
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        // Beyond 2^63 the integer path would trap; such numbers are written the standard way.
        guard scaled < 9.2e18 else { return String(value) }
        let units = UInt64(scaled)
        let divisor = UInt64(scale)
        var text = String(units / divisor)
        if decimals > 0 {
            let fraction = String(units % divisor)
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return (value < 0 && units != 0 ? (ascii ? "-" : "\u{2212}") : "") + text
    }

    /// `value` with at least `decimals` places and up to `extraDecimals` more where they are
    /// not zeros: `1.0715` for 1.07153 at 2 + 2, but `1.00` for 1.0. What a knob shows while
    /// turned finely, so a fine step is seen without every value growing trailing zeros.
    public static func fixed(_ value: Double, decimals: Int, extraDecimals: Int, ascii: Bool = false) -> String {
        var text = fixed(value, decimals: decimals + max(extraDecimals, 0), ascii: ascii)
        guard value.isFinite, extraDecimals > 0, text.contains(".") else { return text }
        var removable = extraDecimals
        while removable > 0, text.last == "0" {
            text.removeLast()
            removable -= 1
        }
        if text.last == "." { text.removeLast() }
        return text
    }

    private static func power10(_ n: Int) -> Double {
        var p = 1.0
        for _ in 0..<n { p *= 10 }
        return p
    }
}
