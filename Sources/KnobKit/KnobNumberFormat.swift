import Parameters

/// How a knob over a plain range writes and reads its numbers: a fixed number of decimals and an
/// optional unit suffix (`"0.50"`, `"12 %"`, `"3.0 st"`).
///
/// Table parameters never use this: their text comes from ``Parameters/ParameterSpec/format(_:ascii:)``
/// and ``Parameters/ParameterSpec/parse(_:)``. This covers knobs the table does not know (a panel's own
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
    /// surrounding spaces; nil when `text` is not one plain decimal number (the one rule for
    /// typed values, ``DecimalText/typed(_:suffixes:)``: no hex, `inf`, `nan` or inner spaces).
    public func parse(_ text: String) -> Double? {
        DecimalText.typed(text, suffixes: unit.isEmpty ? [] : [(unit, 1)])
    }

    /// Half a unit of the last written digit: how far a formatted number may lie from the value.
    public var halfUnit: Double {
        var unit = 1.0
        for _ in 0..<decimals { unit /= 10 }
        return unit / 2
    }
}
