import CRealtime

/// The one engine behind every way Detent makes sound: smoothers → lowpass → gain.
///
/// The JACK callback and the offline renderer drive it with the same calls, so live and
/// offline output agree sample for sample for the same input and the same timeline of
/// parameter changes. Life cycle, as in most plug-in kernels:
///
/// ```swift
/// let engine = Engine()
/// engine.prepare(sampleRate: 48_000, maxFrames: 1024, channels: 2)  // allocates
/// engine.jump(.cutoff, to: 800)                                     // before the first block
/// engine.controls.send(ParameterChange(.gain, -6))                  // any time, any thread
/// engine.process(input: ins, output: outs, frames: 256)             // the audio thread
/// ```
///
/// `process` is proven free of allocation, locks and reference counting by the compiler
/// (`@_noLocks`). `prepare`, `reset` and `jump` allocate or touch shared state and must not
/// run while `process` does. Blocks longer than `maxFrames` are processed in pieces.
public final class Engine: @unchecked Sendable {
    /// The control side of the parameter queue: send changes here from any thread.
    public let controls: ParameterQueue
    /// The audio thread's reports: values, meters, counters. Replaced by `prepare` when the
    /// channel count changes.
    public private(set) var telemetry: EngineTelemetry
    /// Ramp time for changes that do not carry their own, in seconds (default 30 ms).
    /// Takes effect at the next `prepare`.
    public var smoothingTime: Double

    public private(set) var sampleRate: Double = 0
    public private(set) var maxFrames: Int = 0
    public private(set) var channels: Int = 0

    // The audio thread's view: trivially-copyable values and raw pointers only.
    private let queue: QueueStorage
    private var meters: TelemetryStorage
    private var render: RenderState

    /// Coefficients are refreshed while cutoff or Q glide every `coefficientInterval`
    /// frames of the engine's own timeline (not of the caller's blocks), so output does not
    /// depend on block size. Eight frames keep the refresh cost small next to the filter.
    /// Must be a power of two (the render path takes it modulo with a mask).
    public static let coefficientInterval: Int64 = 8

    public init(initialValues: [ParameterID: Double] = [:], smoothingTime: Double = 0.030,
                queueCapacity: Int = 1024) {
        controls = ParameterQueue(capacity: queueCapacity)
        queue = controls.storage
        self.smoothingTime = smoothingTime
        telemetry = EngineTelemetry(channels: 0)
        meters = telemetry.storage
        render = RenderState()
        for id in ParameterID.allCases {
            let spec = id.spec
            let v = spec.engineValue(spec.clamp(initialValues[id] ?? spec.defaultValue))
            render.smoothers[id.rawValue] = Smoother(kind: spec.smoothing, value: v)
            render.info[id.rawValue] = EngineParameter(spec)
        }
    }

    deinit { render.deallocate() }

    /// Allocates for blocks of up to `maxFrames` frames of `channels` channels at
    /// `sampleRate`, and clears the filter. Parameter values are kept.
    public func prepare(sampleRate: Double, maxFrames: Int, channels: Int) {
        precondition(sampleRate > 0 && maxFrames > 0 && channels > 0, "invalid engine format")
        self.sampleRate = sampleRate
        self.maxFrames = maxFrames
        if channels != self.channels || telemetry.channels != channels {
            telemetry = EngineTelemetry(channels: channels)
            meters = telemetry.storage
        }
        self.channels = channels
        render.deallocateBuffers()
        render.allocate(channels: channels, maxFrames: maxFrames)
        render.sampleRate = sampleRate
        render.defaultRamp = Int((max(0, smoothingTime) * sampleRate).rounded())
        reset()
    }

    /// Clears the filter memory, ends every glide at its target and restarts the engine's
    /// frame count at 0. Pending changes stay queued.
    public func reset() {
        for g in 0..<render.groups { render.states[g] = Lowpass.State() }
        for p in 0..<render.parameterCount {
            render.smoothers[p].jump(to: render.smoothers[p].target)
        }
        render.refreshCoefficients()
        render.framePosition = 0
        for c in 0..<channels { render.sumOfSquares[c] = 0 }
        render.nonFiniteBlocks = 0
    }

    /// Sets a parameter at once, with no glide: for initial values before the first block.
    public func jump(_ id: ParameterID, to value: Double) {
        let spec = id.spec
        render.smoothers[id.rawValue].jump(to: spec.engineValue(spec.clamp(value)))
        render.refreshCoefficients()
    }

    /// The current (smoothed) value of a parameter, in its unit. Not for the audio thread.
    public func currentValue(_ id: ParameterID) -> Double {
        id.spec.value(fromEngine: render.smoothers[id.rawValue].value)
    }

    /// The engine's frame position: frames processed since the last `reset`. Changes
    /// stamped with a frame are placed on this timeline. Readable on the audio thread.
    public var framePosition: Int64 { @_noLocks get { render.framePosition } }

    /// Applies a change on the audio thread, between two `process` calls: it takes effect
    /// at the first frame the next call processes (its own `frame` is not looked at). For
    /// events that arrive with the audio rather than through the queue (MIDI): the caller
    /// splits its block at each event's frame, which gives exactly what a queued change
    /// stamped with that frame gives, because the output does not depend on how a stream is
    /// cut into blocks. The value is clamped into its range like a queued one.
    @_noLocks
    public func apply(_ change: ParameterChange) {
        let p = change.index
        guard p >= 0, p < render.parameterCount else { return }
        render.apply(parameter: p, value: change.value, rampFrames: Int(change.rampFrames))
    }

    /// Processes `frames` frames of non-interleaved audio: drains pending changes (each at
    /// its frame inside the block), then runs smoothers → lowpass → gain. `input` and
    /// `output` hold `channels` channel pointers; a channel may be processed in place.
    /// NaN or infinite input samples are replaced by silence and counted.
    @_noLocks
    public func process(
        input: UnsafePointer<UnsafePointer<Float>>,
        output: UnsafePointer<UnsafeMutablePointer<Float>>,
        frames: Int
    ) {
        process(.separate(input, output), frames: frames)
    }

    /// Processes `frames` frames of interleaved audio (`channels` samples per frame), as
    /// audio files hold it, exactly as ``process(input:output:frames:)`` processes the same
    /// samples in separate buffers. `output` may be `input` (in place).
    @_noLocks
    public func process(interleaved input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int) {
        process(.interleaved(input, output), frames: frames)
    }

    /// Where a block's samples are.
    private enum Buffers {
        case separate(UnsafePointer<UnsafePointer<Float>>, UnsafePointer<UnsafeMutablePointer<Float>>)
        case interleaved(UnsafePointer<Float>, UnsafeMutablePointer<Float>)
    }

    @_noLocks
    private func process(_ buffers: Buffers, frames: Int) {
        guard render.groups > 0, frames > 0 else { return }
        let savedMode = _unsafePerformance { detent_denormals_off() }
        var done = 0
        while done < frames {
            let n = min(render.maxFrames, frames - done)
            switch buffers {
            case .separate(let input, let output): render.bind(input: input, output: output, offset: done)
            case .interleaved(let input, let output): render.bind(interleavedInput: input, output: output, offset: done)
            }
            processChunk(frames: n)
            done += n
        }
        _unsafePerformance { detent_denormals_restore(savedMode) }
    }

    /// One piece of at most `maxFrames` frames.
    @_noLocks
    private func processChunk(frames n: Int) {
        let blockStart = render.framePosition
        let blockEnd = blockStart + Int64(n)
        // Values that overflowed the ring are the newest of their parameter: apply them first,
        // so any older ring entry of the same parameter is recognised as stale.
        for p in 0..<render.parameterCount {
            if let slot = queue.takeSlot(p) {
                render.apply(parameter: p, value: slot.value, rampFrames: -1)
                render.appliedEpochs[p] = slot.epoch
            }
        }
        var position = 0
        var nonFinite = false
        while true {
            var segmentEnd = n
            while let change = queue.peek() {
                let at = change.frame <= blockStart ? 0 : Int(min(change.frame, blockEnd) - blockStart)
                if at >= n { break }  // belongs to a later block
                if at > position {
                    segmentEnd = at
                    break
                }
                queue.pop()
                let p = change.index
                // Older than a value already taken from the overflow slot: superseded.
                if Int32(bitPattern: change.epoch &- render.appliedEpochs[p]) < 0 { continue }
                render.apply(parameter: p, value: change.value, rampFrames: Int(change.rampFrames))
            }
            if render.renderSegment(from: position, to: segmentEnd, blockStart: blockStart) {
                nonFinite = true
            }
            position = segmentEnd
            if position >= n { break }
        }
        render.framePosition = blockEnd
        if nonFinite { render.nonFiniteBlocks += 1 }
        publish()
    }

    /// Publishes values, sums and counters for readers on other threads.
    @_noLocks
    private func publish() {
        meters.beginWrite()
        for p in 0..<render.parameterCount {
            meters.store(p, render.smoothers[p].value.bitPattern)
        }
        let base = render.parameterCount
        for c in 0..<min(render.channels, meters.channels) {
            meters.store(base + c, render.sumOfSquares[c].bitPattern)
        }
        meters.store(base + meters.channels, UInt64(bitPattern: render.framePosition))
        meters.store(base + meters.channels + 1, UInt64(bitPattern: render.nonFiniteBlocks))
        meters.endWrite()
        for c in 0..<min(render.channels, meters.channels) {
            meters.raisePeak(c, square: render.blockPeaks[c])
        }
    }
}
