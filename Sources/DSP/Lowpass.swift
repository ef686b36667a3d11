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

    /// The filter's coefficients, broadcast to the SIMD lanes.
    public struct Coefficients: Sendable, BitwiseCopyable, Equatable {
        public var a1: SIMD4<Float>
        public var a2: SIMD4<Float>
        public var a3: SIMD4<Float>

        /// Coefficients for `cutoff` Hz (clamped below Nyquist) and quality `q` at `sampleRate`.
        @_noLocks @inlinable
        public init(cutoff: Double, q: Double, sampleRate: Double) {
            let fc = min(max(cutoff, 1e-3), maximumCutoffRatio * sampleRate)
            let g = RealtimeMath.tan(Double.pi * fc / sampleRate)
            let k = 1 / max(q, 1e-3)
            let a1 = 1 / (1 + g * (g + k))
            let a2 = g * a1
            self.a1 = SIMD4(repeating: Float(a1))
            self.a2 = SIMD4(repeating: Float(a2))
            self.a3 = SIMD4(repeating: Float(g * a2))
        }
    }

    /// The two integrator states of four channels.
    public struct State: Sendable, BitwiseCopyable, Equatable {
        public var ic1 = SIMD4<Float>()
        public var ic2 = SIMD4<Float>()
        public init() {}

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

    /// One sample of four channels; returns the lowpass output.
    @_noLocks @inline(__always)
    public static func tick(_ x: SIMD4<Float>, _ c: Coefficients, _ s: inout State) -> SIMD4<Float> {
        let v3 = x - s.ic2
        let v1 = c.a1 * s.ic1 + c.a2 * v3
        let v2 = s.ic2 + c.a2 * s.ic1 + c.a3 * v3
        s.ic1 = 2 * v1 - s.ic1
        s.ic2 = 2 * v2 - s.ic2
        return v2
    }
}
