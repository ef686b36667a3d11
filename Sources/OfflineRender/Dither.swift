/// The dither an integer output of 16 bits or fewer gets (`--dither`). Finer encodings, floats
/// and lossy codecs are never dithered: their rounding error is far below anything audible,
/// or not theirs to shape.
public enum Dither: String, CaseIterable, Sendable {
    /// Plain rounding: the error follows the signal (distortion on quiet material).
    case none
    /// Triangular (±1 step) noise before rounding: the error becomes steady white noise,
    /// independent of the signal. The default.
    case tpdf
    /// TPDF dither inside an error-feedback loop that moves the noise out of the 1–5 kHz
    /// region where the ear is most sensitive, towards the top of the band (``NoiseShaper``).
    /// At 44.1 and 48 kHz only; other rates get plain TPDF.
    case shaped

    /// Whether noise is added at all.
    public var adds: Bool { self != .none }
}
