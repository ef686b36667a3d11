import Parameters

/// One knob movement on its way to the audio thread.
///
/// `value` is in the parameter's own unit (Hz, Q, dB): the engine maps it into its working
/// domain. `frame` is the engine frame (counted from the last `reset`) at which the change
/// takes effect, for sample-accurate automation; ``ParameterChange/now`` applies it at the
/// start of the next block. `rampFrames` overrides the engine's smoothing time for this
/// change (0 jumps; ``ParameterChange/defaultRamp`` uses the engine's).
public struct ParameterChange: Sendable, Equatable, BitwiseCopyable {
    /// The parameter's row in its processor's table, as a plain integer for the audio thread.
    public private(set) var index: Int
    public var value: Double
    public var frame: Int64
    public var rampFrames: Int32
    /// Set by the queue: orders this change against values that took the overflow path.
    @usableFromInline var epoch: UInt32 = 0

    /// Apply at the start of the next block processed.
    public static var now: Int64 { .min }
    /// Use the engine's smoothing time.
    public static var defaultRamp: Int32 { -1 }

    public init(_ parameter: ParameterIndex, _ value: Double, frame: Int64 = ParameterChange.now,
                rampFrames: Int32 = ParameterChange.defaultRamp) {
        self.index = parameter.rawValue
        self.value = value
        self.frame = frame
        self.rampFrames = rampFrames
    }

    /// The parameter this change moves.
    public var parameter: ParameterIndex {
        get { ParameterIndex(index) }
        set { index = newValue.rawValue }
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.index == b.index && a.value == b.value && a.frame == b.frame
            && a.rampFrames == b.rampFrames
    }
}


