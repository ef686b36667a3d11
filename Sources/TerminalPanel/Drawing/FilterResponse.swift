import Glibc
import Parameters
import AudioEngine

/// The magnitude response of the engine's lowpass at given settings, for the panel's curve.
///
/// The engine's filter is the bilinear transform, prewarped at the cutoff, of
/// H(s) = 1 / (s² + k·s + 1) with k = 1/Q. The bilinear transform maps a digital frequency f to
/// the analog frequency tan(π·f/fs), and the prewarping divides by g = tan(π·fc/fs), so at f
///
///     Ω = tan(π·f/fs) / g,   |H|² = 1 / ((1 − Ω²)² + (k·Ω)²).
///
/// g and k come from ``AudioEngine/Lowpass/prototype(cutoff:q:sampleRate:)``, the function the
/// engine's coefficients are made from, so the curve shows the filter with the engine's own
/// clamping of the cutoff below Nyquist and of Q, not a second copy of those rules.
///
/// ```swift
/// let response = FilterResponse(cutoff: 1_000, q: 0.707, sampleRate: 48_000)
/// response.decibels(at: 1_000)   // ≈ −3.0
/// ```
public struct FilterResponse: Sendable, Hashable {
    public let sampleRate: Double
    /// The prewarped cutoff, tan(π·fc/fs).
    public let g: Double
    /// The damping, 1/Q.
    public let k: Double

    public init(cutoff: Double, q: Double, sampleRate: Double) {
        self.sampleRate = sampleRate
        (g, k) = Lowpass.prototype(cutoff: cutoff, q: q, sampleRate: sampleRate)
    }

    /// The gain at `frequency` Hz, in dB; nil at or above Nyquist, or for a frequency ≤ 0.
    public func decibels(at frequency: Double) -> Double? {
        guard frequency > 0, frequency < sampleRate / 2 else { return nil }
        let omega = tan(Double.pi * frequency / sampleRate) / g
        let w2 = omega * omega
        let denominator = (1 - w2) * (1 - w2) + k * k * w2
        return -10 * log10(denominator)
    }
}
