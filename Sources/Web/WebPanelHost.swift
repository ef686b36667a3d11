import DSP
import Parameters

/// What the web panel needs of whatever holds the parameters — the live host, or the panel's
/// no-audio stand-in: a snapshot to show, and the verbs every other source of changes uses.
/// Nothing here reaches the audio thread but through the host's own queue.
public protocol WebPanelHost: AnyObject, Sendable {
    /// The processor (its table and chain slots), the chain's generation (bumped by every
    /// edit, so a request read against an older table is dropped), and every target.
    func webSnapshot() -> WebSnapshot
    /// New targets, only while the chain is still `generation`; false when dropped.
    func set(_ values: [ParameterIndex: Double], ifGeneration generation: Int) -> Bool
    /// Back to the Default preset's value (the factory default when there is none), as the
    /// typed `reset ID` does.
    func reset(_ index: ParameterIndex, ifGeneration generation: Int) -> Bool
    /// The processor's read-only outputs (a plug-in's meters, gain reduction) at their latest
    /// values; none without audio.
    func outputValues() -> [OutputValue]
    /// Loads the preset `name` (`save` false) or saves the values as it (`save` true), as the
    /// typed `preset load|save NAME` do; what went wrong in one line, or nil.
    func preset(_ name: String, save: Bool) -> String?
}

extension WebPanelHost {
    public func outputValues() -> [OutputValue] { [] }
    public func preset(_ name: String, save: Bool) -> String? { "presets cannot be loaded or saved here" }
}

/// One consistent look at a host: what the page draws and the feedback compares.
public struct WebSnapshot: Sendable {
    public let processor: Processor
    public let generation: Int
    public let targets: [ParameterIndex: Double]

    public init(processor: Processor, generation: Int, targets: [ParameterIndex: Double]) {
        self.processor = processor
        self.generation = generation
        self.targets = targets
    }

    /// The target of `index`, or its default when the host has none.
    public func value(_ index: ParameterIndex) -> Double {
        targets[index] ?? processor.table[index].defaultValue
    }
}
