/// One output channel's level over the interval since the previous reading (linear amplitude,
/// 1 = full scale).
public struct MeterReading: Sendable, Hashable {
    /// How the meter is labelled (`L`, `R`, `3`).
    public var label: String
    public var peak: Double
    public var rms: Double

    public init(label: String, peak: Double, rms: Double) {
        self.label = label
        self.peak = peak
        self.rms = rms
    }
}
