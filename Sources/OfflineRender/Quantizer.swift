#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Turns float samples into integer PCM: scaled by 2^(bits−1) (the inverse of how samples are
/// read, so unprocessed samples survive a round trip unchanged), optionally TPDF-dithered,
/// rounded to the nearest step (ties to even), and clipped — with every clipped sample counted.
/// NaN becomes 0 and is not counted.
///
/// The result is interleaved and left-justified in 32 bits, the form libsndfile's integer
/// writers take for every bit depth. Dither (16 bits or fewer; finer encodings need none)
/// adds the difference of two independent uniform values of one step each (triangular,
/// ±1 LSB): it turns the rounding error into steady, signal-independent noise instead of
/// distortion that follows quiet signals. Digital silence stays digital silence: a sample that
/// is exactly 0 (a gain at −inf, a silent input, a gap between takes) gets no dither, since
/// there is no rounding error to decorrelate and ±1 LSB of hiss where a file was silent is
/// noise someone hears at the end of a track. The noise is seeded, so a render is reproducible,
/// and sample k of the file always gets draw k (see ``TriangularNoise``), so the output does
/// not depend on how the file is cut into blocks. `shaped` dither (``Dither/shaped``) puts the
/// same draws inside an error-feedback loop that moves the noise towards high frequencies
/// (``NoiseShaper``), under the same rules for silence and reproducibility.
///
/// ```swift
/// var q = Quantizer(bits: 16, dither: true)
/// q.quantize(interleavedFloats, count: frames * channels, into: ints)
/// q.clipped   // samples that did not fit
/// ```
public struct Quantizer: Sendable {
    public let bits: Int
    /// The dither samples get: as asked for at 16 bits or fewer, ``Dither/none`` above, and
    /// plain TPDF where shaping does not fit the sample rate.
    public let mode: Dither
    /// Whether samples are dithered.
    public var dither: Bool { mode.adds }
    /// Samples that were outside the representable range, so far.
    public private(set) var clipped: Int64 = 0

    private let rule: StepRule
    private let noise: TriangularNoise
    /// The error-feedback state of `shaped` dither.
    private var shaper: NoiseShaper?
    /// Samples quantised so far: the next one takes this dither draw.
    private var position: UInt64 = 0

    /// Samples per pass of the inner loops: their clip counters are 32-bit lanes, which
    /// cannot overflow within one pass.
    private static var passLimit: Int { 1 << 30 }

    /// - Parameters:
    ///   - dither: what to add before rounding, at 16 bits or fewer.
    ///   - channels: how the samples are interleaved (shaping filters each channel alone).
    ///   - sampleRate: shaping applies at 44.1 and 48 kHz (``NoiseShaper/supports(sampleRate:)``).
    public init(bits: Int, dither: Dither, channels: Int = 1, sampleRate: Int = 48_000,
                seed: UInt64 = Quantizer.defaultSeed) {
        precondition((8...32).contains(bits), "integer PCM has 8 to 32 bits")
        self.bits = bits
        mode = bits > 16 ? .none
            : dither == .shaped && !NoiseShaper.supports(sampleRate: sampleRate) ? .tpdf : dither
        rule = StepRule(bits: bits)
        noise = TriangularNoise(seed: seed)
        shaper = mode == .shaped ? NoiseShaper(channels: channels, bits: bits) : nil
    }

    /// Plain TPDF dither or none.
    public init(bits: Int, dither: Bool, seed: UInt64 = Quantizer.defaultSeed) {
        self.init(bits: bits, dither: dither ? .tpdf : .none, seed: seed)
    }

    /// The seed every render uses, so that renders repeat byte for byte.
    public static let defaultSeed: UInt64 = 0x5DEE_CE66_D1CE_5EED

    /// Quantises `count` interleaved samples (frame by frame, channel by channel) into
    /// `destination`; sample k of the buffer takes dither draw k.
    public mutating func quantize(
        _ samples: UnsafePointer<Float>, count: Int, into destination: UnsafeMutablePointer<Int32>
    ) {
        var done = 0
        while done < count {
            let n = min(count - done, Self.passLimit)
            let from = position &+ UInt64(done)
            let clips = shaper != nil
                ? shaper!.quantize(samples + done, count: n, into: destination + done, rule: rule, noise: noise, from: from)
                : rule.quantize(samples + done, count: n, into: destination + done, noise: dither ? noise : nil, from: from)
            clipped += Int64(clips)
            done += n
        }
        position &+= UInt64(count)
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

/// The rule for every bit depth, four samples at a time and entirely in Float.
///
/// The value rounded is `x = sample·2^(bits−1)`, plus the dither draw when dithering, as a
/// Float: the scaling is exact (a power of two; an overflow to ±infinity is beyond the range
/// either way) and adding the draw rounds once. Every threshold is replaced by a Float that
/// decides the same for every Float `x`:
/// - Clipping happens when `x ≥ scale − ½` (that tie rounds to even, `scale`) or
///   `x < −scale − ½` (that tie rounds to `−scale`). For Float `x`, `x ≥ c` and `x < c` are
///   the same tests against the smallest Float ≥ `c`: `scale − ½` itself up to 24 bits, and
///   `scale` above (no Float lies between them); `−scale − ½` up to 23 bits, `−scale` above.
/// - Rounding: `x` is clamped to −scale … scale (both are Floats; `scale − 1` is not one
///   above 24 bits) and rounded to the nearest integer, ties to even. That gives `scale`
///   exactly for the samples that clip high, which then add their clip-high mask (−1) to
///   make it `scale − 1`. At 32 bits the conversion of 2^31 wraps to `Int32.min`, and adding
///   −1 wraps on to `Int32.max`, so the same step serves.
struct StepRule: Sendable {
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

    /// Quantises `count` samples (at most 2^30), with draws `first`, `first + 1`, … of
    /// `noise` when there is one; returns how many clipped.
    func quantize(
        _ samples: UnsafePointer<Float>, count: Int, into destination: UnsafeMutablePointer<Int32>,
        noise: TriangularNoise?, from first: UInt64
    ) -> UInt32 {
        var clips = SIMD4<Int32>()
        let whole = count & ~3
        var i = 0
        if let noise {
            while i < whole {
                let x = UnsafeRawPointer(samples + i).loadUnaligned(as: SIMD4<Float>.self)
                let draws = noise.draws(from: first &+ UInt64(i)).replacing(with: 0, where: x .== SIMD4())
                let y = quantize(x * scale + draws, clips: &clips)
                UnsafeMutableRawPointer(destination + i).storeBytes(of: y, as: SIMD4<Int32>.self)
                i &+= 4
            }
        } else {
            while i < whole {
                let x = UnsafeRawPointer(samples + i).loadUnaligned(as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(destination + i).storeBytes(of: quantize(x * scale, clips: &clips), as: SIMD4<Int32>.self)
                i &+= 4
            }
        }
        if i < count {
            // The last one to three samples go through the same four-sample step, padded
            // with zeros, which (dithered or not) neither clip nor get written.
            var x = SIMD4<Float>()
            for k in 0..<count - i { x[k] = samples[i + k] }
            let draws = (noise?.draws(from: first &+ UInt64(i)) ?? SIMD4()).replacing(with: 0, where: x .== SIMD4())
            let q = quantize(x * scale + draws, clips: &clips)
            for k in 0..<count - i { destination[i + k] = q[k] }
        }
        return UInt32(bitPattern: clips.wrappedSum())
    }

    /// Four scaled (and dithered) samples to left-justified integers, counting clips.
    @inline(__always)
    func quantize(_ x: SIMD4<Float>, clips: inout SIMD4<Int32>) -> SIMD4<Int32> {
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

/// Triangular (TPDF) dither noise of ±1 step, drawn by sample position: draw k is a hash of
/// k, so any stretch of the sequence is computed directly — four lanes at once, and the same
/// however a file is cut into blocks.
///
/// Draw k: `h = mix(UInt32(k mod 2^32) &+ key)`, where `mix` is a 32-bit integer hash
/// (xor-shift-multiply, Wellons' "lowbias32" constants) and `key` folds the seed; the draw is
/// `((h >> 16) − (h & 0xFFFF)) / 2^16`, the difference of two independent uniform 16-bit values:
/// triangular on (−1, 1) in steps of 2^−16 of a step, far finer than any converter resolves.
/// The sequence repeats after 2^32 samples (12 hours of stereo at 48 kHz), which no ear can
/// tell. 32-bit arithmetic keeps it in SIMD lanes: per sample it costs a fraction of what a
/// 64-bit generator does, which made dither the slowest part of a 16-bit render.
struct TriangularNoise: Sendable {
    private let key: UInt32

    init(seed: UInt64) {
        key = UInt32(truncatingIfNeeded: seed) ^ UInt32(truncatingIfNeeded: seed >> 32)
    }

    /// Draws `k … k + 3`.
    @inline(__always)
    func draws(from k: UInt64) -> SIMD4<Float> {
        var h = SIMD4(repeating: UInt32(truncatingIfNeeded: k) &+ key) &+ SIMD4(0, 1, 2, 3)
        h ^= h &>> 16
        h &*= 0x7FEB_352D
        h ^= h &>> 15
        h &*= 0x846C_A68B
        h ^= h &>> 16
        let a = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: h &>> 16))
        let b = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: h & 0xFFFF))
        return (a - b) * 0x1p-16
    }

    /// Draw `k` alone (for checking the rule).
    func draw(_ k: UInt64) -> Float { draws(from: k)[0] }
}
