import Parameters

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
        skip(1)
        return value
    }

    /// Advances `frames` samples, with exactly the arithmetic of as many `next()` calls
    /// (so the result does not depend on how a caller groups the frames), but without a
    /// bookkeeping branch per sample. Used for values read only now and then, such as the
    /// cutoff, whose coefficients are refreshed every few frames.
    @_noLocks @inline(__always)
    public mutating func skip(_ frames: Int) {
        let n = min(frames, length - elapsed)
        guard n > 0 else { return }
        elapsed += n
        if elapsed == length {
            value = target
            length = 0
            elapsed = 0
            return
        }
        if multiplicative && start > 0 && target > 0 {
            // A constant ratio per sample, clamped at each sample so rounding never overshoots.
            var v = value
            if start < target {
                for _ in 0..<n { v = min(v * step, target) }
            } else {
                for _ in 0..<n { v = max(v * step, target) }
            }
            value = v
        } else {
            // Linear ramps are evaluated in closed form: no drift, monotonic, no overshoot.
            let raw = start + step * Double(elapsed)
            value = start < target ? min(max(raw, start), target) : max(min(raw, start), target)
        }
    }

    /// Writes the next `count` sample values to `out`, exactly as `count` calls of `next()`
    /// would, with the frames of a linear ramp before its landing computed in one
    /// branch-free loop.
    @_noLocks @inline(__always)
    public mutating func fill(_ out: UnsafeMutablePointer<Float>, count: Int) {
        var k = 0
        if isRamping && !(multiplicative && start > 0 && target > 0) {
            let n = min(count, length - elapsed - 1)
            if n > 0 {
                let lo = min(start, target), hi = max(start, target)
                let first = elapsed + 1
                for j in 0..<n {
                    out[j] = Float(min(max(start + step * Double(first + j), lo), hi))
                }
                elapsed += n
                value = min(max(start + step * Double(elapsed), lo), hi)
                k = n
            }
        }
        while k < count && isRamping {
            out[k] = Float(next())
            k += 1
        }
        let v = Float(value)
        while k < count {
            out[k] = v
            k += 1
        }
    }
}
