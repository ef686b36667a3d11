#if canImport(Glibc)
import Glibc
#endif

/// The RBJ cookbook lowpass biquad (bilinear transform prewarped at the cutoff), evaluated
/// in Double straight from its published formula: the independent reference that both the
/// engine's filter and the panel's drawn response curve are checked against.
public enum CookbookLowpass {
    /// |H(e^jω)| in dB at `frequency`.
    public static func decibels(at frequency: Double, cutoff: Double, q: Double, sampleRate: Double) -> Double {
        let w0 = 2 * Double.pi * cutoff / sampleRate
        let alpha = sin(w0) / (2 * q)
        let cw = cos(w0)
        let b0 = (1 - cw) / 2, b1 = 1 - cw, b2 = (1 - cw) / 2
        let a0 = 1 + alpha, a1 = -2 * cw, a2 = 1 - alpha
        let w = 2 * Double.pi * frequency / sampleRate
        func magnitude(_ c0: Double, _ c1: Double, _ c2: Double) -> Double {
            let re = c0 + c1 * cos(w) + c2 * cos(2 * w)
            let im = -(c1 * sin(w) + c2 * sin(2 * w))
            return (re * re + im * im).squareRoot()
        }
        return 20 * log10(magnitude(b0, b1, b2) / magnitude(a0, a1, a2))
    }
}
