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
