#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Turns float samples into integer PCM: scaled by 2^(bits−1) (the inverse of how samples are
/// read, so unprocessed samples survive a round trip unchanged), optionally TPDF-dithered,
/// rounded to the nearest step (ties to even), and clipped — with every clipped sample counted.
/// NaN becomes 0 and is not counted.
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
/// q.quantize(interleavedFloats, count: frames * channels, into: ints)
/// q.clipped   // samples that did not fit
/// ```
public struct Quantizer: Sendable {
    public let bits: Int
    public let dither: Bool
    /// Samples that were outside the representable range, so far.
    public private(set) var clipped: Int64 = 0

    private let scale: Double
    private let shift: Int32
    private let undithered: UnditheredRule
    private var noise: TriangularNoise

    /// Samples per pass of the inner loops: their clip counters are 32-bit lanes, which
    /// cannot overflow within one pass.
    private static var passLimit: Int { 1 << 30 }

    public init(bits: Int, dither: Bool, seed: UInt64 = 0x5DEE_CE66_D1CE_5EED) {
        precondition((8...32).contains(bits), "integer PCM has 8 to 32 bits")
        self.bits = bits
        self.dither = dither
        scale = Double(1 << (bits - 1))
        shift = Int32(32 - bits)
        undithered = UnditheredRule(bits: bits)
        noise = TriangularNoise(seed: seed)
    }

    /// Quantises `count` interleaved samples (frame by frame, channel by channel) into
    /// `destination`; sample k of the buffer takes dither draw k.
    public mutating func quantize(
        _ samples: UnsafePointer<Float>, count: Int, into destination: UnsafeMutablePointer<Int32>
    ) {
        var done = 0
        while done < count {
            let n = min(count - done, Self.passLimit)
            let clips = dither
                ? quantizeDithered(samples + done, count: n, into: destination + done)
                : undithered.quantize(samples + done, count: n, into: destination + done)
            clipped += Int64(clips)
            done += n
        }
    }

    /// The dithered path, in Double: the noise has 24 fractional bits, so `x·scale + noise`
    /// needs more than Float's 24-bit significand to round exactly. The loop has no branches,
    /// so the compiler vectorises it, noise generator included.
    private mutating func quantizeDithered(
        _ samples: UnsafePointer<Float>, count: Int, into destination: UnsafeMutablePointer<Int32>
    ) -> UInt32 {
        let scale = scale, shift = shift
        var noise = self.noise
        var clips: UInt32 = 0
        for i in 0..<count {
            let x = Double(samples[i]) * scale + noise.next()
            clips &+= x >= scale - 0.5 || x < -scale - 0.5 ? 1 : 0
            // Selects that map onto the min/max instructions; NaN becomes −scale here and 0
            // below. Adding 1.5·2^52 leaves the rounded integer in the low bits of the sum
            // (for |x| < 2^51), with the FPU's own round-to-nearest-even.
            let raised = x > -scale ? x : -scale
            let clamped = raised < scale - 1 ? raised : scale - 1
            let rounded = Int32(truncatingIfNeeded: (clamped + 0x1.8p52).bitPattern)
            destination[i] = (x == x ? rounded : 0) &<< shift
        }
        self.noise = noise
        return clips
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

/// The undithered path for every bit depth, four samples at a time and entirely in Float.
///
/// Float is exact here: `x = sample·2^(bits−1)` is a power-of-two scaling (an overflow to
/// ±infinity is beyond the range either way), and every threshold is replaced by a Float
/// that decides the same for every Float `x`:
/// - Clipping happens when `x ≥ scale − ½` (that tie rounds to even, `scale`) or
///   `x < −scale − ½` (that tie rounds to `−scale`). For Float `x`, `x ≥ c` and `x < c` are
///   the same tests against the smallest Float ≥ `c`: `scale − ½` itself up to 24 bits, and
///   `scale` above (no Float lies between them); `−scale − ½` up to 23 bits, `−scale` above.
/// - Rounding: `x` is clamped to −scale … scale (both are Floats; `scale − 1` is not one
///   above 24 bits) and rounded to the nearest integer, ties to even. That gives `scale`
///   exactly for the samples that clip high, which then add their clip-high mask (−1) to
///   make it `scale − 1`. At 32 bits the conversion of 2^31 wraps to `Int32.min`, and adding
///   −1 wraps on to `Int32.max`, so the same step serves.
struct UnditheredRule: Sendable {
    private let scale: SIMD4<Float>
    private let clipHigh: SIMD4<Float>
    private let clipLow: SIMD4<Float>
    private let shift: Int32

    init(bits: Int) {
        let scale = Double(1 << (bits - 1))
        self.scale = SIMD4(repeating: Float(scale))
        clipHigh = SIMD4(repeating: Self.smallestFloat(notBelow: scale - 0.5))
        clipLow = SIMD4(repeating: Self.smallestFloat(notBelow: -scale - 0.5))
        shift = Int32(32 - bits)
    }

    private static func smallestFloat(notBelow x: Double) -> Float {
        let f = Float(x)
        return Double(f) < x ? f.nextUp : f
    }

    /// Quantises `count` samples (at most 2^30), returning how many clipped.
    func quantize(
        _ samples: UnsafePointer<Float>, count: Int, into destination: UnsafeMutablePointer<Int32>
    ) -> UInt32 {
        var clips = SIMD4<Int32>()
        let whole = count & ~3
        var i = 0
        while i < whole {
            let x = UnsafeRawPointer(samples + i).loadUnaligned(as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(destination + i).storeBytes(of: quantize(x, clips: &clips), as: SIMD4<Int32>.self)
            i &+= 4
        }
        if i < count {
            // The last one to three samples go through the same four-sample step, padded
            // with zeros, which neither clip nor get written.
            var x = SIMD4<Float>()
            for k in 0..<count - i { x[k] = samples[i + k] }
            let q = quantize(x, clips: &clips)
            for k in 0..<count - i { destination[i + k] = q[k] }
        }
        return UInt32(bitPattern: clips.wrappedSum())
    }

    @inline(__always)
    func quantize(_ samples: SIMD4<Float>, clips: inout SIMD4<Int32>) -> SIMD4<Int32> {
        let x = samples * scale
        let high = SIMD4<Int32>().replacing(with: -1, where: x .>= clipHigh)
        clips &-= high.replacing(with: -1, where: x .< clipLow)
        // Written as selects that map onto the min/max instructions. NaN becomes −scale here
        // (so the conversion stays in range) and 0 below.
        let floor = -scale
        let raised = floor.replacing(with: x, where: x .> floor)
        let clamped = scale.replacing(with: raised, where: raised .< scale)
        let rounded = Self.roundedToNearestEven(clamped) &+ high
        return rounded.replacing(with: 0, where: x .!= x) &<< shift
    }

    /// `x` (within −2^31 … 2^31) rounded to the nearest integer, ties to even, and wrapped
    /// to 32 bits. On x86-64, SSE2's `cvtps2dq` does this for four samples in one instruction
    /// (baseline x86-64 has no rounding instruction, and rounding through libm is a call per
    /// sample); it rounds as the MXCSR says, which is to nearest-even unless changed, and
    /// nothing here changes it.
    @inline(__always)
    static func roundedToNearestEven(_ x: SIMD4<Float>) -> SIMD4<Int32> {
        #if arch(x86_64)
        unsafeBitCast(_mm_cvtps_epi32(x), to: SIMD4<Int32>.self)
        #else
        portableRoundedToNearestEven(x)
        #endif
    }

    /// The same as ``roundedToNearestEven(_:)`` for every platform (tested against it).
    @inline(__always)
    static func portableRoundedToNearestEven(_ x: SIMD4<Float>) -> SIMD4<Int32> {
        SIMD4<Int32>(truncatingIfNeeded: SIMD4<Int64>(x, rounding: .toNearestOrEven))
    }
}

/// Triangular (TPDF) noise of ±1 step: the difference of two uniform values, both taken from
/// one SplitMix64 draw (fast, full period for any seed).
struct TriangularNoise: Sendable {
    private var state: UInt64
    private static var increment: UInt64 { 0x9E37_79B9_7F4A_7C15 }

    init(seed: UInt64) { state = seed }

    /// The next value, in (−1, 1): the difference of two 24-bit uniform values, a multiple
    /// of 2^−24 and so exact as a Float as well as a Double. Taking the difference in integers
    /// and converting once costs less than converting each value.
    @inline(__always)
    mutating func next() -> Double {
        state &+= Self.increment
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let a = Int32(truncatingIfNeeded: UInt32(truncatingIfNeeded: z) >> 8)
        let b = Int32(truncatingIfNeeded: UInt32(truncatingIfNeeded: z >> 32) >> 8)
        return Double(a - b) * 0x1p-24
    }
}
