/// Turns float samples into integer PCM: scaled by 2^(bits−1) (the inverse of how samples are
/// read, so unprocessed samples survive a round trip unchanged), optionally TPDF-dithered,
/// rounded to the nearest step (ties to even), and clipped — with every clipped sample counted.
///
/// The result is interleaved and left-justified in 32 bits, the form libsndfile's integer
/// writers take for every bit depth. Dither adds the difference of two independent uniform
/// values of one step each (triangular, ±1 LSB): it turns the rounding error into steady,
/// signal-independent noise instead of distortion that follows quiet signals. The noise is
/// seeded, so a render is reproducible, and sample k of the file always gets draw k, so the
/// output does not depend on how the file is cut into blocks.
///
/// ```swift
/// var q = Quantizer(bits: 16, dither: true)
/// q.quantize(lanes: channelPointers, channels: 2, frames: n, into: ints)
/// q.clipped   // samples that did not fit
/// ```
public struct Quantizer: Sendable {
    public let bits: Int
    public let dither: Bool
    /// Samples that were outside the representable range, so far.
    public private(set) var clipped: Int64 = 0

    private let scale: Double
    private let shift: Int32
    private var noise: TriangularNoise

    public init(bits: Int, dither: Bool, seed: UInt64 = 0x5DEE_CE66_D1CE_5EED) {
        precondition((8...32).contains(bits), "integer PCM has 8 to 32 bits")
        self.bits = bits
        self.dither = dither
        scale = Double(1 << (bits - 1))
        shift = Int32(32 - bits)
        noise = TriangularNoise(seed: seed)
    }

    /// Quantises `frames` frames of non-interleaved `lanes` (one pointer per channel) into
    /// interleaved `destination`: interleaving and conversion in one pass over the block,
    /// frame by frame, so sample k of the block takes dither draw k.
    public mutating func quantize(
        lanes: UnsafePointer<UnsafePointer<Float>>, channels: Int, frames: Int,
        into destination: UnsafeMutablePointer<Int32>
    ) {
        let scale = scale, shift = shift
        var clipped: Int64 = 0
        if dither {
            var noise = self.noise
            var j = 0
            for i in 0..<frames {
                for c in 0..<channels {
                    let x = Double(lanes[c][i]) * scale + Double(noise.next())
                    clipped &+= Self.clips(x, scale: scale)
                    destination[j] = Self.round(x, scale: scale) &<< shift
                    j += 1
                }
            }
            self.noise = noise
        } else if channels == 2 {
            // The common case, written so that the compiler can vectorise it.
            let left = lanes[0], right = lanes[1]
            for i in 0..<frames {
                let l = Double(left[i]) * scale, r = Double(right[i]) * scale
                clipped &+= Self.clips(l, scale: scale) &+ Self.clips(r, scale: scale)
                destination[2 * i] = Self.round(l, scale: scale) &<< shift
                destination[2 * i + 1] = Self.round(r, scale: scale) &<< shift
            }
        } else {
            for c in 0..<channels {
                let lane = lanes[c]
                var j = c
                for i in 0..<frames {
                    let x = Double(lane[i]) * scale
                    clipped &+= Self.clips(x, scale: scale)
                    destination[j] = Self.round(x, scale: scale) &<< shift
                    j += channels
                }
            }
        }
        self.clipped += clipped
    }

    /// Quantises `count` interleaved samples into `destination`; sample k takes draw k.
    public mutating func quantize(_ samples: UnsafePointer<Float>, count: Int, into destination: UnsafeMutablePointer<Int32>) {
        var lane = samples
        withUnsafePointer(to: &lane) { lanes in
            quantize(lanes: lanes, channels: 1, frames: count, into: destination)
        }
    }

    /// 1 when `x` rounds to a value outside −scale … scale−1 (ties round to even, so
    /// scale − ½ is out and −scale − ½ is in).
    @inline(__always)
    private static func clips(_ x: Double, scale: Double) -> Int64 {
        x >= scale - 0.5 || x < -scale - 0.5 ? 1 : 0
    }

    /// `x` clamped to −scale … scale−1 and rounded to the nearest integer, ties to even.
    ///
    /// Adding 1.5·2^52 leaves the rounded integer in the low bits of the sum (for |x| < 2^51),
    /// with the FPU's own round-to-nearest-even: no call into libm (baseline x86-64 has no
    /// rounding instruction) and no checked conversion, so the loop has no branches.
    @inline(__always)
    private static func round(_ x: Double, scale: Double) -> Int32 {
        let clamped = min(max(x, -scale), scale - 1)
        return Int32(truncatingIfNeeded: (clamped + 6_755_399_441_055_744.0).bitPattern)
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

/// Triangular (TPDF) noise of ±1 step: the difference of two uniform values, both taken from
/// one SplitMix64 draw (fast, full period for any seed).
struct TriangularNoise: Sendable {
    private var state: UInt64
    private static var increment: UInt64 { 0x9E37_79B9_7F4A_7C15 }

    init(seed: UInt64) { state = seed }

    /// The next value, in (−1, 1).
    @inline(__always)
    mutating func next() -> Float {
        state &+= Self.increment
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let unit: Float = 1.0 / 16_777_216
        let a = Float(UInt32(truncatingIfNeeded: z) >> 8) * unit
        let b = Float(UInt32(truncatingIfNeeded: z >> 32) >> 8) * unit
        return a - b
    }
}
