/// Where a transport is, as a processor that follows one is told it (LV2's `time:Position`):
/// a live host reads it from JACK's transport when a timebase master gives bars and beats.
public struct TransportPosition: Sendable, Equatable, BitwiseCopyable {
    /// The transport's frame.
    public var frame: Int64
    public var rolling: Bool
    /// The bar, from 0.
    public var bar: Int64
    /// The beat within the bar, from 0, with its fraction.
    public var barBeat: Double
    /// Beats since the start, with their fraction.
    public var beat: Double
    public var beatsPerBar: Double
    /// The note value of a beat (4: a quarter note).
    public var beatUnit: Int32
    public var beatsPerMinute: Double

    /// The tempos `--bpm` takes.
    public static let tempoRange = 1.0...999.0

    @inlinable
    public init(frame: Int64, rolling: Bool, bar: Int64, barBeat: Double, beat: Double, beatsPerBar: Double,
                beatUnit: Int32, beatsPerMinute: Double) {
        self.frame = frame
        self.rolling = rolling
        self.bar = bar
        self.barBeat = barBeat
        self.beat = beat
        self.beatsPerBar = beatsPerBar
        self.beatUnit = beatUnit
        self.beatsPerMinute = beatsPerMinute
    }
}
