/// What the owner of an external kernel can tell its host between blocks (a plug-in's log
/// messages, output controls and latency); read off the audio thread only.
public protocol KernelReports: AnyObject {
    /// Messages logged since the last call, one line each, to print from a non-audio thread.
    func takeMessages() -> [String]
    /// Read-only values the processor outputs (meters, gain reduction), by id.
    var outputValues: [OutputValue] { get }
    /// The processor's latency in frames (0 when it has none).
    var latency: Int { get }
    /// The MIDI messages the processor wrote since the last call, at their frames on the
    /// engine's timeline (``Engine/framePosition``). Offline only: taken between `process`
    /// calls on the thread that makes them.
    func takeMIDIOutput() -> MIDIOutput
    /// Why the kernel no longer runs, when it does not (an isolated slot whose process
    /// crashed or hung: it passes its input through until restarted), by slot name (empty for
    /// a processor on its own); none while all runs.
    var faults: [(slot: String, reason: String)] { get }
    /// The sandbox the kernel runs in (an isolated slot's process, alone or shared): slots of
    /// one sandbox go down, and are started again, together. Nil for a kernel run here.
    var sandboxName: String? { get }
    /// The values the processor gave its own parameters since the last call (a plug-in's
    /// linked controls, or one moved from its own editor), by parameter id: a live host takes
    /// them as its targets, so that every surface shows them and they are not overwritten.
    func takeOwnChanges() -> [OutputValue]
}

/// Takes what a C function of own changes gives (indices and values, `capacity` at a time, the
/// count returned) until it has no more: the one way a format's bridge, or an isolated slot's
/// block, is read for a plug-in's own changes.
package func takeOwnChanges(_ take: (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<Double>, UInt32) -> UInt32)
    -> [(parameter: Int, value: Double)] {
    var indices = [UInt32](repeating: 0, count: 64), values = [Double](repeating: 0, count: 64)
    var taken: [(parameter: Int, value: Double)] = []
    while true {
        let n = Int(take(&indices, &values, UInt32(indices.count)))
        taken += (0..<n).map { (Int(indices[$0]), values[$0]) }
        if n < indices.count { return taken }
    }
}

extension KernelReports {
    public func takeMIDIOutput() -> MIDIOutput { MIDIOutput() }
    public var faults: [(slot: String, reason: String)] { [] }
    public var sandboxName: String? { nil }
    public func takeOwnChanges() -> [OutputValue] { [] }
}

/// MIDI messages a processor wrote (see ``KernelReports/takeMIDIOutput()``), and how many it
/// wrote that did not fit in the kernel's list between two takes and were lost.
public struct MIDIOutput: Sendable, Equatable {
    public struct Message: Sendable, Equatable {
        /// The frame on the engine's timeline.
        public var frame: Int64
        /// One MIDI message, its status byte first.
        public var bytes: [UInt8]

        public init(frame: Int64, bytes: [UInt8]) {
            self.frame = frame
            self.bytes = bytes
        }
    }

    public var messages: [Message] = []
    public var dropped = 0

    public init(messages: [Message] = [], dropped: Int = 0) {
        self.messages = messages
        self.dropped = dropped
    }
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

    /// Each isolated slot's sandbox, by slot name (a processor on its own under `""`): the
    /// slots that go down, and are started again, together.
    public var sandboxes: [String: String] {
        if let chain = kernelReports as? ChainReports { return chain.sandboxes }
        return (kernelReports?.sandboxName).map { ["": $0] } ?? [:]
    }
}
