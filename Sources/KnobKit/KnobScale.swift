import Parameters

/// What a knob turns: a row of the parameter table, or a plain range of numbers.
///
/// A scale answers the questions a knob asks of its parameter — the range, the taper between a
/// value and its normalised position 0…1, the default, and the text a person reads and types —
/// without the knob knowing where the answers come from. For table parameters every answer is
/// the table's own (``Parameters/ParameterSpec``); nothing here repeats a range, default or unit.
///
/// ```swift
/// let cutoff = KnobScale(LowpassGain.table[.cutoff])  // range, taper, text from the table
/// let mix = try KnobScale(name: "Mix", range: 0...100, defaultValue: 50,
///                         format: KnobNumberFormat(decimals: 0, unit: "%"))
/// ```
public struct KnobScale: Sendable, Hashable {
    enum Source: Sendable, Hashable {
        case parameter(ParameterSpec)
        case plain(name: String, range: ClosedRange<Double>, defaultValue: Double, taper: Taper, format: KnobNumberFormat)
    }

    let source: Source

    /// A scale that reads everything from a table row.
    public init(_ spec: ParameterSpec) {
        source = .parameter(spec)
    }

    /// A scale over a plain range, for knobs the parameter table does not describe.
    ///
    /// - Throws: ``KnobError`` when the range is not finite, holds one value, excludes the
    ///   default, or is not above zero for a logarithmic taper.
    public init(
        name: String, range: ClosedRange<Double>, defaultValue: Double,
        taper: Taper = .linear, format: KnobNumberFormat = KnobNumberFormat()
    ) throws(KnobError) {
        guard range.lowerBound.isFinite, range.upperBound.isFinite else { throw .nonFiniteRange(name: name) }
        guard range.lowerBound < range.upperBound else { throw .emptyRange(name: name) }
        guard range.contains(defaultValue) else { throw .defaultOutsideRange(name: name, value: defaultValue) }
        guard taper != .logarithmic || range.lowerBound > 0 else { throw .taperNeedsPositiveRange(name: name) }
        source = .plain(name: name, range: range, defaultValue: defaultValue, taper: taper, format: format)
    }

    /// The table row behind this scale, if it has one.
    public var spec: ParameterSpec? {
        if case .parameter(let spec) = source { return spec }
        return nil
    }

    /// The name shown on the knob when it is idle (`Cutoff`).
    public var name: String {
        switch source {
        case .parameter(let spec): spec.name
        case .plain(let name, _, _, _, _): name
        }
    }

    /// The values the knob can take.
    public var range: ClosedRange<Double> {
        switch source {
        case .parameter(let spec): spec.range
        case .plain(_, let range, _, _, _): range
        }
    }

    /// The factory default (a knob's own default may be moved, e.g. by a "Default" preset).
    public var defaultValue: Double {
        switch source {
        case .parameter(let spec): spec.defaultValue
        case .plain(_, _, let value, _, _): value
        }
    }

    /// How positions 0…1 map onto the range.
    public var taper: Taper {
        switch source {
        case .parameter(let spec): spec.taper
        case .plain(_, _, _, let taper, _): taper
        }
    }

    /// Every value a stepped parameter (toggle, integer, enumeration) can hold, ascending; nil
    /// for continuous ones. Wheel notches and keys move one step at a time through these.
    public var steps: [Double]? {
        if case .parameter(let spec) = source { return spec.steps }
        return nil
    }

    /// `value` inside the range: infinities become the nearest bound, NaN the default.
    public func clamp(_ value: Double) -> Double {
        switch source {
        case .parameter(let spec):
            return spec.clamp(value)
        case .plain(_, let range, let defaultValue, _, _):
            if value.isNaN { return defaultValue }
            return min(max(value, range.lowerBound), range.upperBound)
        }
    }

    /// The normalised position (0…1) of `value` through the taper.
    public func normalized(_ value: Double) -> Double {
        switch source {
        case .parameter(let spec):
            return spec.normalized(value)
        case .plain:
            return min(max(taper.normalized(clamp(value), in: range), 0), 1)
        }
    }

    /// The value at normalised position `position` (clamped to 0…1; NaN counts as 0).
    public func value(atNormalized position: Double) -> Double {
        switch source {
        case .parameter(let spec):
            return spec.value(atNormalized: position)
        case .plain:
            let p = position.isNaN ? 0 : min(max(position, 0), 1)
            return clamp(taper.value(atNormalized: p, in: range))
        }
    }

    /// The value as a person reads it (`1.20 kHz`, `−6.0 dB`, `42 %`).
    /// `extraDigits` more decimals, where they are not zeros, show fine steps (`1.0715 kHz`).
    public func format(_ value: Double, ascii: Bool = false, extraDigits: Int = 0) -> String {
        switch source {
        case .parameter(let spec):
            return spec.format(value, ascii: ascii, extraDigits: extraDigits)
        case .plain(_, _, _, _, let format):
            guard extraDigits > 0 else { return format.format(value, ascii: ascii) }
            let number = DecimalText.fixed(value, decimals: format.decimals, extraDecimals: extraDigits, ascii: ascii)
            return format.unit.isEmpty ? number : number + " " + format.unit
        }
    }

    /// A value typed by a person, through the table's parser (units, `k`, `-inf` for silence) or
    /// the plain range's number format.
    ///
    /// - Throws: ``Parameters/ParameterError`` naming the parameter, the text and what is accepted;
    ///   a value outside the range is refused, not clamped.
    public func parse(_ text: String) throws(ParameterError) -> Double {
        switch source {
        case .parameter(let spec):
            return try spec.parse(text)
        case .plain(let name, let range, _, _, let format):
            guard let value = format.parse(text) else {
                let example = format.format(defaultValue, ascii: true)
                throw .invalidValue(id: name, text: text, expected: "a number (e.g. \(example))")
            }
            // Tolerate the rounding of a value that was itself formatted from a range end
            // (half a unit of the last written digit).
            let limit = format.halfUnit
            guard value >= range.lowerBound - limit, value <= range.upperBound + limit else {
                throw .outOfRange(
                    id: name, text: text,
                    range: "\(format.format(range.lowerBound, ascii: true)) … \(format.format(range.upperBound, ascii: true))")
            }
            return clamp(value)
        }
    }
}
