import Parameters

/// How a knob over a plain range writes and reads its numbers: a fixed number of decimals and an
/// optional unit suffix (`"0.50"`, `"12 %"`, `"3.0 st"`).
///
/// Table parameters never use this: their text comes from ``DSP/ParameterSpec/format(_:ascii:)``
/// and ``DSP/ParameterSpec/parse(_:)``. This covers knobs the table does not know (a panel's own
/// settings, tests, tools).
///
/// ```swift
/// let percent = KnobNumberFormat(decimals: 0, unit: "%")
/// percent.format(42.4)      // "42 %"
/// percent.parse("42%")      // 42
/// ```
public struct KnobNumberFormat: Sendable, Hashable {
    /// Digits after the decimal point (0…9).
    public let decimals: Int
    /// Written after the number with a space; accepted, optionally, after a typed number.
    public let unit: String

    public init(decimals: Int = 2, unit: String = "") {
        self.decimals = min(max(decimals, 0), 9)
        self.unit = unit
    }

    /// `value` with exactly ``decimals`` places, rounded half away from zero, and the unit.
    /// Negative values use `−` (U+2212), or `-` when `ascii`; a value that rounds to zero
    /// never shows a sign.
    public func format(_ value: Double, ascii: Bool = false) -> String {
        let number = DecimalText.fixed(value, decimals: decimals, ascii: ascii)
        return unit.isEmpty ? number : number + " " + unit
    }

    /// The number in `text`, with or without the unit (case-insensitive), `+`/`-`/`−` signs and
    /// surrounding spaces; nil when `text` is not one finite number.
    public func parse(_ text: String) -> Double? {
        var s = Substring(String(text.map { $0 == "\u{2212}" ? "-" : $0 }))
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        if !unit.isEmpty, s.lowercased().hasSuffix(unit.lowercased()) {
            s.removeLast(unit.count)
            while let c = s.last, c.isWhitespace { s.removeLast() }
        }
        if s.first == "+" {
            s.removeFirst()
            guard s.first != "-", s.first != "+" else { return nil }
        }
        // `Double` also reads "nan" and "inf"; a typed value must be a plain number.
        guard let number = Double(s), number.isFinite else { return nil }
        return number
    }

    /// Half a unit of the last written digit: how far a formatted number may lie from the value.
    public var halfUnit: Double {
        var unit = 1.0
        for _ in 0..<decimals { unit /= 10 }
        return unit / 2
    }
}
