import Parameters

/// The resonant lowpass: a topology-preserving (trapezoidal) state-variable filter.
///
/// Its magnitude response equals the bilinear transform of H(s) = 1 / (s² + s/Q + 1) with
/// prewarping at the cutoff — the RBJ cookbook lowpass — but unlike a direct-form biquad it
/// stays stable and click-free while its cutoff moves every few samples (Zavalishin; the
/// form is Andrew Simper's: g = tan(π·fc/fs), k = 1/Q, a1 = 1/(1+g(g+k)), a2 = g·a1,
/// a3 = g·a2). Four channels run side by side in SIMD lanes: the filter's recursion is a
/// chain of dependent multiplies, so independent channels in lanes cost almost nothing more.
public enum Lowpass {
    /// The highest cutoff, as a fraction of the sample rate: just below Nyquist, where the
    /// prewarped coefficient `tan(π·fc/fs)` would grow without bound.
    public static var maximumCutoffRatio: Double { @_noLocks get { 0.49 } }

    /// The analog prototype's two numbers for `cutoff` Hz (clamped below Nyquist) and quality
    /// `q` at `sampleRate`: the prewarped frequency g = tan(π·fc/fs) and the damping k = 1/Q.
    @_noLocks @inlinable
    public static func prototype(cutoff: Double, q: Double, sampleRate: Double) -> (g: Double, k: Double) {
        let fc = min(max(cutoff, 1e-3), maximumCutoffRatio * sampleRate)
        return (RealtimeMath.tan(Double.pi * fc / sampleRate), 1 / max(q, 1e-3))
    }

    /// The filter's coefficients, broadcast to the SIMD lanes.
    ///
    /// Simper's tick, with v3 = x − ic2, v1 = a1·ic1 + a2·v3, v2 = ic2 + a2·ic1 + a3·v3 and
    /// the states updated to 2v1 − ic1 and 2v2 − ic2, is a chain of five dependent operations
    /// from one sample's states to the next. Expanded, the same update reads
    ///
    ///     ic1' = (ic1 + k1·ic1) + k2·(x − ic2)          k1 = 2(a1 − 1) = −2g(g+k)·a1
    ///     ic2' = (ic2 − k3·ic2) + (k2·ic1 + k3·x)       k2 = 2a2,  k3 = 2a3
    ///     v2   = (ic2 + ic2') / 2
    ///
    /// which is three dependent operations deep: the recursion, not the arithmetic, bounds
    /// the filter's speed, so this runs in about 3/5 of the time. As in Simper's form, each
    /// state moves by increments added to itself; k1 is computed from g and k rather than as
    /// 2(a1 − 1), so it keeps its precision at low cutoffs.
    public struct Coefficients: Sendable, BitwiseCopyable, Equatable {
        public var k1: SIMD4<Float>
        public var k2: SIMD4<Float>
        public var k3: SIMD4<Float>

        /// Coefficients for `cutoff` Hz (clamped below Nyquist) and quality `q` at `sampleRate`.
        @_noLocks @inlinable
        public init(cutoff: Double, q: Double, sampleRate: Double) {
            let (g, k) = Lowpass.prototype(cutoff: cutoff, q: q, sampleRate: sampleRate)
            let a1 = 1 / (1 + g * (g + k))
            let a2 = g * a1
            self.init(k1: SIMD4(repeating: Float(-2 * g * (g + k) * a1)),
                      k2: SIMD4(repeating: Float(2 * a2)),
                      k3: SIMD4(repeating: Float(2 * g * a2)))
        }

        /// Coefficients given directly (the render path's per-span values while gliding).
        @_noLocks @inline(__always)
        public init(k1: SIMD4<Float>, k2: SIMD4<Float>, k3: SIMD4<Float>) {
            self.k1 = k1
            self.k2 = k2
            self.k3 = k3
        }
    }

    /// The two integrator states of four channels.
    public struct State: Sendable, BitwiseCopyable, Equatable {
        public var ic1 = SIMD4<Float>()
        public var ic2 = SIMD4<Float>()
        public init() {}

        /// States below this (−400 dB) are settled to zero: far below any signal's
        /// precision, so nothing audible or measurable changes.
        public static var settleThreshold: Float { @_noLocks get { 1e-20 } }

        /// Lanes whose two states are both below ``settleThreshold`` become exactly zero.
        ///
        /// With denormals flushed, a silent filter's decay stalls near the smallest normal
        /// float (about 1e-37): each state's step rounds to nothing and the output cycles
        /// there for ever, never reaching digital silence — which silence detection and null
        /// tests rely on. The engine calls this at fixed points of its timeline, so it is the
        /// same live and offline, and a state that small is far below any signal it carries.
        @_noLocks @inlinable
        public mutating func settle() {
            let t = SIMD4<Float>(repeating: Self.settleThreshold)
            let small = ((ic1 .< t) .& (ic1 .> -t)) .& ((ic2 .< t) .& (ic2 .> -t))
            if any(small) {
                ic1.replace(with: 0, where: small)
                ic2.replace(with: 0, where: small)
            }
        }

        /// Lanes whose state overflowed to inf or NaN restart from silence.
        @_noLocks @inlinable
        public mutating func recoverNonFinite() {
            let bad = ((ic1 - ic1) .!= 0) .| ((ic2 - ic2) .!= 0)
            if any(bad) {
                ic1.replace(with: 0, where: bad)
                ic2.replace(with: 0, where: bad)
            }
        }
    }

    /// One sample of four channels; returns the lowpass output. The parentheses are the
    /// point (see ``Coefficients``): they keep each state's chain three operations deep.
    @_noLocks @inline(__always)
    public static func tick(_ x: SIMD4<Float>, _ c: Coefficients, _ s: inout State) -> SIMD4<Float> {
        let ic1 = (s.ic1 + c.k1 * s.ic1) + c.k2 * (x - s.ic2)
        let ic2 = (s.ic2 - c.k3 * s.ic2) + (c.k2 * s.ic1 + c.k3 * x)
        let v2 = (s.ic2 + ic2) * 0.5
        s.ic1 = ic1
        s.ic2 = ic2
        return v2
    }
}
