import Parameters

/// Everything the audio thread reads and writes, as plain values and raw pointers allocated
/// by `Engine.prepare`: smoothers, the chain's slots and their kernels' state, scratch
/// buffers and the channel-to-lane pointer tables. Kept apart from `Engine` so the render
/// path never touches a class reference (no retain/release on the audio thread).
struct RenderState {
    let parameterCount: Int
    var smoothers: UnsafeMutablePointer<Smoother>
    var info: UnsafeMutablePointer<EngineParameter>
    var appliedEpochs: UnsafeMutablePointer<UInt32>
    /// Per parameter, the frame of the current `process` call where its target last changed
    /// (−1: it did not) and the value it changed to, in the parameter's unit: what a host
    /// echoes to controllers (MIDI feedback).
    var changedAt: UnsafeMutablePointer<Int32>
    var changedTo: UnsafeMutablePointer<Double>

    var sampleRate: Double = 48_000
    /// The longest run an external kernel gets (``Engine/kernelFrames``).
    var kernelFrames = Engine.defaultKernelFrames
    var defaultRamp: Int = 0
    var framePosition: Int64 = 0
    /// True when a slot runs in whole blocks: the engine's blocks are then never cut at events.
    var unsplit = false
    /// True once the caller said the next call ends the stream (``Engine/endStream()``).
    var streamEnds = false
    var nonFiniteBlocks: Int64 = 0
    /// Samples an external kernel put out as NaN, infinity or denormals (written as 0).
    var sanitizedOutput: Int64 = 0

    /// The processors in series (one for a single processor), and the state of each built-in
    /// among them.
    var slots = UnsafeMutablePointer<ChainSlot>.allocate(capacity: 0)
    var slotCount = 0
    /// The slots' wiring: a graph's, or a chain's (or a processor alone's) as the graph of its
    /// line, whose slots run in series in place in the output. Nil only before `prepare`.
    var graph: GraphLayout?
    /// True while a live chain edit fades slots out (``Engine/leave(for:)``).
    var leaving = false
    /// A chain's output level around a live move, 0 (silent) … ``fadeFrames`` (whole), and the
    /// level it goes toward: the output dips out before the move and back in after it, as one
    /// kernel cannot play at two places of the chain at once (``dipOutput(from:to:)``).
    var outputPresence = 1
    var outputTarget = 1
    var builtIns = UnsafeMutablePointer<LowpassGainKernel>.allocate(capacity: 0)
    var builtInCount = 0

    var channels = 0
    var groups = 0
    var maxFrames = 0
    /// The caller's channels, padded to whole groups of four (see ``Lanes``).
    var laneIn = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: 0)
    var laneOut = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: 0)
    /// Distance between a lane's consecutive samples: 1 for separate channel buffers, the
    /// channel count for interleaved ones.
    var stride = 1
    /// Silence read by lanes beyond the last channel, and where their output goes (sized for
    /// the widest stride).
    var silence = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    var sink = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    var sumOfSquares = UnsafeMutablePointer<Double>.allocate(capacity: 0)
    /// The largest squared output sample of each channel in the current chunk.
    var blockPeaks = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    /// False when nothing reads the output meters (``Engine/metersOutput``): the output is
    /// then not metered, and `sumOfSquares` and `blockPeaks` stay 0.
    var metering = true
    /// An external kernel's view: the control values it reads (one per parameter, a slot
    /// reading from its first row), its channel pointer tables, and the sanitised copy of the
    /// input it reads from (so NaN never reaches a plug-in, and input and output never alias).
    var controls: UnsafeMutablePointer<Float>
    /// A chained run's kernels' contexts and controls, and what it reports per kernel
    /// (``renderChained``).
    var chainContexts = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 0)
    var chainControls = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: 0)
    var chainReports = UnsafeMutablePointer<Int64>.allocate(capacity: 0)
    var externalIn = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: 0)
    var externalOut = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: 0)
    var scratchIn = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    var scratchOut = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    /// Each slot's side-chain signal in this chunk (``Engine/SideInput``): `channels` lane
    /// pointers per slot and the distance between a lane's samples (silence, stride 1, when the
    /// caller gave none); the sanitised copy a kernel reads, and its channel table.
    var sideLanes = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: 0)
    var sideStrides = UnsafeMutablePointer<Int>.allocate(capacity: 0)
    var scratchSide = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    var externalSide = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: 0)
    /// True while the keyed slot running now reads ``silence`` as its side signal (it was
    /// given none: ``keepSide``).
    var sideSilent = false
    /// How many slots read a side signal of the caller's (none: the lanes all read silence).
    var sideBound = 0
    /// Per slot, which of a live host's side signals feeds it (−1: none; ``Engine/bindSides(_:)``).
    var sideSources = UnsafeMutablePointer<Int>.allocate(capacity: 0)
    /// Per named input of a graph (1 … ), which of the host's signals feeds it (−1: none).
    var namedSources = UnsafeMutablePointer<Int>.allocate(capacity: 0)
    var namedSourceCount = 0
    /// A bypassed (or crossfading) slot's input, delayed by its latency, per channel.
    var dry = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    /// True when `dry` holds the running slot's delayed input over this segment (it has a
    /// latency, or is blended or crossfaded): what it passes on should its output be absurd.
    var dryHolds = false
    /// A slot's input, undelayed, while it fades in or out of the chain (a live edit).
    var pass = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    /// The bypass crossfade's length and its dry-path gains, sin(π/2 · k / fadeFrames) for
    /// k = 0 … fadeFrames (the wet gain at k is the dry gain at fadeFrames − k: equal power).
    var fadeFrames = 1
    var fadeGains = UnsafeMutablePointer<Float>.allocate(capacity: 0)
    /// Whether `fadeGains` is this state's to free, rather than shared (``FadeGains``).
    var ownsFadeGains = true

    /// Input magnitude limit (+96 dBFS), as the built-in kernel limits it.
    static var inputLimit: Float { @_noLocks get { LowpassGainKernel.inputLimit } }
    /// The largest sample a plug-in's output may hold, ±1e6 (120 dB over full scale): beyond
    /// it, the sample is a fault, and is treated as NaN is. Not lower: some plug-ins put out
    /// control signals as audio (swh's frequency tracker, the frequency in Hz).
    static var outputLimit: Float { @_noLocks get { 1_000_000 } }

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

    /// Allocates the buffers for `channels` channels of blocks of up to `maxFrames` frames,
    /// and takes `slots` (whose built-ins are `builtIns`, allocated by their makers) with a
    /// bypass crossfade of `fadeFrames` frames.
    mutating func allocate(channels: Int, maxFrames: Int, slots chain: [ChainSlot],
                           builtIns kernels: [LowpassGainKernel], fadeFrames: Int) {
        self.channels = channels
        self.maxFrames = maxFrames
        groups = (channels + 3) / 4
        slotCount = chain.count
        unsplit = chain.contains { $0.whole }
        slots = .allocate(capacity: max(1, chain.count))
        slots.initialize(from: chain, count: chain.count)
        builtInCount = kernels.count
        builtIns = .allocate(capacity: max(1, kernels.count))
        builtIns.initialize(from: kernels, count: kernels.count)
        laneIn = .allocate(capacity: groups * 4)
        laneOut = .allocate(capacity: groups * 4)
        silence = .allocate(capacity: maxFrames * channels)
        silence.initialize(repeating: 0, count: maxFrames * channels)
        sink = .allocate(capacity: maxFrames * channels)
        sink.initialize(repeating: 0, count: maxFrames * channels)
        laneIn.initialize(repeating: UnsafePointer(silence), count: groups * 4)
        laneOut.initialize(repeating: sink, count: groups * 4)
        sumOfSquares = .allocate(capacity: channels)
        sumOfSquares.initialize(repeating: 0, count: channels)
        blockPeaks = .allocate(capacity: channels)
        blockPeaks.initialize(repeating: 0, count: channels)
        // Pointed at the scratch buffers span by span in `renderExternal`.
        externalIn = .allocate(capacity: channels)
        externalOut = .allocate(capacity: channels)
        chainContexts = .allocate(capacity: max(1, chain.count))
        chainContexts.initialize(repeating: nil, count: max(1, chain.count))
        chainControls = .allocate(capacity: max(1, chain.count))
        chainControls.initialize(repeating: UnsafePointer(silence), count: max(1, chain.count))
        chainReports = .allocate(capacity: chain.count + 1)
        chainReports.initialize(repeating: 0, count: chain.count + 1)
        scratchIn = .allocate(capacity: maxFrames * channels)
        scratchIn.initialize(repeating: 0, count: maxFrames * channels)
        scratchOut = .allocate(capacity: maxFrames * channels)
        scratchOut.initialize(repeating: 0, count: maxFrames * channels)
        sideLanes = .allocate(capacity: max(1, chain.count * channels))
        sideLanes.initialize(repeating: UnsafePointer(silence), count: max(1, chain.count * channels))
        sideStrides = .allocate(capacity: max(1, chain.count))
        sideStrides.initialize(repeating: 1, count: max(1, chain.count))
        sideSources = .allocate(capacity: max(1, chain.count))
        sideSources.initialize(repeating: -1, count: max(1, chain.count))
        namedSources = .allocate(capacity: 1)
        namedSources.initialize(to: -1)
        namedSourceCount = 0
        let keyed = chain.contains { if case .external(let k) = $0.kernel { k.side != nil } else { false } }
        scratchSide = .allocate(capacity: keyed ? maxFrames * channels : 1)
        scratchSide.initialize(repeating: 0, count: keyed ? maxFrames * channels : 1)
        externalSide = .allocate(capacity: channels)
        externalSide.initialize(repeating: UnsafePointer(silence), count: channels)
        let bypassable = chain.contains { $0.bypass >= 0 }
        dry = .allocate(capacity: bypassable ? maxFrames * channels : 0)
        dry.initialize(repeating: 0, count: bypassable ? maxFrames * channels : 0)
        // Any slot may fade in or out (a live edit, a file parameter loaded again), even a
        // processor on its own.
        pass = .allocate(capacity: maxFrames * channels)
        pass.initialize(repeating: 0, count: maxFrames * channels)
        self.fadeFrames = max(1, fadeFrames)
        for s in 0..<slotCount {
            slots[s].presence = self.fadeFrames
            slots[s].presenceTarget = self.fadeFrames
        }
        outputPresence = self.fadeFrames
        outputTarget = self.fadeFrames
        (fadeGains, ownsFadeGains) = FadeGains.table(frames: self.fadeFrames)
    }

    /// Frees everything, at the engine's end.
    mutating func deallocate() {
        deallocateBuffers()
        smoothers.deallocate()
        info.deallocate()
        controls.deallocate()
        appliedEpochs.deallocate()
        changedAt.deallocate()
        changedTo.deallocate()
    }

    /// Frees the buffers sized by `allocate` (before a new `prepare`).
    mutating func deallocateBuffers() {
        graph?.deallocate()
        graph = nil
        for s in 0..<slotCount { slots[s].delay?.deallocate() }
        for b in 0..<builtInCount { builtIns[b].deallocate() }
        for p in [UnsafeMutableRawPointer(slots), UnsafeMutableRawPointer(builtIns),
                  UnsafeMutableRawPointer(laneIn), UnsafeMutableRawPointer(laneOut),
                  UnsafeMutableRawPointer(silence),
                  UnsafeMutableRawPointer(sink), UnsafeMutableRawPointer(sumOfSquares),
                  UnsafeMutableRawPointer(blockPeaks), UnsafeMutableRawPointer(externalIn),
                  UnsafeMutableRawPointer(externalOut), UnsafeMutableRawPointer(scratchIn),
                  UnsafeMutableRawPointer(scratchOut), UnsafeMutableRawPointer(dry), UnsafeMutableRawPointer(pass)] {
            p.deallocate()
        }
        if ownsFadeGains { fadeGains.deallocate() }
        chainContexts.deallocate()
        chainControls.deallocate()
        chainReports.deallocate()
        sideLanes.deallocate()
        sideStrides.deallocate()
        sideSources.deallocate()
        namedSources.deallocate()
        scratchSide.deallocate()
        externalSide.deallocate()
    }

    /// Recomputes every built-in's coefficients from its current cutoff and Q.
    @_noLocks
    mutating func refreshCoefficients() {
        for b in 0..<builtInCount { builtIns[b].refreshCoefficients(smoothers) }
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
            for b in 0..<builtInCount where builtIns[b].isFilterRow(p) { builtIns[b].refreshCoefficients(smoothers) }
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
        graph?.bind(stride: stride, output: UnsafePointer(laneOut))  // the slots' buffers laid out as the caller's lanes are
    }

    /// Points each slot's side lanes at the caller's side signals, `offset` frames in; a slot
    /// the caller gave none reads silence.
    @_noLocks
    mutating func bind(sides: UnsafeBufferPointer<Engine.SideInput>, offset: Int) {
        if sides.isEmpty && sideBound == 0 { return }
        for s in 0..<slotCount {
            sideStrides[s] = 1
            for c in 0..<channels { sideLanes[s &* channels &+ c] = UnsafePointer(silence) }
        }
        sideBound = 0
        if let graph {
            for k in 0..<graph.namedCount {
                graph.namedStrides[k] = 1
                for c in 0..<channels { graph.namedLanes[k &* channels &+ c] = UnsafePointer(silence) }
            }
            for side in sides where side.namedInput >= 1 && side.namedInput <= graph.namedCount {
                let k = side.namedInput - 1
                graph.namedStrides[k] = side.stride
                for c in 0..<channels { graph.namedLanes[k &* channels &+ c] = side.channels[c] + offset &* side.stride }
                sideBound &+= 1
            }
        }
        for side in sides where side.namedInput == 0 && side.slot >= 0 && side.slot < slotCount {
            sideStrides[side.slot] = side.stride
            for c in 0..<channels { sideLanes[side.slot &* channels &+ c] = side.channels[c] + offset &* side.stride }
            sideBound &+= 1
        }
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
        graph?.bind(stride: stride, output: UnsafePointer(laneOut))  // the slots' buffers laid out as the caller's lanes are
    }

    /// Renders frames `start..<end` of the current chunk through the slots, as their layout
    /// wires them (a chain's: each in turn, in place on the caller's output), the output
    /// dipped around a live move. Returns true when the input held non-finite samples.
    @_noLocks
    mutating func renderSegment(from start: Int, to end: Int, blockStart: Int64) -> Bool {
        guard end > start, let graph else { return false }
        let dipping = outputPresence != fadeFrames || outputTarget != fadeFrames
        let nonFinite = renderGraphSegment(graph, from: start, to: end, blockStart: blockStart, metering: metering && !dipping)
        if dipping {
            dipOutput(from: start, to: end)
            if metering { meterOutput(from: start, to: end) }
        }
        return nonFinite
    }

    /// What running one slot did: whether its input held non-finite samples, and whether its
    /// output must be metered apart (a blend or a fade changed it after its kernel metered it,
    /// or it was out and passed its input on).
    struct SlotRun {
        var nonFinite = false
        var remeter = false
    }

    /// Slot `s` over `start..<end`, as every slot runs, in a chain or a graph. A slot out (a
    /// live edit waiting to take over) passes its input on — copied when `passesInput`, where
    /// input and output are not already the same signal. While an edit waits to take over, a
    /// slot faded out still runs (unheard), so one that moves carries on from the input it had
    /// the frame before. One fading in or out is crossfaded with its undelayed input; the
    /// others run with their bypass and mix. `meters` meters the kernel's output when nothing
    /// changes it afterwards.
    @_noLocks
    mutating func renderPlaced(_ s: Int, _ lanes: Lanes, from start: Int, to end: Int, blockStart: Int64, passesInput: Bool,
                               meters: Meters?) -> SlotRun {
        if slots[s].presence == 0 && slots[s].presenceTarget == 0 && !leaving {
            if passesInput { passInput(lanes, from: start, to: end) }
            return SlotRun(nonFinite: false, remeter: true)
        }
        let entering = slots[s].presence != fadeFrames || slots[s].presenceTarget != fadeFrames
        if entering { keepInput(lanes, from: start, to: end) }
        let ran = renderWithDry(s, lanes, from: start, to: end, blockStart: blockStart, meters: entering ? nil : meters)
        if entering { mixPresence(s, lanes, from: start, to: end) }
        return SlotRun(nonFinite: ran.nonFinite, remeter: ran.blended || entering)
    }

    /// The chain's output over `start..<end` faded toward ``outputTarget``, frame by frame,
    /// with the raised cosine slots fade with: around a live move, the chain before it fades
    /// to silence and the chain after it fades in from silence. A slot cannot fade out of one
    /// place while it fades into another (it has one kernel), and fading it to its input and
    /// back would swell the level by whatever it attenuates; a dip never goes above either
    /// chain's level.
    @_noLocks
    mutating func dipOutput(from start: Int, to end: Int) {
        let first = outputPresence, target = outputTarget
        let step = target > first ? 1 : (target < first ? -1 : 0)
        var k = first
        for c in 0..<channels {
            let out = laneOut[c]
            k = first
            for i in start..<end {
                let gain = fadeGains[k]
                out[i &* stride] *= gain * gain
                if k != target { k += step }
            }
        }
        outputPresence = k
    }

    /// Slot `s` over `start..<end` with its bypass and dry/wet mix: its input kept (delayed
    /// by its latency) when it is to be blended or crossfaded with, the kernel run, then the
    /// blend and the crossfade. `meters` meters the kernel's output only when nothing blends
    /// it afterwards (`blended` says so; then the caller meters).
    @_noLocks
    mutating func renderWithDry(_ s: Int, _ lanes: Lanes, from start: Int, to end: Int, blockStart: Int64,
                                meters: Meters?) -> (nonFinite: Bool, blended: Bool) {
        let blending = blends(s)
        let mixing = keepDry(s, lanes, from: start, to: end, blending: blending)
        let nonFinite = renderSlot(s, lanes, from: start, to: end, blockStart: blockStart,
                                   meters: mixing || blending ? nil : meters)
        if blending { blendDry(s, lanes, from: start, to: end) }
        if mixing { mixDry(s, lanes, from: start, to: end) }
        return (nonFinite, mixing || blending)
    }

    /// The caller's input, made finite and limited as every kernel takes it, copied to the
    /// output: what an absent first slot does.
    @_noLocks
    mutating func passInput(_ lanes: Lanes, from start: Int, to end: Int) {
        for c in 0..<channels {
            let src = lanes.input[c], dst = lanes.output[c]
            for i in start..<end {
                let x = src[i &* lanes.stride]
                dst[i &* lanes.stride] = x.isFinite ? min(max(x, -Self.inputLimit), Self.inputLimit) : 0
            }
        }
    }

    /// Before a slot fading in or out of the chain runs: its input, undelayed, into `pass`.
    @_noLocks
    mutating func keepInput(_ lanes: Lanes, from start: Int, to end: Int) {
        for c in 0..<channels {
            let src = lanes.input[c], dst = pass + c * maxFrames
            for i in start..<end { dst[i] = src[i &* lanes.stride] }
        }
    }

    /// After a slot fading in or out ran: its output crossfaded with its undelayed input,
    /// toward the side its presence target asks for. The gains are sin² and cos² (a raised
    /// cosine): they sum to one, so a slot whose output is much like its input (an EQ, a
    /// compressor) fades with no bump in level, and they start and end flat, so the fade
    /// itself puts no corner in the sound.
    @_noLocks
    mutating func mixPresence(_ s: Int, _ lanes: Lanes, from start: Int, to end: Int) {
        let reached = crossfade(lanes, with: pass, from: start, to: end, position: fadeFrames - slots[s].presence,
                                target: fadeFrames - slots[s].presenceTarget, squared: true)
        slots[s].presence = fadeFrames - reached
    }

    /// Crossfades the output lanes over `start..<end` with `source` (a slot's input, per
    /// channel; non-finite input is silence, as every kernel takes it), frame by frame from
    /// `position` toward `target` — 0 all output, ``fadeFrames`` all input — with the gains
    /// of ``fadeGains`` (equal power) or their squares (a raised cosine, summing to one).
    /// Returns the position reached.
    @_noLocks
    private func crossfade(_ lanes: Lanes, with source: UnsafeMutablePointer<Float>, from start: Int, to end: Int,
                           position first: Int, target: Int, squared: Bool) -> Int {
        let step = target > first ? 1 : (target < first ? -1 : 0)
        var k = first
        for c in 0..<channels {
            let out = lanes.output[c], src = source + c * maxFrames
            k = first
            for i in start..<end {
                let j = i &* lanes.stride
                let x = src[i]
                let d = x.isFinite ? min(max(x, -Self.inputLimit), Self.inputLimit) : 0
                let wet = fadeGains[fadeFrames - k], dry = fadeGains[k]
                out[j] = squared ? out[j] * (wet * wet) + d * (dry * dry) : out[j] * wet + d * dry
                if k != target { k += step }
            }
        }
        return k
    }

    /// One slot's kernel over `start..<end`.
    @_noLocks
    private mutating func renderSlot(_ s: Int, _ lanes: Lanes, from start: Int, to end: Int, blockStart: Int64,
                                     meters: Meters?) -> Bool {
        switch slots[s].kernel {
        case .lowpassGain(let b):
            return builtIns[b].render(lanes, from: start, to: end, blockStart: blockStart, smoothers: smoothers, meters: meters)
        case .external(let external):
            if external.side != nil { sideSilent = keepSide(s, from: start, to: end) }
            return renderExternal(external, slot: s, lanes, from: start, to: end, blockStart: blockStart, meters: meters)
        }
    }

    /// Before a keyed slot runs: its side signal over `start..<end`, made finite and limited as
    /// a main input is, into ``scratchSide`` (offset 0 = frame `start`). Returns true, copying
    /// nothing, when the slot is given no side signal: its kernel reads ``silence`` itself (a
    /// compressor with a side-chain input, run without one, costs no pass over silence).
    @_noLocks
    private func keepSide(_ s: Int, from start: Int, to end: Int) -> Bool {
        let stride = sideStrides[s]
        var silent = true
        for c in 0..<channels where sideLanes[s &* channels &+ c] != UnsafePointer(silence) { silent = false }
        if silent { return true }
        for c in 0..<channels {
            _ = SampleScans.copyIn(from: sideLanes[s &* channels &+ c] + start &* stride, stride: stride, to: scratchSide + c * maxFrames,
                                   count: end - start, limit: Self.inputLimit)
        }
        return false
    }

    /// Whether slot `s`'s dry/wet mix blends its input into its output over this segment:
    /// below 100 %, or gliding. At 100 % and still, a slot costs nothing for it.
    @_noLocks
    func blends(_ s: Int) -> Bool {
        let row = slots[s].mix
        return row >= 0 && (smoothers[row].value < 100 || smoothers[row].isRamping)
    }

    /// Whether slot `s` is crossfaded with its input: bypassed, or on the way in or out of it.
    /// A processor with its own on/off switch bypasses itself (``renderExternal``): no
    /// crossfade around it.
    @_noLocks
    func crossfades(_ s: Int) -> Bool {
        let row = slots[s].bypass
        return row >= 0 && slots[s].enabled < 0 && (smoothers[row].value >= 0.5 || slots[s].fadePosition > 0)
    }

    /// Row `p` of `slot` as its kernel takes it: the smoothed value, but 0 for the processor's
    /// own on/off switch while the slot is bypassed (it then fades itself out).
    @_noLocks
    func controlValue(_ p: Int, of slot: ChainSlot) -> Float {
        p == slot.enabled && smoothers[slot.bypass].value >= 0.5 ? 0 : Float(smoothers[p].value)
    }

    /// Before a chain's slot runs: its input goes through its latency's delay into `dry`,
    /// when the output is to be blended (`blending`) or crossfaded with it. Returns whether
    /// it is to be crossfaded (bypassed, or on the way).
    @_noLocks
    private mutating func keepDry(_ s: Int, _ lanes: Lanes, from start: Int, to end: Int, blending: Bool) -> Bool {
        guard slots[s].bypass >= 0 else { return false }
        // A processor with its own on/off switch is not crossfaded; its mix still blends.
        let mixing = crossfades(s)
        let filling = mixing || blending
        let latency = slots[s].latency
        // The history is kept whether or not the slot is bypassed, so that it holds the right
        // input the moment bypass (or a blend) begins.
        dryHolds = filling || latency > 0
        guard dryHolds else { return false }
        let stride = lanes.stride
        for c in 0..<channels {
            let src = lanes.input[c], dst = dry + c * maxFrames
            guard latency > 0, let delay = slots[s].delay else {
                for i in start..<end { dst[i] = src[i &* stride] }
                continue
            }
            // `history` holds the input's last `latency` frames, oldest first. The delayed
            // input is read from it and from this segment (made finite in `mixDry`); then the
            // history takes this segment's last frames — while the slot plays, that copy of at
            // most `latency` frames a segment is all its bypass costs.
            // Filled even while the slot plays: should its output turn absurd, the delayed
            // input is what it passes on (one copy of the segment, for slots with latency).
            let history = delay + c * latency
            for i in start..<end {
                let back = i - start - latency
                dst[i] = back >= 0 ? src[(start + back) &* stride] : history[latency + back]
            }
            Self.remember(src, stride: stride, from: start, to: end, in: history, length: latency)
        }
        return mixing
    }

    /// A delay line's history after a segment: the last `length` frames of the signal, oldest
    /// first, taken from `src` (samples `stride` apart) over `start..<end` and from what the
    /// history held before. The one way every delay here (a slot's dry path, a graph's
    /// connection) keeps its past.
    @_noLocks
    static func remember(_ src: UnsafePointer<Float>, stride: Int, from start: Int, to end: Int,
                         in history: UnsafeMutablePointer<Float>, length: Int) {
        let n = end - start
        if n >= length {
            for j in 0..<length { history[j] = src[(end - length + j) &* stride] }
        } else {
            for j in 0..<(length - n) { history[j] = history[j + n] }
            for j in 0..<n { history[length - n + j] = src[(start + j) &* stride] }
        }
    }

    /// After a slot ran with its mix below 100 % (or gliding): its output blended with its
    /// input delayed by its latency (`dry`; non-finite input is silence, as every kernel takes
    /// it), linearly — at 50 % exactly half of each — the mix advancing a frame at a time, as
    /// every smoothed row does, so a moved mix glides.
    @_noLocks
    private mutating func blendDry(_ s: Int, _ lanes: Lanes, from start: Int, to end: Int) {
        let row = slots[s].mix
        for i in start..<end {
            let wet = Float(smoothers[row].next() / 100)
            let j = i &* lanes.stride
            for c in 0..<channels {
                let x = dry[c * maxFrames + i]
                let d = x.isFinite ? min(max(x, -Self.inputLimit), Self.inputLimit) : 0
                let out = lanes.output[c]
                out[j] = out[j] * wet + d * (1 - wet)
            }
        }
    }

    /// After a bypassable slot ran: its output crossfaded with `dry`, frame by frame, toward
    /// the side its bypass row asks for. The gains sum to one (sin² and cos²): a slot's output
    /// and its own delayed input are alike more often than not (an EQ near flat, a subtle
    /// compressor), and an equal-power fade between two alike signals swells by 3 dB.
    @_noLocks
    private mutating func mixDry(_ s: Int, _ lanes: Lanes, from start: Int, to end: Int) {
        slots[s].fadePosition = crossfade(lanes, with: dry, from: start, to: end, position: slots[s].fadePosition,
                                          target: smoothers[slots[s].bypass].value >= 0.5 ? fadeFrames : 0, squared: true)
    }

    /// A chain's meters: the last slot's output, after any bypass mix.
    @_noLocks
    mutating func meterOutput(from start: Int, to end: Int) {
        for c in 0..<channels {
            let out = laneOut[c]
            var squares: Float = 0, peak = blockPeaks[c]
            for i in start..<end {
                let y = out[i &* stride]
                squares += y * y
                peak = max(peak, y * y)
            }
            blockPeaks[c] = peak
            sumOfSquares[c] += Double(squares)
        }
    }

    /// Renders `start..<end` through an external kernel: the input is copied (sanitised) to
    /// the scratch buffers; while a control glides the kernel runs in stretches cut at the
    /// engine's external grid, each with that moment's smoothed values; the output is
    /// metered (alone), made finite and copied to the output lanes. One loop, long by design:
    /// the audio thread's hottest path after the built-in's, whose steps share the span's
    /// pointers and counters in registers.
    ///
    /// The kernel writes scratch, never the output lanes themselves: a plug-in that leaves
    /// some of its output unwritten (swh's `delay_n` and `comb_n` do, after their ring wraps)
    /// then repeats its own earlier output there, not whatever the caller's buffer held.
    @_noLocks
    private mutating func renderExternal(_ external: ExternalKernel, slot s: Int, _ lanes: Lanes,
                                         from start: Int, to end: Int, blockStart: Int64, meters: Meters?) -> Bool {
        let slot = slots[s]
        var nonFinite = false
        // In: lanes → scratch, offset 0 = frame `start`.
        for c in 0..<channels {
            if SampleScans.copyIn(from: lanes.input[c] + start &* lanes.stride, stride: lanes.stride, to: scratchIn + c * maxFrames,
                                  count: end - start, limit: Self.inputLimit) {
                nonFinite = true
            }
        }
        let first = slot.base, last = slot.base + slot.count
        var i = start
        while i < end {
            // Controls take the smoothed values at points of the grid (and at jumps, in
            // `apply`), never where the caller's block happens to start: while a glide runs
            // or has not yet been written out, the kernel runs span by span up to each point.
            // Each parameter has its grid (an expensive one a coarser one); the span runs to
            // the nearest grid point of any parameter still gliding or not yet written out.
            let frame = blockStart + Int64(i)
            var span = min(end - i, kernelFrames)
            // A whole-block kernel takes its controls once a run, as they are at its start.
            for p in first..<last {
                let mask = info[p].controlMask
                let value = controlValue(p, of: slot)
                if slot.whole || frame & mask == 0 { controls[p] = value }
                if !slot.whole && (smoothers[p].isRamping || controls[p] != value) {
                    span = min(span, LowpassGainKernel.Spans.length(from: i, to: end, blockStart: blockStart, mask: mask))
                }
            }
            // The stream's last, shorter run of a whole-block kernel (or one that pads its
            // end): padded with silence to a whole block, the frames past the end run and dropped.
            var ran = span
            if slot.padsEnd && streamEnds && i + span == end && span < kernelFrames && i - start + kernelFrames <= maxFrames {
                ran = kernelFrames
                for c in 0..<channels {
                    (scratchIn + c * maxFrames + (i - start) + span).update(repeating: 0, count: ran - span)
                }
                if external.side != nil && !sideSilent {
                    for c in 0..<channels {
                        (scratchSide + c * maxFrames + (i - start) + span).update(repeating: 0, count: ran - span)
                    }
                }
            }
            // The kernel's channel tables point at frame `i` of the scratch buffers.
            for c in 0..<channels {
                externalIn[c] = UnsafePointer(scratchIn + c * maxFrames + (i - start))
                externalOut[c] = scratchOut + c * maxFrames + (i - start)
            }
            let controls = UnsafePointer(self.controls + first)
            let inputs = UnsafePointer(externalIn), outputs = UnsafePointer(externalOut)
            let channels = self.channels
            if let side = external.side {
                let read = sideSilent ? silence : scratchSide
                for c in 0..<channels { externalSide[c] = UnsafePointer(read + c * maxFrames + (i - start)) }
                let sides = UnsafePointer(externalSide)
                _unsafePerformance { side(external.context, sides, channels) }
            }
            _unsafePerformance { external.run(external.context, controls, inputs, outputs, channels, ran) }
            for p in first..<last { smoothers[p].skip(span) }
            i += span
        }
        // Out, where nothing meters it: scratch → lanes, a denormal made silence (and counted),
        // looked over for absurd samples in the same pass; the usual case ends here.
        if meters == nil, copyOutChecked(to: lanes, from: start, to: end) { return nonFinite }
        // A segment with an absurd sample (non-finite, or beyond ±outputLimit: a broken
        // plug-in's 6e32, whose square is no Float) is the slot's fault alone: the slot passes
        // its input on for it, delayed by its latency as a bypass does, and the rest of the
        // chain plays on. It is counted per slot, so every surface can name the slot.
        if Self.holdsAbsurd(scratchOut, channels: channels, stride: maxFrames, count: end - start) {
            slots[s].absurdFrames &+= Int64(end - start)
            sanitizedOutput &+= Int64((end - start) * channels)
            for c in 0..<channels {
                let kept = dryHolds ? dry + c * maxFrames + start : scratchIn + c * maxFrames
                let out = scratchOut + c * maxFrames
                for i in 0..<(end - start) {
                    let x = kept[i]
                    out[i] = x.isFinite ? min(max(x, -Self.inputLimit), Self.inputLimit) : 0
                }
            }
        }
        // Out: scratch → lanes, metered; a denormal sample from the kernel becomes silence (and
        // is counted), so it can reach neither a file nor the speakers.
        var sanitized: Int64 = 0
        defer { sanitizedOutput &+= sanitized }
        for c in 0..<channels {
            var squares: Float = 0, peak: Float = meters?.peaks[c] ?? 0
            sanitized &+= SampleScans.copyOut(from: scratchOut + c * maxFrames, to: lanes.output[c] + start &* lanes.stride,
                                              stride: lanes.stride, count: end - start, squares: &squares, peak: &peak)
            if let meters {
                meters.peaks[c] = peak
                meters.sums[c] += Double(squares)
            }
        }
        return nonFinite
    }

    /// The kernel's output over `start..<end` (scratch, offset 0 = frame `start`) copied to
    /// the output lanes unmetered, a denormal made silence and counted, in one pass that also
    /// looks for an absurd sample (``holdsAbsurd(_:channels:stride:count:)``'s). Returns false
    /// when it found one: nothing is counted then, and the output is to be written again
    /// (from the passed-on input).
    @_noLocks
    private mutating func copyOutChecked(to lanes: Lanes, from start: Int, to end: Int) -> Bool {
        var sanitized: Int64 = 0
        for c in 0..<channels {
            guard let denormals = SampleScans.checkedCopyOut(from: scratchOut + c * maxFrames,
                                                             to: lanes.output[c] + start &* lanes.stride, stride: lanes.stride,
                                                             count: end - start, limit: Self.outputLimit) else { return false }
            sanitized &+= denormals
        }
        sanitizedOutput &+= sanitized
        return true
    }

    /// True when any of `count` samples of `channels` buffers (`stride` apart) is not finite
    /// or beyond ±``outputLimit``.
    @_noLocks
    static func holdsAbsurd(_ buffers: UnsafeMutablePointer<Float>, channels: Int, stride: Int, count: Int) -> Bool {
        SampleScans.holdsAbsurd(buffers, channels: channels, stride: stride, count: count, limit: outputLimit)
    }
}
