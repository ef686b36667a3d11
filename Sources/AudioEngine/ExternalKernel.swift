import Parameters

/// Audio code the engine reaches through plain C function pointers: a plug-in (through the
/// plug-in host's thunk around `lilv_instance_run`) or any processor written outside `DSP`.
///
/// The engine keeps everything around it — the queue, smoothing, splitting blocks at events,
/// meters — and calls ``run`` with the current control values for each stretch of frames.
/// Function pointers and a raw context keep the render path free of existentials and
/// reference counting; `run` is the one call the compiler cannot check, so the engine makes it
/// inside `_unsafePerformance`.
public struct ExternalKernel: @unchecked Sendable, BitwiseCopyable {
    /// Renders `frames` frames: reads `inputs[0..<channels]`, writes `outputs[0..<channels]`
    /// (never the same memory), with `controls[i]` the value of parameter `i` in its own unit.
    public typealias Run = @convention(c) (
        _ context: UnsafeMutableRawPointer?, _ controls: UnsafePointer<Float>,
        _ inputs: UnsafePointer<UnsafePointer<Float>>, _ outputs: UnsafePointer<UnsafeMutablePointer<Float>>,
        _ channels: Int, _ frames: Int) -> Void
    /// Clears the processor's memory (the engine's `reset`); not on the audio thread.
    public typealias Reset = @convention(c) (_ context: UnsafeMutableRawPointer?) -> Void

    /// Starts a new list of MIDI messages for the next ``run`` calls (audio thread).
    public typealias BeginEvents = @convention(c) (_ context: UnsafeMutableRawPointer?) -> Void
    /// Adds one MIDI message at `frame`, counted from the start of the next `run` after
    /// ``BeginEvents``; the kernel hands each message to the stretch holding its frame, so the
    /// engine's splitting of a block does not move it. Returns false when the list is full.
    public typealias AddEvent = @convention(c) (
        _ context: UnsafeMutableRawPointer?, _ frame: UInt32, _ bytes: UnsafePointer<UInt8>, _ size: UInt32) -> Bool

    /// Tells the kernel where the transport is, for its next ``run`` (audio thread): the
    /// frame, the speed (1 rolling, 0 stopped), the bar and beat from 0, the beat within the
    /// bar, the beat unit, beats per bar and the tempo.
    public typealias Transport = @convention(c) (
        _ context: UnsafeMutableRawPointer?, _ frame: Int64, _ speed: Float, _ bar: Int64, _ barBeat: Float,
        _ beat: Double, _ beatUnit: Int32, _ beatsPerBar: Float, _ beatsPerMinute: Float) -> Void

    /// Where ``DrainMIDI`` puts each message: `frame` in the cycle just run.
    public typealias MIDISink = @convention(c) (
        _ target: UnsafeMutableRawPointer?, _ frame: UInt32, _ bytes: UnsafePointer<UInt8>, _ size: UInt32) -> Void
    /// Hands the MIDI messages the kernel wrote in the cycle just run (`frames` long) to the
    /// sink, and forgets them (audio thread).
    public typealias DrainMIDI = @convention(c) (
        _ context: UnsafeMutableRawPointer?, _ frames: UInt32, _ sink: MIDISink, _ target: UnsafeMutableRawPointer?) -> Void

    /// Gives the kernel its side-chain signal for the next ``run`` (audio thread): `channels`
    /// pointers (the engine's channel count), each read for that run's frames.
    public typealias Side = @convention(c) (
        _ context: UnsafeMutableRawPointer?, _ inputs: UnsafePointer<UnsafePointer<Float>>, _ channels: Int) -> Void

    /// Runs `count` kernels of one ``chainGroup`` in turn on one call, each fed only by the one
    /// before it: `inputs` into the first, the last's output into `outputs`, `controls[k]` the
    /// k-th one's values; between them the output handed on as the engine hands it (absurd
    /// output replaced by that kernel's input, denormals made 0, the input limit). `reports[k]`
    /// gets the frames kernel k's output was replaced, `reports[count]` the denormals made 0.
    /// Returns 1 when it ran, 0 when it cannot now (nothing done), −1 when it failed (each
    /// kernel then passes its input through, as it would have run alone). An isolated slot's:
    /// one request to its sandbox's process instead of one per slot.
    public typealias RunChained = @convention(c) (
        _ contexts: UnsafePointer<UnsafeMutableRawPointer?>, _ controls: UnsafePointer<UnsafePointer<Float>>, _ count: Int,
        _ inputs: UnsafePointer<UnsafePointer<Float>>, _ outputs: UnsafePointer<UnsafeMutablePointer<Float>>,
        _ channels: Int, _ frames: Int, _ reports: UnsafeMutablePointer<Int64>) -> Int

    public var context: UnsafeMutableRawPointer?
    public var run: Run
    /// Set, with ``chainGroup``, for kernels that run faster several at once (``RunChained``).
    public var runChained: RunChained?
    /// Kernels whose `chainGroup` is the same (and not nil) may be run together by `runChained`.
    public var chainGroup: UnsafeMutableRawPointer?
    public var reset: Reset?
    public var beginEvents: BeginEvents?
    public var addEvent: AddEvent?
    /// Set for a kernel that follows a transport (an LV2 plug-in that reads `time:Position`).
    public var transport: Transport?
    /// Set for a kernel that writes MIDI (an LV2 plug-in's MIDI output), for a live host.
    public var drainMIDI: DrainMIDI?
    /// Set for a kernel with side-chain inputs (a compressor keyed by another signal).
    public var side: Side?

    public init(context: UnsafeMutableRawPointer?, run: Run, reset: Reset? = nil,
                beginEvents: BeginEvents? = nil, addEvent: AddEvent? = nil, transport: Transport? = nil,
                drainMIDI: DrainMIDI? = nil, side: Side? = nil) {
        self.context = context
        self.run = run
        self.reset = reset
        self.beginEvents = beginEvents
        self.addEvent = addEvent
        self.transport = transport
        self.drainMIDI = drainMIDI
        self.side = side
    }
}

/// What an external kernel is made for at an engine `prepare`.
public struct KernelFormat: Sendable, Hashable {
    public var sampleRate: Double
    /// The longest `run` the engine will ask for.
    public var maxFrames: Int
    public var channels: Int
    /// True for a live engine, whose blocks are on a real-time thread: work a plug-in hands
    /// off (LV2's worker) runs on a thread of its own and answers at a later block. False
    /// offline, where it runs at once so that every render of a file is the same.
    public var realtime: Bool
    /// The tempo the transport rolls at from the first frame, for processors that follow one
    /// (a tempo-synced delay); nil when there is none to tell.
    public var beatsPerMinute: Double?
    /// True when a transport may be told later (``Engine/transport(_:)``, from JACK's): a
    /// processor that follows one gets the means to be told, even without a starting tempo.
    public var followsTransport: Bool
    /// The processor's own rows, in order, at the values the engine starts from (nil: the
    /// table's defaults): what its controls hold when it is activated.
    public var startingValues: [Double]?

    public init(sampleRate: Double, maxFrames: Int, channels: Int, realtime: Bool = false, beatsPerMinute: Double? = nil,
                followsTransport: Bool = false) {
        self.sampleRate = sampleRate
        self.maxFrames = maxFrames
        self.channels = channels
        self.realtime = realtime
        self.beatsPerMinute = beatsPerMinute
        self.followsTransport = followsTransport
    }
}

/// What an external processor gives the engine at `prepare`: its kernel, and the object that
/// owns the kernel's memory (kept alive by the engine until the next `prepare` or its end;
/// never touched on the audio thread).
public struct PreparedKernel: @unchecked Sendable {
    public var kernel: ExternalKernel
    public var owner: AnyObject?

    public init(kernel: ExternalKernel, owner: AnyObject?) {
        self.kernel = kernel
        self.owner = owner
    }
}
