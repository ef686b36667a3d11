import Parameters

/// The built-in processor's audio code: a resonant lowpass (Simper's trapezoidal SVF, four
/// lanes at a time) followed by a gain, reading its three parameters straight from the
/// engine's smoothers — an ordinary kernel beside an ``ExternalKernel``, in a chain slot like
/// any other.
///
/// It reads the smoothers rather than control values because it can do better than a plug-in:
/// its gain glides per frame and its coefficients are refreshed on the engine's 8-frame grid,
/// both on the engine's timeline, so the output does not depend on the caller's blocks.
/// Plain values and raw pointers only (no reference counting on the audio thread).
struct LowpassGainKernel: BitwiseCopyable {
    /// Where its cutoff, resonance and gain are in the engine's smoothers (a chain slot's
    /// first row; 0 alone).
    let base: Int
    var cutoffIndex: Int { @_noLocks @inline(__always) get { base } }
    var resonanceIndex: Int { @_noLocks @inline(__always) get { base + 1 } }
    var gainIndex: Int { @_noLocks @inline(__always) get { base + 2 } }

    var sampleRate: Double = 48_000
    var coefficients = Lowpass.Coefficients(cutoff: 1_000, q: 0.707, sampleRate: 48_000)
    /// The cutoff and Q the coefficients were computed from.
    var coefficientCutoff = 0.0
    var coefficientQ = 0.0
    var groups = 0
    var states = UnsafeMutablePointer<Lowpass.State>.allocate(capacity: 0)
    /// While something glides: the coefficients of each span between grid points (at the
    /// span's first frame) and the gain of every frame.
    var rampK1 = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    var rampK2 = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    var rampK3 = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    var rampGain = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    /// The gain while nothing glides, read at every frame through a stride of 0 (one loop
    /// serves both cases).
    var steadyGain = UnsafeMutablePointer<Float>.allocate(capacity: 1)

    /// Input magnitude limit (+96 dBFS), see `frame`.
    static var inputLimit: Float { @_noLocks get { 65_536 } }
    /// `Engine.coefficientInterval − 1`, for a cheap modulo on the engine's timeline.
    let coefficientMask = Engine.coefficientInterval - 1

    /// A kernel reading rows `base ..< base + 3`, sized for `channels` channels of blocks of
    /// up to `maxFrames` frames (allocates; not on the audio thread).
    init(base: Int, channels: Int, maxFrames: Int, sampleRate: Double) {
        self.base = base
        self.sampleRate = sampleRate
        groups = (channels + 3) / 4
        states = .allocate(capacity: groups)
        states.initialize(repeating: Lowpass.State(), count: groups)
        for buffer in [\LowpassGainKernel.rampK1, \.rampK2, \.rampK3, \.rampGain] {
            self[keyPath: buffer] = .allocate(capacity: maxFrames)
            self[keyPath: buffer].initialize(repeating: 0, count: maxFrames)
        }
        steadyGain = .allocate(capacity: 1)
        steadyGain.initialize(to: 1)
    }

    /// Frees what `init` allocated.
    func deallocate() {
        for p in [UnsafeMutableRawPointer(states), UnsafeMutableRawPointer(rampK1), UnsafeMutableRawPointer(rampK2),
                  UnsafeMutableRawPointer(rampK3), UnsafeMutableRawPointer(rampGain), UnsafeMutableRawPointer(steadyGain)] {
            p.deallocate()
        }
    }

    /// Clears the filter memory.
    mutating func reset() {
        for g in 0..<groups { states[g] = Lowpass.State() }
    }

    /// Takes the filter memory of `other`, a kernel of the same channels (a live chain edit
    /// hands a slot on to a new engine; audio thread).
    @_noLocks
    mutating func copyState(from other: LowpassGainKernel) {
        for g in 0..<min(groups, other.groups) { states[g] = other.states[g] }
    }

    /// Recomputes the coefficients from the current cutoff and Q.
    @_noLocks
    mutating func refreshCoefficients(_ smoothers: UnsafeMutablePointer<Smoother>) {
        coefficientCutoff = smoothers[cutoffIndex].value
        coefficientQ = smoothers[resonanceIndex].value
        coefficients = Lowpass.Coefficients(cutoff: coefficientCutoff, q: coefficientQ, sampleRate: sampleRate)
    }

    /// Whether a jump of row `p` changes the coefficients.
    @_noLocks @inline(__always)
    func isFilterRow(_ p: Int) -> Bool { p == cutoffIndex || p == resonanceIndex }

    /// Renders frames `start..<end` from `lanes.input` to `lanes.output` (which may be the
    /// same memory). Returns true when the input held non-finite samples.
    @_noLocks
    mutating func render(_ lanes: Lanes, from start: Int, to end: Int, blockStart: Int64,
                         smoothers: UnsafeMutablePointer<Smoother>, meters: Meters?) -> Bool {
        let gliding = smoothers[gainIndex].isRamping || smoothers[cutoffIndex].isRamping
            || smoothers[resonanceIndex].isRamping
            || smoothers[cutoffIndex].value != coefficientCutoff
            || smoothers[resonanceIndex].value != coefficientQ
        if gliding { fillRamps(from: start, to: end, blockStart: blockStart, smoothers: smoothers) }
        var nonFinite = false
        for g in 0..<groups {
            if runGroup(g, lanes, from: start, to: end, blockStart: blockStart, gliding: gliding,
                        smoothers: smoothers, meters: meters) { nonFinite = true }
        }
        return nonFinite
    }

    /// Steps the smoothers over `start..<end`, writing each frame's coefficients and gain.
    ///
    /// Gain is needed at every frame. Cutoff and Q are only read where the coefficients may
    /// be refreshed — at frames on the engine's coefficient grid — so they advance in spans
    /// between grid points (`Smoother.skip` does the same per-sample arithmetic, so the
    /// result is the same however the caller's blocks cut the spans).
    @_noLocks
    private mutating func fillRamps(from start: Int, to end: Int, blockStart: Int64,
                                    smoothers: UnsafeMutablePointer<Smoother>) {
        var i = start
        while i < end {
            let phase = Int((blockStart + Int64(i)) & coefficientMask)
            let span = Spans.length(from: i, to: end, blockStart: blockStart, mask: coefficientMask)
            smoothers[cutoffIndex].skip(1)
            smoothers[resonanceIndex].skip(1)
            if phase == 0 && (smoothers[cutoffIndex].value != coefficientCutoff
                              || smoothers[resonanceIndex].value != coefficientQ) {
                refreshCoefficients(smoothers)
            }
            smoothers[cutoffIndex].skip(span - 1)
            smoothers[resonanceIndex].skip(span - 1)
            // Coefficients hold for the whole span: stored once, at its first frame.
            rampK1[i] = coefficients.k1[0]
            rampK2[i] = coefficients.k2[0]
            rampK3[i] = coefficients.k3[0]
            smoothers[gainIndex].fill(rampGain + i, count: span)
            i += span
        }
    }

    /// Runs one group of four lanes through the filter and gain, span by span (the same
    /// spans as `fillRamps` while gliding: coefficients are constant inside each; one span
    /// otherwise, with the gain read through a stride of 0).
    ///
    /// A group with two live lanes — every stereo stream — moves only those two lanes'
    /// samples in and out: half the loads and stores, which is most of the per-frame work
    /// besides the filter itself.
    @_noLocks
    private mutating func runGroup(_ g: Int, _ lanes: Lanes, from start: Int, to end: Int, blockStart: Int64,
                                   gliding: Bool, smoothers: UnsafeMutablePointer<Smoother>, meters: Meters?) -> Bool {
        var state = states[g]
        let lane = g * 4
        let stride = lanes.stride
        steadyGain[0] = Float(smoothers[gainIndex].value)
        let gains = gliding ? rampGain : steadyGain
        let gainStride = gliding ? 1 : 0
        var meter = Meter()
        var spans = Spans(kernel: self, from: start, to: end, blockStart: blockStart, gliding: gliding)
        // Each loop takes only the pointers it uses, so they all stay in registers.
        if lanes.channels - lane == 2 {
            let in0 = lanes.input[lane], in1 = lanes.input[lane + 1]
            let out0 = lanes.output[lane], out1 = lanes.output[lane + 1]
            while let (range, c) = spans.next() {
                for i in range {
                    let j = i &* stride
                    let y = Self.frame(SIMD4(in0[j], in1[j], 0, 0), c, gains[i &* gainStride], &state, &meter)
                    out0[j] = y[0]; out1[j] = y[1]
                }
                if spans.atSettlePoint { state.settle() }
            }
        } else {
            let in0 = lanes.input[lane], in1 = lanes.input[lane + 1], in2 = lanes.input[lane + 2], in3 = lanes.input[lane + 3]
            let out0 = lanes.output[lane], out1 = lanes.output[lane + 1]
            let out2 = lanes.output[lane + 2], out3 = lanes.output[lane + 3]
            while let (range, c) = spans.next() {
                for i in range {
                    let j = i &* stride
                    let y = Self.frame(SIMD4(in0[j], in1[j], in2[j], in3[j]), c, gains[i &* gainStride], &state, &meter)
                    out0[j] = y[0]; out1[j] = y[1]; out2[j] = y[2]; out3[j] = y[3]
                }
                if spans.atSettlePoint { state.settle() }
            }
        }
        state.recoverNonFinite()
        states[g] = state
        if let meters {
            for l in 0..<4 where lane + l < lanes.channels {
                meters.peaks[lane + l] = max(meters.peaks[lane + l], meter.peakSquare[l])
                meters.sums[lane + l] += Double(meter.squares[l])
            }
        }
        return any(meter.nonFinite)
    }

    /// The runs of frames with constant coefficients: while gliding, the spans between
    /// points of the coefficient grid that `fillRamps` wrote; otherwise the whole segment.
    /// Either way a span also ends at each point of the settle grid, where the filter's
    /// states may be settled to zero (``Lowpass/State/settle()``): on the engine's timeline,
    /// so wherever the caller's blocks end, live and offline settle at the same frames.
    struct Spans {
        let k1: UnsafeMutablePointer<Float>, k2: UnsafeMutablePointer<Float>, k3: UnsafeMutablePointer<Float>
        let steady: Lowpass.Coefficients
        let gliding: Bool
        let blockStart: Int64
        let mask: Int64
        let end: Int
        var position: Int

        @_noLocks @inline(__always)
        init(kernel: LowpassGainKernel, from start: Int, to end: Int, blockStart: Int64, gliding: Bool) {
            k1 = kernel.rampK1
            k2 = kernel.rampK2
            k3 = kernel.rampK3
            steady = kernel.coefficients
            self.gliding = gliding
            self.blockStart = blockStart
            mask = kernel.coefficientMask
            self.end = end
            position = start
        }

        /// Frames from `s` to the next grid point (or to `end`): the grid is every
        /// `mask + 1` frames of the engine's timeline, whatever the caller's blocks.
        @_noLocks @inline(__always)
        static func length(from s: Int, to end: Int, blockStart: Int64, mask: Int64) -> Int {
            min(end - s, Int(mask + 1) - Int((blockStart + Int64(s)) & mask))
        }

        /// Every 256 frames of the engine's timeline (a multiple of any coefficient grid).
        static var settleMask: Int64 { @_noLocks @inline(__always) get { 255 } }

        /// Whether the span `next` gave last ended on a point of the settle grid.
        var atSettlePoint: Bool {
            @_noLocks @inline(__always) get { (blockStart + Int64(position)) & Self.settleMask == 0 }
        }

        @_noLocks @inline(__always)
        mutating func next() -> (Range<Int>, Lowpass.Coefficients)? {
            let s = position
            guard s < end else { return nil }
            let toSettle = Self.length(from: s, to: end, blockStart: blockStart, mask: Self.settleMask)
            guard gliding else {
                position = s + toSettle
                return (s..<position, steady)
            }
            let span = min(toSettle, Self.length(from: s, to: end, blockStart: blockStart, mask: mask))
            position = s + span
            return (s..<s + span, Lowpass.Coefficients(
                k1: SIMD4(repeating: k1[s]), k2: SIMD4(repeating: k2[s]), k3: SIMD4(repeating: k3[s])))
        }
    }

    /// What a group's frames leave behind besides audio: the meters' sums of squares and
    /// largest squares (the peak is tracked as a square — one compare and select per frame;
    /// readers take the root), and which lanes saw non-finite input.
    struct Meter {
        var squares = SIMD4<Float>()
        var peakSquare = SIMD4<Float>()
        var nonFinite = SIMDMask<SIMD4<Int32>>()
    }

    /// One frame of four lanes: silence for non-finite input, lowpass, gain.
    ///
    /// Input is also limited to ±65536 (+96 dBFS): a corrupt but finite sample such as 3e38
    /// would otherwise leave the filter ringing with astronomically large values long after
    /// the input is clean again. With finite, bounded input and coefficients that are always
    /// valid, the filter is stable and its output finite; the per-segment state check in
    /// `runGroup` stays as a safety net. (Compare-and-select rather than `pointwiseMin/Max`,
    /// which compile to calls.)
    @_noLocks @inline(__always)
    private static func frame(_ input: SIMD4<Float>, _ c: Lowpass.Coefficients, _ gain: Float,
                              _ state: inout Lowpass.State, _ meter: inout Meter) -> SIMD4<Float> {
        var x = input
        let nonFinite = (x - x) .!= 0
        meter.nonFinite .|= nonFinite
        x.replace(with: 0, where: nonFinite)
        x.replace(with: inputLimit, where: x .> inputLimit)
        x.replace(with: -inputLimit, where: x .< -inputLimit)
        let y = Lowpass.tick(x, c, &state) * gain
        let square = y * y
        meter.squares += square
        meter.peakSquare.replace(with: square, where: square .> meter.peakSquare)
        return y
    }
}

/// Where a kernel reads and writes a stretch of audio: channel pointer tables padded to
/// whole groups of four (lanes past the last channel read silence and write to a sink), and
/// the distance between a lane's consecutive samples (1 for separate buffers, the channel
/// count for interleaved ones).
struct Lanes: BitwiseCopyable {
    let input: UnsafeMutablePointer<UnsafePointer<Float>>
    let output: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    let stride: Int
    let channels: Int

    @_noLocks @inline(__always)
    init(input: UnsafeMutablePointer<UnsafePointer<Float>>, output: UnsafeMutablePointer<UnsafeMutablePointer<Float>>,
         stride: Int, channels: Int) {
        self.input = input
        self.output = output
        self.stride = stride
        self.channels = channels
    }
}

/// Where a kernel adds its output's sums of squares and largest squares, per channel (the
/// engine's meters; nil in a chain, whose output is metered once after its last slot).
struct Meters: BitwiseCopyable {
    let sums: UnsafeMutablePointer<Double>
    let peaks: UnsafeMutablePointer<Float>

    @_noLocks @inline(__always)
    init(sums: UnsafeMutablePointer<Double>, peaks: UnsafeMutablePointer<Float>) {
        self.sums = sums
        self.peaks = peaks
    }
}
