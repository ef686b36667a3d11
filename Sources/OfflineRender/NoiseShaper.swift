/// Noise-shaped TPDF dither (`--dither shaped`): an error-feedback quantiser that moves the
/// requantisation noise out of the band where the ear is most sensitive (1–5 kHz) towards the
/// top of the spectrum, where it is far less audible.
///
/// Each sample, before dither and rounding, has the channel's past total errors subtracted
/// through a fixed FIR filter h: `v = x − Σ hₖ·e[n−k]`, `y = round(v + d)`, `e[n] = y − v`. The
/// output is then `x + e[n] − Σ hₖ·e[n−k]`: the error (rounding and dither together, still
/// white and signal-independent thanks to the TPDF draw `d`) reaches the file filtered by
/// `1 − H(z)`. `e` is bounded (|e| ≤ 1.5 steps), so the loop cannot run away; a clipped
/// sample feeds back its unclipped rounding error, never the clipping.
///
/// The filter is the nine-tap F-weighted one of R. A. Wannamaker, "Psychoacoustically Optimal
/// Noise Shaping", J. Audio Eng. Soc. 40(7/8), 611–620 (1992), designed for 44.1 kHz against
/// the ear's threshold (the same coefficients SoX's `dither -f f-weighted` uses). At 44.1 kHz
/// `1 − H` is −18.6 dB on average over 1–4 kHz (deepest, about −25 dB, near 3.2 kHz), −12 dB at
/// 0 Hz and +23 dB above 15 kHz; the total noise power is 18.4 dB above plain TPDF's, which at
/// 16 bits still leaves it below −75 dBFS. At 48 kHz the same coefficients put every feature
/// 9 % higher (the dip near 3.4 kHz), which keeps the shape's intent. Other rates are not
/// shaped (``supports(sampleRate:)``): the curve scales with the rate and would land at the
/// wrong frequencies (at 32 kHz its +20 dB region would start near 11 kHz, at 96 kHz its dip
/// would move to 7 kHz), so those files get plain TPDF, and the render says so.
///
/// Digital silence stays digital silence, as with plain TPDF: an exact 0 is written as 0 and
/// enters the history as no error, so after nine zeros the shaper starts afresh. Draw k of
/// ``TriangularNoise`` still goes to sample k of the file (each channel its own draws), and
/// the histories carry over from block to block, so the output does not depend on how the
/// file is cut.
struct NoiseShaper: Sendable {
    /// Wannamaker's F-weighted coefficients h₁ … h₉ (for 44.1 kHz).
    static let coefficients: [Double] = [2.412, -3.370, 3.937, -4.174, 3.353, -2.205, 1.281, -0.569, 0.0847]
    static var taps: Int { coefficients.count }

    /// Whether the filter's shape fits `sampleRate`: 44.1 and 48 kHz.
    static func supports(sampleRate: Int) -> Bool { sampleRate == 44_100 || sampleRate == 48_000 }

    private let channels: Int
    private let scale: Double
    /// Per channel, its last `taps` errors, newest first from `head`, stored twice over
    /// (`2·taps` per channel) so that the nine read from `head` are always contiguous.
    private var history: [Double]
    private var head = 0
    /// The channel of the next sample (interleaved input may be handed over in any pieces).
    private var channel = 0

    init(channels: Int, bits: Int) {
        precondition(channels >= 1, "at least one channel")
        self.channels = channels
        scale = Double(1 << (bits - 1))
        history = [Double](repeating: 0, count: channels * 2 * Self.taps)
    }

    /// Quantises `count` interleaved samples into `destination` (left-justified, by `rule`),
    /// with draws `first`, `first + 1`, … of `noise`; returns how many clipped.
    mutating func quantize(
        _ samples: UnsafePointer<Float>, count: Int, into destination: UnsafeMutablePointer<Int32>,
        rule: StepRule, noise: TriangularNoise, from first: UInt64
    ) -> UInt32 {
        let taps = Self.taps, stride = 2 * taps, channels = self.channels, scale = self.scale
        var head = self.head, channel = self.channel
        var clips = SIMD4<Int32>()
        var lanes = SIMD4<Float>()
        var draws = SIMD4<Float>()
        Self.coefficients.withUnsafeBufferPointer { h in
            history.withUnsafeMutableBufferPointer { history in
                for i in 0..<count {
                    let lane = i & 3
                    if lane == 0 { draws = noise.draws(from: first &+ UInt64(i)) }
                    let x = samples[i]
                    let past = history.baseAddress! + channel * stride
                    var shaped: Float = 0
                    var error = 0.0
                    if x != 0 {
                        var v = Double(x) * scale
                        for k in 0..<taps { v -= h[k] * past[head + k] }
                        shaped = Float(v + Double(draws[lane]))
                        error = Double(shaped.rounded(.toNearestOrEven)) - v
                        // NaN, infinities and values too large for a Float's steps feed back nothing.
                        if !(error.magnitude <= 2) { error = 0 }
                    }
                    let newest = head == 0 ? taps - 1 : head - 1
                    past[newest] = error
                    past[newest + taps] = error
                    lanes[lane] = shaped
                    if lane == 3 || i == count - 1 {
                        // Rounded and clipped by the same rule as every other sample; unused
                        // lanes are zeros, which neither clip nor get written.
                        let q = rule.quantize(lanes, clips: &clips)
                        for k in 0...lane { destination[i - lane + k] = q[k] }
                        lanes = SIMD4()
                    }
                    channel += 1
                    if channel == channels {
                        channel = 0
                        head = newest
                    }
                }
            }
        }
        self.head = head
        self.channel = channel
        return UInt32(bitPattern: clips.wrappedSum())
    }
}
