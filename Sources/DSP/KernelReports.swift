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

/// What a processor says of one read-only value it outputs, for front ends to label it: a
/// plug-in's meter (`level`, "Level", dB, −60…+6) or gain reduction.
public struct OutputSpec: Sendable, Hashable {
    public let id: String
    public let name: String
    /// The unit's symbol (empty for none).
    public let unit: String
    /// The range it moves in, when the processor gives one.
    public let range: ClosedRange<Double>?

    public init(id: String, name: String, unit: String = "", range: ClosedRange<Double>? = nil) {
        self.id = id
        self.name = name
        self.unit = unit
        self.range = range
    }
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
