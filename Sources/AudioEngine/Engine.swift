import CRealtime
import Parameters

/// The one engine behind every way Detent makes sound: a processor's parameters, smoothed,
/// driving its audio code — the built-in lowpass → gain, or an ``ExternalKernel``.
///
/// The JACK callback and the offline renderer drive it with the same calls, so live and
/// offline output agree sample for sample for the same input and the same timeline of
/// parameter changes. Life cycle, as in most plug-in kernels:
///
/// ```swift
/// let engine = Engine(processor: .lowpassGain)
/// try engine.prepare(sampleRate: 48_000, maxFrames: 1024, channels: 2)  // allocates
/// engine.jump(.cutoff, to: 800)                                     // before the first block
/// engine.controls.send(ParameterChange(.gain, -6))                  // any time, any thread
/// engine.process(input: ins, output: outs, frames: 256)             // the audio thread
/// ```
///
/// `process` is proven free of allocation, locks and reference counting by the compiler
/// (`@_noLocks`). `prepare`, `reset` and `jump` allocate or touch shared state and must not
/// run while `process` does. Blocks longer than `maxFrames` are processed in pieces.
public final class Engine: @unchecked Sendable {
    /// What the engine runs: its parameter table and audio code.
    public let processor: Processor
    /// The processor's parameters (`processor.table`).
    public var table: ParameterTable { processor.table }
    /// The control side of the parameter queue: send changes here from any thread.
    public let controls: ParameterQueue
    /// The audio thread's reports: values, meters, counters. Replaced by `prepare` when the
    /// channel count changes.
    public private(set) var telemetry: EngineTelemetry
    /// Ramp time for changes that do not carry their own, in seconds (default 30 ms).
    /// Takes effect at the next `prepare`.
    public var smoothingTime: Double
    /// The tempo processors that follow one are told (`time:Position` for LV2), the transport
    /// rolling from frame 0; nil tells none. Takes effect at the next `prepare`.
    public var beatsPerMinute: Double?
    /// Whether the output is metered: its sums of squares and peaks in ``telemetry`` (a
    /// panel's meters, a render's peak). A host that reads neither turns it off, and the
    /// output is then copied out in one pass that meters nothing (the telemetry's sums and
    /// peaks stay 0; its counters count as before). Set while `process` does not run.
    public var metersOutput: Bool {
        get { render.metering }
        set { render.metering = newValue }
    }

    public private(set) var sampleRate: Double = 0
    public private(set) var maxFrames: Int = 0
    public private(set) var channels: Int = 0

    /// True when the processor takes MIDI besides its parameters (``Processor/acceptsMIDI``),
    /// stored so the audio thread can ask without copying the processor.
    public let acceptsMIDI: Bool
    /// True when prepared for a real-time thread (see ``KernelFormat/realtime``).
    public private(set) var realtime = false

    // The audio thread's view: trivially-copyable values and raw pointers only.
    let queue: QueueStorage
    private var meters: TelemetryStorage
    var render: RenderState
    /// Set for an engine made to take over from another (``successor(running:origins:values:)``).
    var handover: Handover?
    /// ``bindSides(_:)``'s sources, applied again at each `prepare`.
    private var sideBindings: [Int] = []
    private var namedBindings: [Int] = []
    /// Keeps an external kernel's memory alive between `prepare`s, and lets its host read the
    /// kernel's meters and messages (never read on the audio thread); nil for the built-in.
    public private(set) var kernelOwner: AnyObject?

    /// Coefficients are refreshed while cutoff or Q glide every `coefficientInterval`
    /// frames of the engine's own timeline (not of the caller's blocks), so output does not
    /// depend on block size. Eight frames keep the refresh cost small next to the filter.
    /// Must be a power of two (the render path takes it modulo with a mask).
    public static let coefficientInterval: Int64 = 8

    /// An external kernel runs in stretches of at most this many frames while a control
    /// glides, each with that moment's smoothed values (a plug-in reads a control once per
    /// `run`). The grid is the engine's own timeline, so the output does not depend on the
    /// caller's block size. The default of 8 frames (a 30 ms glide in 180 steps) was chosen
    /// by measurement: the zipper of a cutoff sweep through a plug-in that does not smooth its
    /// own controls falls about 6 dB per halving of the interval against one step per
    /// 256-frame period — 12 dB at 32 frames, 19 dB at 16, 25 dB at 8 — while the cost is
    /// paid only during glides and only by plug-ins that recompute on every change (docs/plugins.md;
    /// `Benchmarks/plugins-vs-lv2file.sh` measures both).
    public static let externalInterval: Int64 = 8

    /// This engine's interval (``externalInterval`` unless chosen at creation).
    public let controlInterval: Int

    /// The longest `run` an external kernel is given, whatever the caller's blocks: what a
    /// live host asks for at most (plug-ins are written and tested for such blocks, and some
    /// crash on the 16384-frame blocks a render reads files in). Also the block length a
    /// plug-in is told to expect.
    public static let defaultKernelFrames = 4_096

    /// This engine's longest kernel run (``defaultKernelFrames`` unless chosen at creation).
    public let kernelFrames: Int

    /// An engine for `processor`, its parameters at `initialValues` (clamped; defaults for
    /// those missing).
    /// - Parameter controlInterval: a power of two, 1 … 4096: how often, in frames, an
    ///   external kernel's gliding controls are written (see ``externalInterval``).
    public init(processor: Processor = .lowpassGain, initialValues: [ParameterIndex: Double] = [:],
                smoothingTime: Double = 0.030, queueCapacity: Int = 1024,
                controlInterval: Int = Int(Engine.externalInterval), kernelFrames: Int = Engine.defaultKernelFrames) {
        precondition(controlInterval > 0 && controlInterval <= 4096 && controlInterval & (controlInterval - 1) == 0,
                     "the control interval must be a power of two up to 4096")
        precondition(kernelFrames > 0, "a kernel runs at least one frame at a time")
        self.processor = processor
        acceptsMIDI = processor.acceptsMIDI
        self.controlInterval = controlInterval
        self.kernelFrames = kernelFrames
        let table = processor.table
        controls = ParameterQueue(capacity: queueCapacity, parameterCount: table.count)
        queue = controls.storage
        self.smoothingTime = smoothingTime
        telemetry = EngineTelemetry(channels: 0, table: table, slots: max(1, processor.slots.count))
        meters = telemetry.storage
        render = RenderState(parameterCount: table.count)
        for id in table.indices {
            var info = EngineParameter(table[id])
            let interval = processor.expensive.contains(id) ? max(controlInterval, Processor.coarseInterval) : controlInterval
            info.controlMask = Int64(interval - 1)
            let v = info.engineValue(table[id].clamp(initialValues[id] ?? table[id].defaultValue))
            render.smoothers[id.rawValue] = Smoother(kind: table[id].smoothing, value: v)
            render.info[id.rawValue] = info
        }
    }

    deinit {
        render.deallocate()
        handover?.deallocate()
    }

    /// Allocates for blocks of up to `maxFrames` frames of `channels` channels at
    /// `sampleRate`, and clears the filter. Parameter values are kept.
    ///
    /// - Throws: what an external processor's kernel factory throws (the built-in never does).
    /// - Parameter realtime: true for a live engine (see ``KernelFormat/realtime``).
    public func prepare(sampleRate: Double, maxFrames: Int, channels: Int, realtime: Bool = false) throws {
        try prepare(sampleRate: sampleRate, maxFrames: maxFrames, channels: channels, realtime: realtime, inheriting: nil)
    }

    /// What a hand-over passes to the engine it prepares: the engine taken over, where each new
    /// slot comes from, and the graph's connections that arrive, stay or go unfaded.
    typealias Inheritance = (engine: Engine, origins: [SlotOrigin], arriving: Set<String>, staying: Set<String>, unfaded: Set<Int>)

    /// ``prepare(sampleRate:maxFrames:channels:realtime:)``, taking the kernels of the slots
    /// `inheriting` names (`origins[i]`: where slot `i` comes from) from the engine given
    /// instead of making them: a running kernel is shared, not reset or run here.
    func prepare(sampleRate: Double, maxFrames: Int, channels: Int, realtime: Bool, inheriting: Inheritance?) throws {
        precondition(sampleRate > 0 && maxFrames > 0 && channels > 0, "invalid engine format")
        let format = KernelFormat(sampleRate: sampleRate, maxFrames: min(maxFrames, kernelFrames), channels: channels,
                                  realtime: realtime, beatsPerMinute: beatsPerMinute, followsTransport: realtime)
        let made = try makeSlots(format: format, maxFrames: maxFrames, inheriting: inheriting)
        self.sampleRate = sampleRate
        self.maxFrames = maxFrames
        if channels != self.channels || telemetry.channels != channels {
            telemetry = EngineTelemetry(channels: channels, table: processor.table, slots: max(1, processor.slots.count))
            meters = telemetry.storage
        }
        self.channels = channels
        self.realtime = realtime
        render.deallocateBuffers()
        let slotNames = processor.slots.map(\.name)
        kernelOwner = slotNames.isEmpty ? made.owners[0] : ChainReports(names: slotNames, owners: made.owners, routing: processor.routing)
        render.allocate(channels: channels, maxFrames: maxFrames, slots: made.slots, builtIns: made.builtIns,
                        fadeFrames: Int((Self.bypassFadeTime * sampleRate).rounded()))
        render.sampleRate = sampleRate
        render.kernelFrames = min(maxFrames, kernelFrames)
        render.defaultRamp = Int((max(0, smoothingTime) * sampleRate).rounded())
        let inherited = (0..<made.slots.count).map { inheriting?.origins[$0].source != nil }
        resetState(inherited: inherited)
        prepareBypassDelays(owners: made.owners, inherited: inheriting.map { ($0.engine, $0.origins) })
        layOut(processor.routing ?? .line(render.slotCount), channels: channels, maxFrames: maxFrames, fades: processor.routing != nil)
        applySideBindings()
        if let (old, origins, arriving, staying, unfaded) = inheriting {
            handover = Handover(from: old, origins: origins, into: self, arriving: arriving, staying: staying, unfaded: unfaded)
            for (s, origin) in origins.enumerated() where origin.fadesIn { render.slots[s].presence = 0 }
            if origins.contains(where: \.moves) { render.outputPresence = 0 }
        }
    }

    /// The slots of a prepare: each one's kernel and rows, the built-ins among them, and the
    /// object that owns each kernel's memory (nil for a built-in).
    private struct MadeSlots {
        var slots: [ChainSlot] = []
        var builtIns: [LowpassGainKernel] = []
        var owners: [AnyObject?] = []
    }

    /// Each part's kernel, at its rows: the processor alone, or every slot of a chain, made
    /// for `format` — or, for a slot `inheriting` says carries on, the running kernel taken
    /// over. On a failure, the built-ins made so far are freed.
    private func makeSlots(format: KernelFormat, maxFrames: Int, inheriting: Inheritance?) throws -> MadeSlots {
        var made = MadeSlots()
        var madeAll = false
        defer { if !madeAll { for kernel in made.builtIns { kernel.deallocate() } } }
        let oldOwners = inheriting?.engine.slotOwners ?? []
        // How the last slot added takes its runs: whole, and with its stream's end padded.
        func blocks(of processor: Processor) {
            made.slots[made.slots.count - 1].whole = processor.runsWholeBlocks
            made.slots[made.slots.count - 1].padsEnd = processor.runsWholeBlocks || processor.padsLastRun
        }
        func add(_ processor: Processor, base: Int, bypass: Int) throws {
            if let (old, origins, _, _, _) = inheriting, processor.slots.isEmpty, made.slots.count < origins.count,
               let from = origins[made.slots.count].source {
                precondition(old.render.slots[from].count == processor.table.count, "an inherited slot keeps its processor")
                switch old.render.slots[from].kernel {
                case .external(let kernel):
                    made.slots.append(ChainSlot(kernel: .external(kernel), base: base, count: processor.table.count, bypass: bypass,
                                                enabled: bypass >= 0 ? processor.enabledRow.map { base + $0.rawValue } ?? -1 : -1))
                    blocks(of: processor)
                    made.owners.append(oldOwners[from])
                    return
                case .lowpassGain:
                    break  // a kernel of its own, whose filter state is copied at the take-over
                }
            }
            switch processor.code {
            case .lowpassGain:
                made.builtIns.append(LowpassGainKernel(base: base, channels: format.channels, maxFrames: maxFrames,
                                                       sampleRate: format.sampleRate))
                made.slots.append(ChainSlot(kernel: .lowpassGain(index: made.builtIns.count - 1), base: base,
                                            count: processor.table.count, bypass: bypass))
                made.owners.append(nil)
            case .external(let make):
                // The values the processor starts from, there when it is activated: a plug-in
                // may size itself by a control then (swh's delays by their maximum delay).
                var own = format
                own.startingValues = processor.table.indices.map { id in
                    processor.table[id].value(fromEngine: render.smoothers[base + id.rawValue].target)
                }
                let prepared = try make(own)
                made.slots.append(ChainSlot(kernel: .external(prepared.kernel), base: base, count: processor.table.count,
                                            bypass: bypass, enabled: bypass >= 0 ? processor.enabledRow.map { base + $0.rawValue } ?? -1 : -1))
                blocks(of: processor)
                made.owners.append(prepared.owner)
            case .chain(let parts):
                for part in parts { try add(part.processor, base: part.first.rawValue, bypass: part.bypass.rawValue) }
            }
        }
        try add(processor, base: 0, bypass: -1)
        madeAll = true
        return made
    }

    /// The slots' wiring laid out for the audio thread (a chain's, or a processor alone's, as
    /// the graph of its line), with its named inputs unbound.
    private func layOut(_ routing: GraphRouting, channels: Int, maxFrames: Int, fades: Bool) {
        render.graph = GraphLayout(routing, latencies: (0..<render.slotCount).map { render.slots[$0].latency },
                                   channels: channels, maxFrames: maxFrames, fadeFrames: render.fadeFrames, fades: fades,
                                   silence: UnsafePointer(render.silence), sink: render.sink)
        let count = routing.inputs.count - 1
        render.namedSources.deallocate()
        render.namedSources = .allocate(capacity: max(1, count))
        render.namedSources.initialize(repeating: -1, count: max(1, count))
        render.namedSourceCount = count
    }

    /// The owner of each slot's kernel (nil for a built-in).
    package var slotOwners: [AnyObject?] {
        if let chain = kernelOwner as? ChainReports { return chain.owners }
        return [kernelOwner]
    }

    /// How long a chain slot's bypass crossfades (equal gain): short enough to follow a
    /// footswitch, long enough not to click.
    public static let bypassFadeTime = 0.010

    /// Sizes each chain slot's delay to the latency its kernel reports at the current
    /// values (`owners`: the kernels' owners, slot by slot), so its bypassed and dry paths
    /// line up with its processed one. An inherited slot keeps the latency it had (its kernel runs
    /// in the engine taken over from, and is not run here).
    private func prepareBypassDelays(owners: [AnyObject?], inherited: (engine: Engine, origins: [SlotOrigin])?) {
        // Every slot of a chain: a processor with its own on/off switch fades itself when
        // bypassed, but its dry/wet mix still blends its delayed input.
        for s in 0..<render.slotCount where render.slots[s].bypass >= 0 {
            let latency: Int
            if let (old, origins) = inherited, let from = origins[s].source {
                // A single processor sized no delay: its kernel's last report says.
                latency = old.render.slots[from].bypass >= 0 ? old.render.slots[from].latency
                    : max(0, min((owners[s] as? any KernelReports)?.latency ?? 0, 1 << 20))
            } else {
                runSlotForNoFrames(s)
                latency = max(0, min((owners[s] as? any KernelReports)?.latency ?? 0, 1 << 20))
            }
            render.slots[s].latency = latency
            if latency > 0 {
                let ring = UnsafeMutablePointer<Float>.allocate(capacity: latency * channels)
                ring.initialize(repeating: 0, count: latency * channels)
                render.slots[s].delay = ring
            }
        }
    }

    /// Runs every external kernel for no frames with the current values (see
    /// ``latencyAtCurrentValues()``); nothing for the built-in.
    func runKernelForNoFrames() {
        for s in 0..<render.slotCount { runSlotForNoFrames(s) }
    }

    /// Runs slot `s`'s kernel, if external, for no frames with its current values.
    private func runSlotForNoFrames(_ s: Int) {
        guard case .external(let kernel) = render.slots[s].kernel, channels > 0 else { return }
        let slot = render.slots[s]
        for p in slot.base..<slot.base + slot.count { render.controls[p] = Float(render.smoothers[p].value) }
        for c in 0..<channels {
            render.externalIn[c] = UnsafePointer(render.scratchIn + c * maxFrames)
            render.externalOut[c] = render.scratchOut + c * maxFrames
        }
        let mode = detent_denormals_off()
        kernel.run(kernel.context, render.controls + slot.base, render.externalIn, render.externalOut, channels, 0)
        detent_denormals_restore(mode)
    }

    /// Says that the next `process` call holds the stream's last frames (a render's last
    /// block): a kernel that runs in whole blocks (``Processor/runsWholeBlocks``) is given its
    /// last, shorter run padded with silence to a whole block, and only the frames asked for
    /// are kept — so a convolver's last block is convolved as the others are. Until `reset`.
    public func endStream() {
        render.streamEnds = true
    }

    /// Clears the filter memory, ends every glide at its target and restarts the engine's
    /// frame count at 0. Pending changes stay queued.
    public func reset() {
        resetState(inherited: [])
    }

    /// ``reset()``, leaving alone the kernels of the slots marked `inherited` (running in
    /// the engine this one takes over from).
    private func resetState(inherited: [Bool]) {
        for b in 0..<render.builtInCount { render.builtIns[b].reset() }
        for s in 0..<render.slotCount {
            if case .external(let kernel) = render.slots[s].kernel, !(s < inherited.count && inherited[s]) {
                kernel.reset?(kernel.context)
            }
            let slot = render.slots[s]
            // A bypassed slot starts bypassed, with nothing yet to crossfade.
            render.slots[s].fadePosition = slot.bypass >= 0 && render.smoothers[slot.bypass].target >= 0.5
                ? render.fadeFrames : 0
            if let delay = slot.delay { delay.update(repeating: 0, count: slot.latency * channels) }
        }
        for p in 0..<render.parameterCount {
            render.smoothers[p].jump(to: render.smoothers[p].target)
            render.controls[p] = Float(render.smoothers[p].value)
        }
        render.refreshCoefficients()
        render.graph?.clear(channels: channels)
        render.framePosition = 0
        render.streamEnds = false
        for c in 0..<channels { render.sumOfSquares[c] = 0 }
        render.nonFiniteBlocks = 0
        render.sanitizedOutput = 0
        for k in 0..<render.slotCount { render.slots[k].absurdFrames = 0 }
    }

    /// Sets a parameter at once, with no glide: for initial values before the first block.
    public func jump(_ id: ParameterIndex, to value: Double) {
        render.smoothers[id.rawValue].jump(to: render.info[id.rawValue].engineValue(table[id].clamp(value)))
        render.controls[id.rawValue] = Float(render.smoothers[id.rawValue].value)
        render.refreshCoefficients()
    }

    /// The current (smoothed) value of a parameter, in its unit. Not for the audio thread.
    public func currentValue(_ id: ParameterIndex) -> Double {
        table[id].value(fromEngine: render.smoothers[id.rawValue].value)
    }

    /// The engine's frame position: frames processed since the last `reset`. Changes
    /// stamped with a frame are placed on this timeline. Readable on the audio thread.
    public var framePosition: Int64 { @_noLocks get { render.framePosition } }

    /// Starts the MIDI messages for the next ``process(input:output:frames:events:)`` call,
    /// for a processor that ``Processor/acceptsMIDI``; nothing otherwise (audio thread).
    @_noLocks
    public func beginMIDI() {
        for s in 0..<render.slotCount {
            guard case .external(let kernel) = render.slots[s].kernel, let begin = kernel.beginEvents else { continue }
            _unsafePerformance { begin(kernel.context) }
        }
    }

    /// Hands `sink` the MIDI messages the processors wrote in the `process` call just made
    /// (`frames` long), slot by slot, each at its frame in the call (audio thread): a live
    /// host's port for its plug-ins' MIDI output.
    @_noLocks
    public func drainMIDIOutput(frames: Int, into sink: ExternalKernel.MIDISink, target: UnsafeMutableRawPointer?) {
        for s in 0..<render.slotCount {
            guard case .external(let kernel) = render.slots[s].kernel, let drain = kernel.drainMIDI else { continue }
            _unsafePerformance { drain(kernel.context, UInt32(truncatingIfNeeded: frames), sink, target) }
        }
    }

    /// Tells every processor that follows a transport where it is, for the next `process`
    /// call (audio thread): at a change of tempo, of rolling or stopped, or of place, as LV2's
    /// `time:Position` wants it (a live host reading JACK's transport).
    @_noLocks
    public func transport(_ position: TransportPosition) {
        for s in 0..<render.slotCount {
            guard case .external(let kernel) = render.slots[s].kernel, let tell = kernel.transport else { continue }
            _unsafePerformance {
                tell(kernel.context, position.frame, position.rolling ? 1 : 0, position.bar, Float(position.barBeat),
                     position.beat, position.beatUnit, Float(position.beatsPerBar), Float(position.beatsPerMinute))
            }
        }
    }

    /// Hands the processor a MIDI message at `frame` of the next `process` call (after
    /// ``beginMIDI()``, in time order); in a chain, every slot that takes MIDI gets it.
    /// Returns false when no slot took it (no MIDI input, or the cycle's list is full).
    @_noLocks
    @discardableResult
    public func addMIDI(frame: Int, bytes: UnsafePointer<UInt8>, size: Int) -> Bool {
        var taken = false
        for s in 0..<render.slotCount {
            guard case .external(let kernel) = render.slots[s].kernel, let add = kernel.addEvent else { continue }
            if _unsafePerformance({ add(kernel.context, UInt32(truncatingIfNeeded: frame), bytes, UInt32(truncatingIfNeeded: size)) }) {
                taken = true
            }
        }
        return taken
    }

    /// Processes `frames` frames of non-interleaved audio: drains pending changes (each at
    /// its frame inside the block) and takes `events` — changes that arrived with the audio
    /// (MIDI), each at the frame its `frame` field gives *within this call* (0 ..< frames),
    /// in ascending order — then runs the smoothers and the processor. One loop splits the
    /// block at both, so an event lands exactly as a queued change stamped with that frame.
    /// `input` and `output` hold `channels` channel pointers; a channel may be processed in
    /// place. NaN or infinite input samples are replaced by silence and counted.
    ///
    /// `sides` are side-chain signals for slots with side-chain inputs (a keyed compressor),
    /// each as long as the block; a slot with none given hears silence there.
    @_noLocks
    public func process(
        input: UnsafePointer<UnsafePointer<Float>>,
        output: UnsafePointer<UnsafeMutablePointer<Float>>,
        frames: Int,
        events: UnsafeBufferPointer<ParameterChange> = UnsafeBufferPointer(start: nil, count: 0),
        sides: UnsafeBufferPointer<SideInput> = UnsafeBufferPointer(start: nil, count: 0)
    ) {
        process(.separate(input, output), frames: frames, events: events, sides: sides)
    }

    /// Tells which of a host's side signals feeds each slot: `sources[s]` for slot `s` (−1 or
    /// missing: none). A live host numbers its side-chain port sets and binds an engine before
    /// it runs (kept across `prepare`); its callback then asks ``sideSource(_:)``.
    /// `named[k - 1]` feeds a graph's named input k.
    public func bindSides(_ sources: [Int], named: [Int] = []) {
        sideBindings = sources
        namedBindings = named
        applySideBindings()
    }

    private func applySideBindings() {
        for s in 0..<render.slotCount { render.sideSources[s] = s < sideBindings.count ? sideBindings[s] : -1 }
        for k in 0..<render.namedSourceCount { render.namedSources[k] = k < namedBindings.count ? namedBindings[k] : -1 }
    }

    /// The named inputs of a graph (0 for a chain).
    public var namedInputCount: Int { @_noLocks get { render.namedSourceCount } }

    /// The host's signal bound to named input `k` (1 …), or −1 (audio thread).
    @_noLocks
    public func namedSource(_ k: Int) -> Int {
        let count = render.namedSourceCount
        guard k >= 1, k <= count else { return -1 }
        return render.namedSources[k - 1]
    }

    /// The slots the audio thread runs (one for a processor on its own).
    public var slotCount: Int { @_noLocks get { render.slotCount } }

    /// The side signal bound to slot `s` (``bindSides(_:)``), or −1 (audio thread).
    @_noLocks
    public func sideSource(_ s: Int) -> Int {
        let count = render.slotCount
        guard s >= 0, s < count else { return -1 }
        return render.sideSources[s]
    }

    /// A side-chain signal for one slot over a `process` call: channel `c`'s first sample at
    /// `channels[c]`, the next ones `stride` apart (1 for separate buffers, the channel count
    /// for interleaved ones), in the engine's channel count (fold a key of other channels
    /// first). `slot` is the chain's slot index (0 for a processor on its own).
    /// For a graph, `namedInput` k ≥ 1 makes it the graph's named input k instead (its
    /// ``GraphRouting/inputs```[k]`, `key`), and `slot` is not read.
    public struct SideInput: BitwiseCopyable {
        public var slot: Int
        public var channels: UnsafePointer<UnsafePointer<Float>>
        public var stride: Int
        public var namedInput: Int
        public init(slot: Int, channels: UnsafePointer<UnsafePointer<Float>>, stride: Int, namedInput: Int = 0) {
            self.slot = slot
            self.channels = channels
            self.stride = stride
            self.namedInput = namedInput
        }
    }

    /// Processes `frames` frames of interleaved audio (`channels` samples per frame), as
    /// audio files hold it, exactly as ``process(input:output:frames:)`` processes the same
    /// samples in separate buffers. `output` may be `input` (in place).
    @_noLocks
    public func process(interleaved input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, frames: Int,
                        sides: UnsafeBufferPointer<SideInput> = UnsafeBufferPointer(start: nil, count: 0)) {
        process(.interleaved(input, output), frames: frames, events: UnsafeBufferPointer(start: nil, count: 0), sides: sides)
    }

    /// Where a block's samples are.
    private enum Buffers {
        case separate(UnsafePointer<UnsafePointer<Float>>, UnsafePointer<UnsafeMutablePointer<Float>>)
        case interleaved(UnsafePointer<Float>, UnsafeMutablePointer<Float>)
    }

    @_noLocks
    private func process(_ buffers: Buffers, frames: Int, events: UnsafeBufferPointer<ParameterChange>,
                         sides: UnsafeBufferPointer<SideInput>) {
        guard render.groups > 0, render.slotCount > 0, frames > 0 else { return }
        for p in 0..<render.parameterCount { render.changedAt[p] = -1 }
        let savedMode = _unsafePerformance { detent_denormals_off() }
        var done = 0
        var nextEvent = 0
        while done < frames {
            let n = min(render.maxFrames, frames - done)
            switch buffers {
            case .separate(let input, let output): render.bind(input: input, output: output, offset: done)
            case .interleaved(let input, let output): render.bind(interleavedInput: input, output: output, offset: done)
            }
            render.bind(sides: sides, offset: done)
            processChunk(frames: n, events: events, nextEvent: &nextEvent, eventBase: done)
            done += n
        }
        _unsafePerformance { detent_denormals_restore(savedMode) }
    }

    /// One piece of at most `maxFrames` frames; `events[nextEvent...]` are the caller's
    /// events not yet taken, their frames counted from `eventBase` frames before this piece.
    @_noLocks
    private func processChunk(frames n: Int, events: UnsafeBufferPointer<ParameterChange>,
                              nextEvent: inout Int, eventBase: Int) {
        let blockStart = render.framePosition
        // A processor that runs in whole blocks takes every event of the block at its start.
        let unsplit = render.unsplit
        let blockEnd = blockStart + Int64(n)
        // Values that overflowed the ring are the newest of their parameter: apply them first,
        // so any older ring entry of the same parameter is recognised as stale.
        for p in 0..<render.parameterCount {
            if let slot = queue.takeSlot(p) {
                render.apply(parameter: p, value: slot.value, rampFrames: -1)
                render.appliedEpochs[p] = slot.epoch
                noteChange(p, slot.value, at: eventBase)
            }
        }
        var position = 0
        var nonFinite = false
        while true {
            var segmentEnd = n
            // The caller's events at this position are applied; the next one ends the segment.
            while nextEvent < events.count {
                let event = events[nextEvent]
                let at = max(0, Int(event.frame) - eventBase)
                if at > position && !unsplit {
                    segmentEnd = min(segmentEnd, at)
                    break
                }
                nextEvent += 1
                let p = event.index
                guard p >= 0, p < render.parameterCount else { continue }
                render.apply(parameter: p, value: event.value, rampFrames: Int(event.rampFrames))
                noteChange(p, event.value, at: eventBase + position)
            }
            while let change = queue.peek() {
                let at = change.frame <= blockStart ? 0 : Int(min(change.frame, blockEnd) - blockStart)
                if at >= n { break }  // belongs to a later block
                if at > position && !unsplit {
                    segmentEnd = min(segmentEnd, at)
                    break
                }
                queue.pop()
                let p = change.index
                // Older than a value already taken from the overflow slot: superseded.
                if Int32(bitPattern: change.epoch &- render.appliedEpochs[p]) < 0 { continue }
                render.apply(parameter: p, value: change.value, rampFrames: Int(change.rampFrames))
                noteChange(p, change.value, at: eventBase + position)
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

    /// Records that parameter `p`'s target changed to `value` at `frame` of this call.
    @_noLocks
    private func noteChange(_ p: Int, _ value: Double, at frame: Int) {
        guard value.isFinite else { return }
        render.changedAt[p] = Int32(truncatingIfNeeded: frame)
        render.changedTo[p] = value
    }

    /// Where parameter `p`'s target last changed in the latest `process` call — its frame in
    /// that call and the new value in the parameter's unit — or nil when it did not: so a host
    /// can echo every change, by any source, to controllers at the right frame (audio thread).
    @_noLocks
    public func lastChange(_ p: Int) -> (frame: Int, value: Double)? {
        guard p >= 0, p < render.parameterCount, render.changedAt[p] >= 0 else { return nil }
        return (Int(render.changedAt[p]), render.changedTo[p])
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
        meters.store(base + meters.channels + 2, UInt64(bitPattern: render.sanitizedOutput))
        for k in 0..<min(render.slotCount, meters.slots) {
            meters.store(base + meters.channels + 3 + k, UInt64(bitPattern: render.slots[k].absurdFrames))
        }
        meters.endWrite()
        for c in 0..<min(render.channels, meters.channels) {
            meters.raisePeak(c, square: render.blockPeaks[c])
        }
    }
}
