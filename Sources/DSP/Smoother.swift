/// A per-sample glide from the current value to a target, over a fixed number of samples.
///
/// - Linear ramps add a constant step; they are computed as `start + step·k` rather than
///   accumulated, so they never drift and never overshoot.
/// - Multiplicative ramps multiply by a constant ratio: equal time per octave, which is how a
///   cutoff sweep is heard.
///
/// The ramp lands exactly on the target on its last sample. A new target mid-ramp starts a
/// fresh ramp from the current value, so a knob turned quickly never jumps. Every value is
/// clamped between start and target, which keeps ramps monotonic under rounding.
///
/// Stepping is one sample at a time, whatever the block size, which keeps the output of the
/// engine independent of how its caller slices the audio into blocks.
public struct Smoother: Sendable, BitwiseCopyable {
    public let kind: Smoothing
    /// `kind` as a flag: comparing enums with raw values goes through generic code.
    let multiplicative: Bool
    /// The value of the current sample.
    public private(set) var value: Double
    /// Where the ramp ends.
    public private(set) var target: Double
    var start: Double = 0
    var step: Double = 0
    var elapsed: Int = 0
    var length: Int = 0

    public init(kind: Smoothing, value: Double) {
        self.kind = kind
        if case .multiplicative = kind { multiplicative = true } else { multiplicative = false }
        self.value = value
        self.target = value
    }

    /// True while a ramp is under way.
    public var isRamping: Bool {
        @_noLocks get { elapsed < length }
    }

    /// Samples left until the ramp lands (0 when settled).
    public var remaining: Int {
        @_noLocks get { length - elapsed }
    }

    /// Sets the value at once, ending any ramp.
    @_noLocks
    public mutating func jump(to newValue: Double) {
        value = newValue
        target = newValue
        elapsed = 0
        length = 0
    }

    /// Starts a ramp to `newTarget` over `frames` samples from the current value
    /// (a jump when `frames` ≤ 0 or nothing changes).
    @_noLocks
    public mutating func ramp(to newTarget: Double, frames: Int) {
        guard frames > 0, newTarget != value else {
            jump(to: newTarget)
            return
        }
        target = newTarget
        start = value
        elapsed = 0
        length = frames
        if multiplicative && value > 0 && newTarget > 0 {
            step = RealtimeMath.exp2(RealtimeMath.log2(newTarget / value) / Double(frames))
        } else {
            step = (newTarget - value) / Double(frames)
        }
    }

    /// Advances one sample and returns that sample's value.
    @_noLocks @inline(__always)
    public mutating func next() -> Double {
        guard elapsed < length else { return value }
        elapsed += 1
        if elapsed == length {
            value = target
            length = 0
            elapsed = 0
            return value
        }
        let raw: Double
        if multiplicative && start > 0 && target > 0 {
            raw = value * step
        } else {
            raw = start + step * Double(elapsed)
        }
        // Clamp between start and target so rounding never overshoots.
        value = start < target ? min(max(raw, start), target) : max(min(raw, start), target)
        return value
    }
}
