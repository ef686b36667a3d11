/// Turns float samples into integer PCM: scaled by 2^(bits−1) (the inverse of how samples are
/// read, so unprocessed samples survive a round trip unchanged), optionally TPDF-dithered,
/// rounded to the nearest step, and clipped — with every clipped sample counted.
///
/// The result is left-justified in 32 bits, the form libsndfile's integer writers take for
/// every bit depth. Dither adds the difference of two independent uniform values of one step
/// each (triangular, ±1 LSB): it turns the rounding error into steady, signal-independent
/// noise instead of distortion that follows quiet signals. The generator is seeded, so a
/// render is reproducible, and it draws once per sample in file order, so the output does
/// not depend on how the file is cut into blocks.
///
/// ```swift
/// var q = Quantizer(bits: 16, dither: true)
/// q.quantize(floats, into: ints, count: frames * channels)
/// q.clipped   // samples that did not fit
/// ```
public struct Quantizer: Sendable {
    public let bits: Int
    public let dither: Bool
    /// Samples that were outside the representable range, so far.
    public private(set) var clipped: Int64 = 0

    private let scale: Float
    private let shift: Int32
    private var random: UInt64

    public init(bits: Int, dither: Bool, seed: UInt64 = 0x5DEE_CE66_D1CE_5EED) {
        precondition((8...32).contains(bits), "integer PCM has 8 to 32 bits")
        self.bits = bits
        self.dither = dither
        scale = Float(1 << (bits - 1))
        shift = Int32(32 - bits)
        random = seed
    }

    /// Quantises `count` samples from `source` into `destination`.
    public mutating func quantize(_ source: UnsafePointer<Float>, into destination: UnsafeMutablePointer<Int32>, count: Int) {
        let scale = scale, shift = shift
        var clipped: Int64 = 0
        if dither {
            for i in 0..<count {
                let (clip, value) = Self.step(source[i] * scale + nextTriangular(), scale: scale, shift: shift)
                clipped += clip
                destination[i] = value
            }
        } else {
            for i in 0..<count {
                let (clip, value) = Self.step(source[i] * scale, scale: scale, shift: shift)
                clipped += clip
                destination[i] = value
            }
        }
        self.clipped += clipped
    }

    /// Rounds one scaled sample and clips it to −scale … scale−1. NaN (which the engine never
    /// produces) becomes the negative limit rather than trapping the conversion.
    @inline(__always)
    private static func step(_ x: Float, scale: Float, shift: Int32) -> (Int64, Int32) {
        let r = x.rounded(.toNearestOrEven)
        if r >= scale { return (1, (Int32.max >> shift) << shift) }
        if !(r >= -scale) { return (1, Int32.min) }
        return (0, Int32(r) << shift)
    }

    /// Triangular noise in (−1, 1): two 24-bit uniform values from one 64-bit draw.
    @inline(__always)
    private mutating func nextTriangular() -> Float {
        // SplitMix64: fast, and every seed gives a full-period sequence.
        random &+= 0x9E37_79B9_7F4A_7C15
        var z = random
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let unit: Float = 1.0 / 16_777_216
        let a = Float(UInt32(truncatingIfNeeded: z) >> 8) * unit
        let b = Float(UInt32(truncatingIfNeeded: z >> 32) >> 8) * unit
        return a - b
    }

    /// Limits floats to −1 … 1 in place for encodings that clip there (µ-law, lossy codecs),
    /// returning how many samples were outside.
    public static func clipToUnit(_ samples: UnsafeMutablePointer<Float>, count: Int) -> Int64 {
        var clipped: Int64 = 0
        for i in 0..<count {
            let x = samples[i]
            if x > 1 { samples[i] = 1; clipped += 1 }
            else if x < -1 { samples[i] = -1; clipped += 1 }
        }
        return clipped
    }
}
