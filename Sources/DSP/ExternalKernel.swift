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

    public var context: UnsafeMutableRawPointer?
    public var run: Run
    public var reset: Reset?

    public init(context: UnsafeMutableRawPointer?, run: Run, reset: Reset? = nil) {
        self.context = context
        self.run = run
        self.reset = reset
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

/// What the owner of an external kernel can tell its host between blocks (a plug-in's log
/// messages, output controls and latency); read off the audio thread only.
public protocol KernelReports: AnyObject {
    /// Messages logged since the last call, one line each, to print from a non-audio thread.
    func takeMessages() -> [String]
    /// Read-only values the processor outputs (meters, gain reduction), by id.
    var outputValues: [OutputValue] { get }
    /// The processor's latency in frames (0 when it has none).
    var latency: Int { get }
}

/// One read-only value a processor outputs: a plug-in's meter or gain reduction, by symbol.
public struct OutputValue: Sendable, Hashable {
    public let id: String
    public let value: Double

    public init(id: String, value: Double) {
        self.id = id
        self.value = value
    }
}

extension Engine {
    /// The external kernel's reports, if its owner gives any.
    public var kernelReports: (any KernelReports)? { kernelOwner as? any KernelReports }

    /// The processor's latency at the current values: the kernel runs once for no frames with
    /// them (LV2 allows `run(0)`, and a plug-in reports its latency from `run`), then the
    /// latency is read. Call after `prepare`, before audio; never on the audio thread.
    public func latencyAtCurrentValues() -> Int {
        guard let reports = kernelReports else { return 0 }
        runKernelForNoFrames()
        return reports.latency
    }
}
