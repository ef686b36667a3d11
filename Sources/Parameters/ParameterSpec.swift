/// One row of the parameter table: everything the project knows about a parameter.
///
/// A spec is plain data plus pure functions: the taper (value ↔ normalised position), the
/// text a person reads and types, and the mapping into the engine's working domain
/// (decibels become amplitude for the built-in gain). The engine copies the
/// trivially-copyable parts it needs at `prepare`, so the audio thread never touches the
/// strings held here.
public struct ParameterSpec: Sendable, Hashable {
    /// Stable text id (`cutoff`): typed on the command line, stored in presets.
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
    /// How the engine glides toward a new value (`none` for stepped kinds).
    public let smoothing: Smoothing
    /// When true, the range minimum means "off" (gain at −60 dB is silence, not −60 dB).
    public let minimumIsSilence: Bool
    /// The MIDI control change number (in ``midiControllerRange``) that turns this knob unless
    /// told otherwise, or nil: for the built-in engine the General MIDI 2 sound controller for
    /// the same job, so a controller's "cutoff" or "volume" knob works without setting up.
    public let midiController: Int?
    /// Continuous, or one of the stepped kinds.
    public let kind: ParameterKind
    /// For decibels: the engine glides it in amplitude (a gain stage's level, whose glide
    /// sounds even that way) rather than in decibels (a plug-in's control, which gets the
    /// value in its own unit).
    public let glidesInAmplitude: Bool
    /// The plug-in's own words for this row's values, where it has them (``ParameterTexts``).
    public let ownTexts: OwnTexts?
    /// An enumeration's points are in rising order of value: a value's nearest is found by
    /// halving (a plug-in's programs: thousands of points), not by a search of them all.
    private let pointsRise: Bool

    /// Control change numbers that can turn a knob: 120…127 are channel mode messages (all
    /// notes off and the like), not controls.
    public static let midiControllerRange = 0...119

    public init(
        id: String, name: String, unit: ParameterUnit, range: ClosedRange<Double>,
        taper: Taper, defaultValue: Double, smoothing: Smoothing, minimumIsSilence: Bool = false,
        midiController: Int? = nil, kind: ParameterKind = .continuous, glidesInAmplitude: Bool = false,
        ownTexts: (any ParameterTexts)? = nil
    ) {
        precondition(range.contains(defaultValue), "default outside range for \(id)")
        precondition(taper != .logarithmic || range.lowerBound > 0, "log taper needs a positive range")
        precondition(midiController.map(Self.midiControllerRange.contains) ?? true,
                     "not a control change number for \(id)")
        if case .enumeration(let points) = kind { precondition(!points.isEmpty, "an enumeration without values: \(id)") }
        self.id = id
        self.name = name
        self.unit = unit
        self.range = range
        self.taper = taper
        self.defaultValue = defaultValue
        self.smoothing = kind.isStepped ? .none : smoothing
        self.minimumIsSilence = minimumIsSilence
        self.midiController = midiController
        self.kind = kind
        self.glidesInAmplitude = glidesInAmplitude && unit == .decibels
        self.ownTexts = ownTexts.map(OwnTexts.init)
        if case .enumeration(let points) = kind {
            pointsRise = zip(points, points.dropFirst()).allSatisfy { $0.value < $1.value }
        } else {
            pointsRise = false
        }
    }

    /// The same row under another id (a chain names a slot's rows `SLOT.ID`), answering to
    /// `midiController` instead of its own.
    public func renamed(_ newID: String, midiController newController: Int?) -> ParameterSpec {
        ParameterSpec(id: newID, name: name, unit: unit, range: range, taper: taper, defaultValue: defaultValue,
                      smoothing: smoothing, minimumIsSilence: minimumIsSilence, midiController: newController,
                      kind: kind, glidesInAmplitude: glidesInAmplitude, ownTexts: ownTexts?.texts)
    }

    /// The same row with `texts` as the plug-in's words.
    public func withOwnTexts(_ texts: any ParameterTexts) -> ParameterSpec {
        ParameterSpec(id: id, name: name, unit: unit, range: range, taper: taper, defaultValue: defaultValue,
                      smoothing: smoothing, minimumIsSilence: minimumIsSilence, midiController: midiController,
                      kind: kind, glidesInAmplitude: glidesInAmplitude, ownTexts: texts)
    }

    /// The same row without the plug-in's words: for a plug-in run in another process whose
    /// words cannot be asked there.
    public var withoutOwnTexts: ParameterSpec {
        ParameterSpec(id: id, name: name, unit: unit, range: range, taper: taper, defaultValue: defaultValue,
                      smoothing: smoothing, minimumIsSilence: minimumIsSilence, midiController: midiController,
                      kind: kind, glidesInAmplitude: glidesInAmplitude)
    }

    /// Clamps a value into the range, and for stepped kinds onto the nearest step; non-finite
    /// values become the nearest bound (NaN becomes the default).
    public func clamp(_ value: Double) -> Double {
        if value.isNaN { return defaultValue }
        let v = min(max(value, range.lowerBound), range.upperBound)
        switch kind {
        case .continuous: return v
        case .toggle: return v > (range.lowerBound + range.upperBound) / 2 ? range.upperBound : range.lowerBound
        case .integer: return min(max(v.rounded(), range.lowerBound.rounded(.up)), range.upperBound.rounded(.down))
        case .enumeration(let points): return nearestPoint(to: v, in: points).value
        }
    }

    /// Every value a stepped parameter can hold, ascending; nil for continuous ones (and for
    /// integer ranges too wide to list).
    public var steps: [Double]? {
        switch kind {
        case .continuous: return nil
        case .toggle: return [range.lowerBound, range.upperBound]
        case .integer:
            let lo = range.lowerBound.rounded(.up), hi = range.upperBound.rounded(.down)
            guard hi - lo < 100_000 else { return nil }
            return Array(stride(from: lo, through: hi, by: 1))
        case .enumeration(let points):
            return points.map(\.value).filter(range.contains).sorted()
        }
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

    /// The value as a person reads it: `1.20 kHz`, `850 Hz`, `−6.0 dB`, `0.71`, `on`, `Lowpass`.
    ///
    /// - Parameter ascii: use `-` and `inf` instead of `−` and `∞` (for `--ascii` terminals).
    public func format(_ value: Double, ascii: Bool = false) -> String {
        format(value, ascii: ascii, extraDigits: 0)
    }

    /// The value with up to `extraDigits` more decimals where they are not zeros
    /// (`1.0715 kHz`), for continuous values: what a knob shows while turned finely. A row
    /// that shows the plug-in's own words (``ParameterTexts/showsOwnText``) shows them.
    public func format(_ value: Double, ascii: Bool, extraDigits: Int) -> String {
        if kind == .continuous, let texts = ownTexts?.texts, texts.showsOwnText, let text = texts.text(for: clamp(value)) {
            return ascii ? OwnTexts.ascii(text) : text
        }
        return formatNumber(value, ascii: ascii, extraDigits: extraDigits)
    }

    /// The value in Detent's own words whatever the plug-in says: a range's ends, which are
    /// what a person types.
    public func formatNumber(_ value: Double, ascii: Bool = false, extraDigits: Int = 0) -> String {
        switch kind {
        case .toggle:
            return clamp(value) > range.lowerBound ? "on" : "off"
        case .enumeration(let points):
            return nearestPoint(to: value, in: points).label
        case .integer:
            return unit.formatInteger(clamp(value), ascii: ascii)
        case .continuous:
            if minimumIsSilence && value <= range.lowerBound {
                return unit.formatSilence(ascii: ascii)
            }
            return unit.format(value, ascii: ascii, extraDigits: extraDigits)
        }
    }

    /// What a person may type, for error messages.
    public var expectation: String {
        switch kind {
        case .continuous, .integer: unit.expectation
        case .toggle: "on or off"
        case .enumeration(let points): "one of " + points.map(\.label).joined(separator: ", ")
        }
    }

    /// Parses a value typed by a person (`1.2k`, `800 Hz`, `-6 dB`, `-6`, `0.707`, `on`, a label).
    ///
    /// - Throws: ``ParameterError`` naming this parameter, what was typed and what is accepted;
    ///   values outside the range are refused, not silently clamped.
    public func parse(_ text: String) throws(ParameterError) -> Double {
        do {
            return try parseOwn(text)
        } catch {
            // A text Detent does not read as a value (`4:1`, `12 ms` for a row of 0…1), in the
            // plug-in's words: the plug-in reads it, when it can. A bare number stays the
            // row's own value, so a number out of range is refused as such.
            let trimmed = text.trimmedWhitespace
            guard let texts = ownTexts?.texts, ParameterUnit.none.parse(trimmed) == nil else { throw error }
            guard let value = texts.value(for: trimmed), value.isFinite else {
                // Said with an example of the plug-in's words, where the row shows them.
                guard case .invalidValue = error, kind == .continuous, texts.showsOwnText,
                      let example = texts.text(for: defaultValue) else { throw error }
                throw .invalidValue(id: id, text: text, expected: "\(expectation) (\(rangeText)), or a value as the plug-in shows it, "
                                    + "such as \(example)")
            }
            let slack = (range.upperBound - range.lowerBound) * 1e-9
            guard value >= range.lowerBound - slack, value <= range.upperBound + slack else {
                throw .outOfRange(id: id, text: text, range: rangeText)
            }
            return clamp(value)
        }
    }

    /// ``parse(_:)`` in Detent's words alone.
    private func parseOwn(_ text: String) throws(ParameterError) -> Double {
        let trimmed = text.trimmedWhitespace
        switch kind {
        case .toggle:
            let word = trimmed.lowercased()
            if ["on", "true", "yes", "1"].contains(word) { return range.upperBound }
            if ["off", "false", "no", "0"].contains(word) { return range.lowerBound }
            throw .invalidValue(id: id, text: text, expected: expectation)
        case .enumeration(let points):
            let word = trimmed.lowercased()
            if let point = points.first(where: { $0.label.lowercased() == word }) { return point.value }
            if let number = ParameterUnit.none.parse(trimmed), let point = points.first(where: { $0.value == number }) {
                return point.value
            }
            throw .invalidValue(id: id, text: text, expected: expectation)
        case .continuous, .integer:
            break
        }
        // A number first, the common case; a silence word (`-inf`, `off`) is no number.
        guard let value = unit.parse(trimmed), value.isFinite else {
            if minimumIsSilence, ParameterUnit.isSilenceWord(trimmed) { return range.lowerBound }
            throw .invalidValue(id: id, text: text, expected: expectation)
        }
        // Tolerate the rounding of a value that was itself formatted from the range ends.
        let slack = (range.upperBound - range.lowerBound) * 1e-9
        guard value >= range.lowerBound - slack, value <= range.upperBound + slack else {
            throw .outOfRange(id: id, text: text, range: rangeText)
        }
        return clamp(value)
    }

    /// The range as an error message states it: `20.0 Hz … 20.0 kHz`. A silent minimum is
    /// written as its number, with the word that asks for silence, so a value just below it
    /// is plainly out of range (`-60.0 dB … +12.0 dB, or -inf for silence`).
    public var rangeText: String {
        let upper = formatNumber(range.upperBound, ascii: true)
        guard minimumIsSilence, kind == .continuous else { return "\(formatNumber(range.lowerBound, ascii: true)) … \(upper)" }
        return "\(unit.format(range.lowerBound, ascii: true)) … \(upper), or -inf for silence"
    }

    /// The value in the engine's working domain: amplitude for decibels (0 at a silent
    /// minimum) when `amplitude` is set (``glidesInAmplitude``); the value itself otherwise.
    /// Real-time safe.
    @_noLocks @inlinable
    public static func engineValue(
        _ value: Double, unit: ParameterUnit, silenceBelow floor: Double, amplitude: Bool = true
    ) -> Double {
        guard amplitude, case .decibels = unit else { return value }
        return value <= floor ? 0 : RealtimeMath.exp2(value * RealtimeMath.log2Of10 / 20.0)
    }

    /// The engine-domain value of `value` for this row (see ``engineValue(_:unit:silenceBelow:amplitude:)``).
    public func engineValue(_ value: Double) -> Double {
        Self.engineValue(value, unit: unit, silenceBelow: silenceFloor, amplitude: glidesInAmplitude)
    }

    /// Back from the engine domain to the parameter's own unit (for meters and read-outs).
    public func value(fromEngine engine: Double) -> Double {
        switch unit {
        case .decibels where glidesInAmplitude:
            guard engine > 0 else { return range.lowerBound }
            return clamp(20 * RealtimeMath.log2(engine) / RealtimeMath.log2Of10)
        default:
            return engine
        }
    }

    /// Values at or below this are silence (−∞ when the minimum is a real value).
    public var silenceFloor: Double { minimumIsSilence ? range.lowerBound : -.infinity }

    private func nearestPoint(to value: Double, in points: [ScalePoint]) -> ScalePoint {
        guard pointsRise, !value.isNaN else { return points.min(by: { abs($0.value - value) < abs($1.value - value) })! }
        // The first point not below the value, or the one before it, whichever is nearer (the
        // earlier on a tie, as the search of them all chooses).
        var low = 0, high = points.count
        while low < high {
            let middle = (low + high) / 2
            if points[middle].value < value { low = middle + 1 } else { high = middle }
        }
        if low == points.count { return points[low - 1] }
        if low == 0 { return points[0] }
        return abs(points[low - 1].value - value) <= abs(points[low].value - value) ? points[low - 1] : points[low]
    }
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
