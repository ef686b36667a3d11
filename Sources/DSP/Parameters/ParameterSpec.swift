/// One row of the parameter table: everything the project knows about a parameter.
///
/// A spec is plain data plus pure functions: the taper (value ↔ normalised position), the
/// text a person reads and types, and the mapping into the engine's working domain
/// (decibels become amplitude). The engine copies the trivially-copyable parts it needs
/// at `prepare`, so the audio thread never touches the strings held here.
public struct ParameterSpec: Sendable, Hashable {
    /// Stable text id (`cutoff`).
    public let id: String
    /// Display name (`Cutoff`).
    public let name: String
    /// Unit: decides formatting, accepted suffixes when parsing, and the engine mapping.
    public let unit: ParameterUnit
    /// Valid values, in `unit`.
    public let range: ClosedRange<Double>
    /// How a normalised position 0…1 maps onto `range`.
    public let taper: Taper
    /// The factory default (a "Default" preset may override it).
    public let defaultValue: Double
    /// How the engine glides toward a new value.
    public let smoothing: Smoothing
    /// When true, the range minimum means "off" (gain at −60 dB is silence, not −60 dB).
    public let minimumIsSilence: Bool
    /// The MIDI control change number (in ``midiControllerRange``) that turns this knob unless told otherwise:
    /// the General MIDI 2 sound controller for the same job, so a controller's "cutoff"
    /// or "volume" knob works without setting anything up.
    public let midiController: Int

    /// Control change numbers that can turn a knob: 120…127 are channel mode messages (all
    /// notes off and the like), not controls.
    public static let midiControllerRange = 0...119

    public init(
        id: String, name: String, unit: ParameterUnit, range: ClosedRange<Double>,
        taper: Taper, defaultValue: Double, smoothing: Smoothing, minimumIsSilence: Bool = false,
        midiController: Int
    ) {
        precondition(range.contains(defaultValue), "default outside range for \(id)")
        precondition(taper != .logarithmic || range.lowerBound > 0, "log taper needs a positive range")
        precondition(Self.midiControllerRange.contains(midiController), "not a control change number for \(id)")
        self.id = id
        self.name = name
        self.unit = unit
        self.range = range
        self.taper = taper
        self.defaultValue = defaultValue
        self.smoothing = smoothing
        self.minimumIsSilence = minimumIsSilence
        self.midiController = midiController
    }

    /// Clamps a value into the range; non-finite values become the nearest bound
    /// (NaN becomes the default).
    public func clamp(_ value: Double) -> Double {
        if value.isNaN { return defaultValue }
        return min(max(value, range.lowerBound), range.upperBound)
    }

    /// The normalised position (0…1) of `value` through the taper.
    public func normalized(_ value: Double) -> Double {
        taper.normalized(clamp(value), in: range)
    }

    /// The value at normalised position `position` (clamped to 0…1).
    public func value(atNormalized position: Double) -> Double {
        let p = position.isNaN ? 0 : min(max(position, 0), 1)
        return clamp(taper.value(atNormalized: p, in: range))
    }

    /// The value as a person reads it: `1.20 kHz`, `850 Hz`, `−6.0 dB`, `0.71`.
    ///
    /// - Parameter ascii: use `-` and `inf` instead of `−` and `∞` (for `--ascii` terminals).
    public func format(_ value: Double, ascii: Bool = false) -> String {
        if minimumIsSilence && value <= range.lowerBound {
            return unit.formatSilence(ascii: ascii)
        }
        return unit.format(value, ascii: ascii)
    }

    /// Parses a value typed by a person (`1.2k`, `800 Hz`, `-6 dB`, `-6`, `0.707`).
    ///
    /// - Throws: ``ParameterError`` naming this parameter, what was typed and what is accepted;
    ///   values outside the range are refused, not silently clamped.
    public func parse(_ text: String) throws(ParameterError) -> Double {
        let trimmed = text.trimmedWhitespace
        if minimumIsSilence, ParameterUnit.silenceWords.contains(trimmed.lowercased()) {
            return range.lowerBound
        }
        guard let value = unit.parse(trimmed) else {
            throw .invalidValue(id: id, text: text, expected: unit.expectation)
        }
        guard value.isFinite else { throw .invalidValue(id: id, text: text, expected: unit.expectation) }
        // Tolerate the rounding of a value that was itself formatted from the range ends.
        let slack = (range.upperBound - range.lowerBound) * 1e-9
        guard value >= range.lowerBound - slack, value <= range.upperBound + slack else {
            throw .outOfRange(
                id: id, text: text,
                range: "\(format(range.lowerBound, ascii: true)) … \(format(range.upperBound, ascii: true))")
        }
        return clamp(value)
    }

    /// The value in the engine's working domain: amplitude for decibels (0 at a silent
    /// minimum), the value itself otherwise. Real-time safe.
    @_noLocks @inlinable
    public static func engineValue(
        _ value: Double, unit: ParameterUnit, silenceBelow floor: Double
    ) -> Double {
        switch unit {
        case .decibels:
            return value <= floor ? 0 : RealtimeMath.exp2(value * RealtimeMath.log2Of10 / 20.0)
        case .hertz, .quality:
            return value
        }
    }

    /// The engine-domain value of `value` for this row (see ``engineValue(_:unit:silenceBelow:)``).
    public func engineValue(_ value: Double) -> Double {
        Self.engineValue(value, unit: unit, silenceBelow: silenceFloor)
    }

    /// Back from the engine domain to the parameter's own unit (for meters and read-outs).
    public func value(fromEngine engine: Double) -> Double {
        switch unit {
        case .decibels:
            guard engine > 0 else { return range.lowerBound }
            return clamp(20 * RealtimeMath.log2(engine) / RealtimeMath.log2Of10)
        case .hertz, .quality:
            return engine
        }
    }

    /// Values at or below this are silence (−∞ when the minimum is a real value).
    public var silenceFloor: Double { minimumIsSilence ? range.lowerBound : -.infinity }
}

extension String {
    /// The text without leading and trailing spaces, tabs and newlines (no Foundation).
    public var trimmedWhitespace: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
