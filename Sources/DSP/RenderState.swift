/// Everything the audio thread reads and writes, as plain values and raw pointers allocated
/// by `Engine.prepare`: smoothers, filter states, scratch buffers and the channel-to-lane
/// pointer tables. Kept apart from `Engine` so the render path never touches a class
/// reference (no retain/release on the audio thread).
struct RenderState {
    let parameterCount = ParameterID.allCases.count
    var smoothers: UnsafeMutablePointer<Smoother>
    var info: UnsafeMutablePointer<EngineParameter>
    var appliedEpochs: UnsafeMutablePointer<UInt32>

    var sampleRate: Double = 48_000
    var defaultRamp: Int = 0
    var framePosition: Int64 = 0
    var nonFiniteBlocks: Int64 = 0

    var coefficients = Lowpass.Coefficients(cutoff: 1_000, q: 0.707, sampleRate: 48_000)
    /// The cutoff and Q the coefficients were computed from.
    var coefficientCutoff = 0.0
    var coefficientQ = 0.0

    var channels = 0
    var groups = 0
    var maxFrames = 0
    var states = UnsafeMutablePointer<Lowpass.State>.allocate(capacity: 0)
    var laneIn = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: 0)
    var laneOut = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: 0)
    /// Silence read by lanes beyond the last channel, and where their output goes.
    var silence = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    var sink = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    /// While something glides: the coefficients of each span between grid points (at the
    /// span's first frame) and the gain of every frame.
    var rampA1 = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    var rampA2 = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    var rampA3 = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    var rampGain = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    var sumOfSquares = UnsafeMutablePointer<Double>.allocate(capacity: 0)
    /// The largest squared output sample of each channel in the current chunk.
    var blockPeaks = UnsafeMutablePointer<Float>.allocate(capacity: 0)

    /// Where the parameters the DSP wires up live in `smoothers` (plain integers: the
    /// enum's `rawValue` accessor is not checked for real-time use).
    private let cutoffIndex = ParameterID.cutoff.rawValue
    private let resonanceIndex = ParameterID.resonance.rawValue
    private let gainIndex = ParameterID.gain.rawValue
    /// Input magnitude limit (+96 dBFS), see `frame`.
    static var inputLimit: Float { @_noLocks get { 65_536 } }
    /// `Engine.coefficientInterval − 1`, for a cheap modulo on the engine's timeline.
    private let coefficientMask = Engine.coefficientInterval - 1

    init() {
        smoothers = .allocate(capacity: parameterCount)
        smoothers.initialize(repeating: Smoother(kind: .linear, value: 0), count: parameterCount)
        info = .allocate(capacity: parameterCount)
        info.initialize(repeating: EngineParameter(), count: parameterCount)
        appliedEpochs = .allocate(capacity: parameterCount)
        appliedEpochs.initialize(repeating: 0, count: parameterCount)
    }

    mutating func allocate(channels: Int, maxFrames: Int) {
        self.channels = channels
        self.maxFrames = maxFrames
        groups = (channels + 3) / 4
        states = .allocate(capacity: groups)
        states.initialize(repeating: Lowpass.State(), count: groups)
        laneIn = .allocate(capacity: groups * 4)
        laneOut = .allocate(capacity: groups * 4)
        silence = .allocate(capacity: maxFrames)
        silence.initialize(repeating: 0, count: maxFrames)
        sink = .allocate(capacity: maxFrames)
        sink.initialize(repeating: 0, count: maxFrames)
        laneIn.initialize(repeating: UnsafePointer(silence), count: groups * 4)
        laneOut.initialize(repeating: sink, count: groups * 4)
        for buffer in [\RenderState.rampA1, \.rampA2, \.rampA3, \.rampGain] {
            self[keyPath: buffer] = .allocate(capacity: maxFrames)
            self[keyPath: buffer].initialize(repeating: 0, count: maxFrames)
        }
        sumOfSquares = .allocate(capacity: channels)
        sumOfSquares.initialize(repeating: 0, count: channels)
        blockPeaks = .allocate(capacity: channels)
        blockPeaks.initialize(repeating: 0, count: channels)
    }

    /// Frees everything, at the engine's end.
    func deallocate() {
        deallocateBuffers()
        smoothers.deallocate()
        info.deallocate()
        appliedEpochs.deallocate()
    }

    /// Frees the buffers sized by `allocate` (before a new `prepare`).
    func deallocateBuffers() {
        for p in [UnsafeMutableRawPointer(states), UnsafeMutableRawPointer(laneIn),
                  UnsafeMutableRawPointer(laneOut), UnsafeMutableRawPointer(silence),
                  UnsafeMutableRawPointer(sink), UnsafeMutableRawPointer(rampA1),
                  UnsafeMutableRawPointer(rampA2), UnsafeMutableRawPointer(rampA3),
                  UnsafeMutableRawPointer(rampGain), UnsafeMutableRawPointer(sumOfSquares),
                  UnsafeMutableRawPointer(blockPeaks)] {
            p.deallocate()
        }
    }

    /// Recomputes the coefficients from the current cutoff and Q.
    @_noLocks
    mutating func refreshCoefficients() {
        coefficientCutoff = smoothers[cutoffIndex].value
        coefficientQ = smoothers[resonanceIndex].value
        coefficients = Lowpass.Coefficients(cutoff: coefficientCutoff, q: coefficientQ, sampleRate: sampleRate)
    }

    /// Starts the glide of parameter `p` to `value` (in its unit); a negative ramp means the
    /// default smoothing time, 0 a jump. Non-finite values are ignored.
    @_noLocks
    mutating func apply(parameter p: Int, value: Double, rampFrames: Int) {
        guard value.isFinite else { return }
        let frames = rampFrames < 0 ? defaultRamp : rampFrames
        smoothers[p].ramp(to: info[p].engineValue(value), frames: frames)
        if frames == 0 && (p == cutoffIndex || p == resonanceIndex) { refreshCoefficients() }
    }

    /// Points the lanes at the caller's channels, `offset` frames in.
    @_noLocks
    mutating func bind(input: UnsafePointer<UnsafePointer<Float>>,
                       output: UnsafePointer<UnsafeMutablePointer<Float>>, offset: Int) {
        for c in 0..<channels {
            laneIn[c] = input[c] + offset
            laneOut[c] = output[c] + offset
        }
        for c in 0..<channels { blockPeaks[c] = 0 }
    }

    /// Renders frames `start..<end` of the current chunk. Returns true when the input held
    /// non-finite samples.
    @_noLocks
    mutating func renderSegment(from start: Int, to end: Int, blockStart: Int64) -> Bool {
        guard end > start else { return false }
        let gliding = smoothers[gainIndex].isRamping || smoothers[cutoffIndex].isRamping
            || smoothers[resonanceIndex].isRamping
            || smoothers[cutoffIndex].value != coefficientCutoff
            || smoothers[resonanceIndex].value != coefficientQ
        if gliding { fillRamps(from: start, to: end, blockStart: blockStart) }
        var nonFinite = false
        for g in 0..<groups {
            if runGroup(g, from: start, to: end, blockStart: blockStart, gliding: gliding) { nonFinite = true }
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
    private mutating func fillRamps(from start: Int, to end: Int, blockStart: Int64) {
        let interval = Int(coefficientMask) + 1
        var i = start
        while i < end {
            let phase = Int((blockStart + Int64(i)) & coefficientMask)
            let span = min(end - i, interval - phase)
            smoothers[cutoffIndex].skip(1)
            smoothers[resonanceIndex].skip(1)
            if phase == 0 && (smoothers[cutoffIndex].value != coefficientCutoff
                              || smoothers[resonanceIndex].value != coefficientQ) {
                refreshCoefficients()
            }
            smoothers[cutoffIndex].skip(span - 1)
            smoothers[resonanceIndex].skip(span - 1)
            // Coefficients hold for the whole span: stored once, at its first frame.
            rampA1[i] = coefficients.a1[0]
            rampA2[i] = coefficients.a2[0]
            rampA3[i] = coefficients.a3[0]
            smoothers[gainIndex].fill(rampGain + i, count: span)
            i += span
        }
    }

    /// Runs one group of four lanes through the filter and gain.
    @_noLocks
    private mutating func runGroup(_ g: Int, from start: Int, to end: Int, blockStart: Int64,
                                   gliding: Bool) -> Bool {
        var state = states[g]
        let lane = g * 4
        let i0 = laneIn[lane], i1 = laneIn[lane + 1], i2 = laneIn[lane + 2], i3 = laneIn[lane + 3]
        let o0 = laneOut[lane], o1 = laneOut[lane + 1], o2 = laneOut[lane + 2], o3 = laneOut[lane + 3]
        // Meters: the peak is tracked as the largest square (one compare and select per
        // frame; `pointwiseMax` is an out-of-line call); readers take the square root.
        var peakSquare = SIMD4<Float>()
        var squares = SIMD4<Float>()
        var bad = SIMDMask<SIMD4<Int32>>()
        if gliding {
            // The same spans as `fillRamps`: coefficients are constant inside each.
            let interval = Int(coefficientMask) + 1
            var s = start
            while s < end {
                let span = min(end - s, interval - Int((blockStart + Int64(s)) & coefficientMask))
                let c = Lowpass.Coefficients(
                    a1: SIMD4(repeating: rampA1[s]), a2: SIMD4(repeating: rampA2[s]),
                    a3: SIMD4(repeating: rampA3[s]))
                for i in s..<s + span {
                    let y = Self.frame(SIMD4(i0[i], i1[i], i2[i], i3[i]), c, rampGain[i], &state, &bad)
                    o0[i] = y[0]; o1[i] = y[1]; o2[i] = y[2]; o3[i] = y[3]
                    let square = y * y
                    squares += square
                    peakSquare.replace(with: square, where: square .> peakSquare)
                }
                s += span
            }
        } else {
            let c = coefficients
            let gain = Float(smoothers[gainIndex].value)
            for i in start..<end {
                let y = Self.frame(SIMD4(i0[i], i1[i], i2[i], i3[i]), c, gain, &state, &bad)
                o0[i] = y[0]; o1[i] = y[1]; o2[i] = y[2]; o3[i] = y[3]
                let square = y * y
                squares += square
                peakSquare.replace(with: square, where: square .> peakSquare)
            }
        }
        state.recoverNonFinite()
        states[g] = state
        for l in 0..<4 where lane + l < channels {
            blockPeaks[lane + l] = max(blockPeaks[lane + l], peakSquare[l])
            sumOfSquares[lane + l] += Double(squares[l])
        }
        return any(bad)
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
                              _ state: inout Lowpass.State, _ bad: inout SIMDMask<SIMD4<Int32>>) -> SIMD4<Float> {
        var x = input
        let nonFinite = (x - x) .!= 0
        bad .|= nonFinite
        x.replace(with: 0, where: nonFinite)
        x.replace(with: inputLimit, where: x .> inputLimit)
        x.replace(with: -inputLimit, where: x .< -inputLimit)
        return Lowpass.tick(x, c, &state) * gain
    }
}

extension Lowpass.Coefficients {
    /// Coefficients given directly (per-frame values while gliding).
    @_noLocks @inline(__always)
    init(a1: SIMD4<Float>, a2: SIMD4<Float>, a3: SIMD4<Float>) {
        self.a1 = a1
        self.a2 = a2
        self.a3 = a3
    }
}
