import Parameters

/// Everything the audio thread reads and writes, as plain values and raw pointers allocated
/// by `Engine.prepare`: smoothers, filter states, scratch buffers and the channel-to-lane
/// pointer tables. Kept apart from `Engine` so the render path never touches a class
/// reference (no retain/release on the audio thread).
struct RenderState {
    /// The processor's audio code, as the render path calls it.
    enum Kernel: BitwiseCopyable {
        case lowpassGain
        case external(ExternalKernel)
    }

    let parameterCount: Int
    var kernel = Kernel.lowpassGain
    var smoothers: UnsafeMutablePointer<Smoother>
    var info: UnsafeMutablePointer<EngineParameter>
    var appliedEpochs: UnsafeMutablePointer<UInt32>
    /// Per parameter, the frame of the current `process` call where its target last changed
    /// (−1: it did not) and the value it changed to, in the parameter's unit: what a host
    /// echoes to controllers (MIDI feedback).
    var changedAt: UnsafeMutablePointer<Int32>
    var changedTo: UnsafeMutablePointer<Double>

    var sampleRate: Double = 48_000
    var defaultRamp: Int = 0
    var framePosition: Int64 = 0
    var nonFiniteBlocks: Int64 = 0
    /// Samples an external kernel put out as NaN, infinity or denormals (written as 0).
    var sanitizedOutput: Int64 = 0

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
    /// Distance between a lane's consecutive samples: 1 for separate channel buffers, the
    /// channel count for interleaved ones.
    var stride = 1
    /// Silence read by lanes beyond the last channel, and where their output goes (sized for
    /// the widest stride).
    var silence = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    var sink = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    /// While something glides: the coefficients of each span between grid points (at the
    /// span's first frame) and the gain of every frame.
    var rampK1 = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    var rampK2 = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    var rampK3 = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    var rampGain = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    /// The gain while nothing glides, read at every frame through a stride of 0 (one loop
    /// serves both cases).
    var steadyGain = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    var sumOfSquares = UnsafeMutablePointer<Double>.allocate(capacity: 0)
    /// The largest squared output sample of each channel in the current chunk.
    var blockPeaks = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    /// An external kernel's view: the control values it reads (one per parameter), its
    /// channel pointer tables, and the sanitised copy of the input it reads from (so NaN
    /// never reaches a plug-in, and input and output never alias).
    var controls: UnsafeMutablePointer<Float>
    var externalIn = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: 0)
    var externalOut = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: 0)
    var scratchIn = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    var scratchOut = UnsafeMutablePointer<Float>.allocate(capacity: 0)

    /// Where the built-in processor's parameters live in `smoothers` (plain integers).
    private let cutoffIndex = 0
    private let resonanceIndex = 1
    private let gainIndex = 2
    /// Input magnitude limit (+96 dBFS), see `frame`.
    static var inputLimit: Float { @_noLocks get { 65_536 } }
    /// `Engine.coefficientInterval − 1`, for a cheap modulo on the engine's timeline.
    private let coefficientMask = Engine.coefficientInterval - 1

    init(parameterCount: Int) {
        self.parameterCount = parameterCount
        controls = .allocate(capacity: max(1, parameterCount))
        controls.initialize(repeating: 0, count: max(1, parameterCount))
        smoothers = .allocate(capacity: parameterCount)
        smoothers.initialize(repeating: Smoother(kind: .linear, value: 0), count: parameterCount)
        info = .allocate(capacity: parameterCount)
        info.initialize(repeating: EngineParameter(), count: parameterCount)
        appliedEpochs = .allocate(capacity: parameterCount)
        appliedEpochs.initialize(repeating: 0, count: parameterCount)
        changedAt = .allocate(capacity: parameterCount)
        changedAt.initialize(repeating: -1, count: parameterCount)
        changedTo = .allocate(capacity: parameterCount)
        changedTo.initialize(repeating: 0, count: parameterCount)
    }

    mutating func allocate(channels: Int, maxFrames: Int) {
        self.channels = channels
        self.maxFrames = maxFrames
        groups = (channels + 3) / 4
        states = .allocate(capacity: groups)
        states.initialize(repeating: Lowpass.State(), count: groups)
        laneIn = .allocate(capacity: groups * 4)
        laneOut = .allocate(capacity: groups * 4)
        silence = .allocate(capacity: maxFrames * channels)
        silence.initialize(repeating: 0, count: maxFrames * channels)
        sink = .allocate(capacity: maxFrames * channels)
        sink.initialize(repeating: 0, count: maxFrames * channels)
        laneIn.initialize(repeating: UnsafePointer(silence), count: groups * 4)
        laneOut.initialize(repeating: sink, count: groups * 4)
        for buffer in [\RenderState.rampK1, \.rampK2, \.rampK3, \.rampGain] {
            self[keyPath: buffer] = .allocate(capacity: maxFrames)
            self[keyPath: buffer].initialize(repeating: 0, count: maxFrames)
        }
        sumOfSquares = .allocate(capacity: channels)
        sumOfSquares.initialize(repeating: 0, count: channels)
        blockPeaks = .allocate(capacity: channels)
        blockPeaks.initialize(repeating: 0, count: channels)
        // Pointed at the scratch buffers span by span in `renderExternal`.
        externalIn = .allocate(capacity: channels)
        externalOut = .allocate(capacity: channels)
        scratchIn = .allocate(capacity: maxFrames * channels)
        scratchIn.initialize(repeating: 0, count: maxFrames * channels)
        scratchOut = .allocate(capacity: maxFrames * channels)
        scratchOut.initialize(repeating: 0, count: maxFrames * channels)
    }

    /// Frees everything, at the engine's end.
    func deallocate() {
        deallocateBuffers()
        steadyGain.deallocate()
        smoothers.deallocate()
        info.deallocate()
        controls.deallocate()
        appliedEpochs.deallocate()
        changedAt.deallocate()
        changedTo.deallocate()
    }

    /// Frees the buffers sized by `allocate` (before a new `prepare`).
    func deallocateBuffers() {
        for p in [UnsafeMutableRawPointer(states), UnsafeMutableRawPointer(laneIn),
                  UnsafeMutableRawPointer(laneOut), UnsafeMutableRawPointer(silence),
                  UnsafeMutableRawPointer(sink), UnsafeMutableRawPointer(rampK1),
                  UnsafeMutableRawPointer(rampK2), UnsafeMutableRawPointer(rampK3),
                  UnsafeMutableRawPointer(rampGain), UnsafeMutableRawPointer(sumOfSquares),
                  UnsafeMutableRawPointer(blockPeaks), UnsafeMutableRawPointer(externalIn),
                  UnsafeMutableRawPointer(externalOut), UnsafeMutableRawPointer(scratchIn),
                  UnsafeMutableRawPointer(scratchOut)] {
            p.deallocate()
        }
    }

    /// Recomputes the coefficients from the current cutoff and Q.
    @_noLocks
    mutating func refreshCoefficients() {
        // Before an external processor's first `prepare` the kernel is still the default:
        // the count tells the built-in's three rows from another table.
        guard case .lowpassGain = kernel, parameterCount > resonanceIndex else { return }
        coefficientCutoff = smoothers[cutoffIndex].value
        coefficientQ = smoothers[resonanceIndex].value
        coefficients = Lowpass.Coefficients(cutoff: coefficientCutoff, q: coefficientQ, sampleRate: sampleRate)
    }

    /// Starts the glide of parameter `p` to `value` (in its unit); a negative ramp means the
    /// default smoothing time, 0 a jump. Non-finite values are ignored.
    @_noLocks
    mutating func apply(parameter p: Int, value: Double, rampFrames: Int) {
        guard value.isFinite else { return }
        let frames = info[p].jumps ? 0 : (rampFrames < 0 ? defaultRamp : rampFrames)
        smoothers[p].ramp(to: info[p].engineValue(value), frames: frames)
        if frames == 0 {
            controls[p] = Float(smoothers[p].value)
            if p == cutoffIndex || p == resonanceIndex { refreshCoefficients() }
        }
    }

    /// Points the lanes at the caller's channel buffers, `offset` frames in.
    @_noLocks
    mutating func bind(input: UnsafePointer<UnsafePointer<Float>>,
                       output: UnsafePointer<UnsafeMutablePointer<Float>>, offset: Int) {
        for c in 0..<channels {
            laneIn[c] = input[c] + offset
            laneOut[c] = output[c] + offset
            blockPeaks[c] = 0
        }
        stride = 1
    }

    /// Points the lanes at the channels of an interleaved buffer, `offset` frames in.
    @_noLocks
    mutating func bind(interleavedInput input: UnsafePointer<Float>,
                       output: UnsafeMutablePointer<Float>, offset: Int) {
        for c in 0..<channels {
            laneIn[c] = input + (offset * channels + c)
            laneOut[c] = output + (offset * channels + c)
            blockPeaks[c] = 0
        }
        stride = channels
    }

    /// Renders frames `start..<end` of the current chunk. Returns true when the input held
    /// non-finite samples.
    @_noLocks
    mutating func renderSegment(from start: Int, to end: Int, blockStart: Int64) -> Bool {
        guard end > start else { return false }
        if case .external(let external) = kernel {
            return renderExternal(external, from: start, to: end, blockStart: blockStart)
        }
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
        var i = start
        while i < end {
            let phase = Int((blockStart + Int64(i)) & coefficientMask)
            let span = Spans.length(from: i, to: end, blockStart: blockStart, mask: coefficientMask)
            smoothers[cutoffIndex].skip(1)
            smoothers[resonanceIndex].skip(1)
            if phase == 0 && (smoothers[cutoffIndex].value != coefficientCutoff
                              || smoothers[resonanceIndex].value != coefficientQ) {
                refreshCoefficients()
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
    private mutating func runGroup(_ g: Int, from start: Int, to end: Int, blockStart: Int64,
                                   gliding: Bool) -> Bool {
        var state = states[g]
        let lane = g * 4
        let stride = self.stride
        steadyGain[0] = Float(smoothers[gainIndex].value)
        let gains = gliding ? rampGain : steadyGain
        let gainStride = gliding ? 1 : 0
        var meter = Meter()
        var spans = Spans(render: self, from: start, to: end, blockStart: blockStart, gliding: gliding)
        // Each loop takes only the pointers it uses, so they all stay in registers.
        if channels - lane == 2 {
            let in0 = laneIn[lane], in1 = laneIn[lane + 1], out0 = laneOut[lane], out1 = laneOut[lane + 1]
            while let (range, c) = spans.next() {
                for i in range {
                    let j = i &* stride
                    let y = Self.frame(SIMD4(in0[j], in1[j], 0, 0), c, gains[i &* gainStride], &state, &meter)
                    out0[j] = y[0]; out1[j] = y[1]
                }
                if spans.atSettlePoint { state.settle() }
            }
        } else {
            let in0 = laneIn[lane], in1 = laneIn[lane + 1], in2 = laneIn[lane + 2], in3 = laneIn[lane + 3]
            let out0 = laneOut[lane], out1 = laneOut[lane + 1], out2 = laneOut[lane + 2], out3 = laneOut[lane + 3]
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
        for l in 0..<4 where lane + l < channels {
            blockPeaks[lane + l] = max(blockPeaks[lane + l], meter.peakSquare[l])
            sumOfSquares[lane + l] += Double(meter.squares[l])
        }
        return any(meter.nonFinite)
    }

    /// Renders `start..<end` through an external kernel: the input is copied (sanitised) to
    /// the scratch buffers; while a control glides the kernel runs in stretches cut at the
    /// engine's external grid, each with that moment's smoothed values; the output is
    /// metered, made finite and copied to the caller's buffers.
    @_noLocks
    private mutating func renderExternal(_ external: ExternalKernel, from start: Int, to end: Int,
                                         blockStart: Int64) -> Bool {
        var nonFinite = false
        // In: lanes → scratch, offset 0 = frame `start`.
        for c in 0..<channels {
            let src = laneIn[c], dst = scratchIn + c * maxFrames
            for i in start..<end {
                var x = src[i &* stride]
                if !x.isFinite { x = 0; nonFinite = true }
                dst[i - start] = min(max(x, -Self.inputLimit), Self.inputLimit)
            }
        }
        var i = start
        while i < end {
            // Controls take the smoothed values at points of the grid (and at jumps, in
            // `apply`), never where the caller's block happens to start: while a glide runs
            // or has not yet been written out, the kernel runs span by span up to each point.
            // Each parameter has its grid (an expensive one a coarser one); the span runs to
            // the nearest grid point of any parameter still gliding or not yet written out.
            let frame = blockStart + Int64(i)
            var span = end - i
            for p in 0..<parameterCount {
                let mask = info[p].controlMask
                if frame & mask == 0 { controls[p] = Float(smoothers[p].value) }
                if smoothers[p].isRamping || controls[p] != Float(smoothers[p].value) {
                    span = min(span, Spans.length(from: i, to: end, blockStart: blockStart, mask: mask))
                }
            }
            // The kernel's channel tables point at frame `i` of the scratch buffers.
            for c in 0..<channels {
                externalIn[c] = UnsafePointer(scratchIn + c * maxFrames + (i - start))
                externalOut[c] = scratchOut + c * maxFrames + (i - start)
            }
            let controls = UnsafePointer(self.controls)
            let inputs = UnsafePointer(externalIn), outputs = UnsafePointer(externalOut)
            let channels = self.channels
            _unsafePerformance { external.run(external.context, controls, inputs, outputs, channels, span) }
            for p in 0..<parameterCount { smoothers[p].skip(span) }
            i += span
        }
        // Out: scratch → lanes, metered; a non-finite or denormal sample from the kernel
        // becomes silence (and is counted), so it can reach neither a file nor the speakers.
        var sanitized: Int64 = 0
        defer { sanitizedOutput &+= sanitized }
        for c in 0..<channels {
            let src = scratchOut + c * maxFrames, dst = laneOut[c]
            var squares: Float = 0, peak: Float = blockPeaks[c]
            for i in start..<end {
                var y = src[i - start]
                // Denormals are told by their bits: with denormals-are-zero on, they compare
                // equal to 0 and would pass any arithmetic test.
                let bits = y.bitPattern
                if !y.isFinite || (bits & 0x7F80_0000 == 0 && bits & 0x007F_FFFF != 0) {
                    y = 0
                    sanitized &+= 1
                }
                dst[i &* stride] = y
                squares += y * y
                peak = max(peak, y * y)
            }
            blockPeaks[c] = peak
            sumOfSquares[c] += Double(squares)
        }
        return nonFinite
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
        init(render: RenderState, from start: Int, to end: Int, blockStart: Int64, gliding: Bool) {
            k1 = render.rampK1
            k2 = render.rampK2
            k3 = render.rampK3
            steady = render.coefficients
            self.gliding = gliding
            self.blockStart = blockStart
            mask = render.coefficientMask
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
