/// One read-only value a live processor outputs — a plug-in's level meter, gain reduction or
/// latency — as the panel shows it: in a section of its own under the knobs, a small meter
/// when its range is known, its value as text otherwise. Nothing turns it.
///
/// ```swift
/// PanelOutput(id: "grlm", label: "Gain reduction", unit: "dB", range: -48...0, value: -3.5)
/// ```
public struct PanelOutput: Sendable, Hashable {
    /// Stable id (a plug-in's port symbol).
    public var id: String
    /// What it is called on screen.
    public var label: String
    /// The unit written after the value (`dB`, `ms`), or empty.
    public var unit: String
    /// The values it can take, when the processor says: the meter's ends.
    public var range: ClosedRange<Double>?
    /// The latest value.
    public var value: Double
    /// Words shown in place of the value and its meter (a file parameter's file name).
    public var text: String?

    public init(id: String, label: String, unit: String = "", range: ClosedRange<Double>? = nil, value: Double, text: String? = nil) {
        self.id = id
        self.label = label
        self.unit = unit
        self.range = range
        self.value = value
        self.text = text
    }

    /// Where the value falls in its range (0 … 1), or nil without a range (or a range of one
    /// value, or a value that is not a number).
    public var fraction: Double? {
        guard let range, range.upperBound > range.lowerBound, !value.isNaN else { return nil }
        return min(max((value - range.lowerBound) / (range.upperBound - range.lowerBound), 0), 1)
    }
}
