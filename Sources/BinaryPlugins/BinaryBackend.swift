import AudioEngine
import CPluginKernel
import PluginFormats
import Presets

/// What one binary format (VST2, VST3, CLAP) brings to the shared code of this module: where
/// its binaries are, how to read one (in the scanning child), and how to make an instance
/// that its C bridge runs. Everything else — the listing, the scan in a child process and its
/// index, references, the parameter table, the kernel's memory — is written once, here.
package protocol BinaryBackend: Sendable {
    /// The listing's FORMAT (`VST2`).
    var name: String { get }
    /// The identifier prefix, lower case, with its colon (`vst2:`).
    var prefix: String { get }
    /// The folders searched, in order (the format's environment variable first).
    func folders() -> [String]
    /// True when the folder entry called `name` is one of the format's binaries (`.so`,
    /// `.vst3`, `.clap`).
    func isBinary(name: String) -> Bool
    /// Every plug-in of one binary, read in this process: only ever called in the scanning
    /// child (``BinaryScan``), where a crash or a hang costs nothing but that binary.
    func scan(_ path: String) -> [BinaryPlugin]
    /// True when ``scan(_:)`` sets parameters to values across their range to read what they
    /// show (VST2: ``VST2Curve``), which a plug-in may not survive.
    var sweepsParameters: Bool { get }
    /// ``scan(_:)`` without setting any parameter: for a binary whose sweep crashed or hung.
    func scanWithoutSweeps(_ path: String) -> [BinaryPlugin]
    /// The bridge descriptor the kernel loop calls (its handles are the format's C instances).
    var bridge: UnsafePointer<LV2_Descriptor> { get }
    /// Makes one instance of `plugin` (instantiated and initialised, not activated: the
    /// bridge's `activate` does that), under the plug-in lifecycle lock.
    func instantiate(_ plugin: BinaryPlugin, layout: BinaryPortLayout, sampleRate: Double,
                     maxFrames: Int) throws(PluginError) -> any BinaryInstance
    /// The plug-in's own presets (programs), or none.
    func factoryPresets(_ plugin: BinaryPlugin) -> [FactoryPreset]
}

extension BinaryBackend {
    package func factoryPresets(_ plugin: BinaryPlugin) -> [FactoryPreset] { [] }
    package var sweepsParameters: Bool { false }
    package func scanWithoutSweeps(_ path: String) -> [BinaryPlugin] { scan(path) }
}

/// One running instance of a binary plug-in, owned by the processor's ``BinaryInstances``:
/// the handle its bridge takes, and what it reports between blocks. Its `deinit` destroys the
/// plug-in (after the bridge's `deactivate`), under the lifecycle lock its owner holds.
package protocol BinaryInstance: AnyObject {
    /// The bridge's handle: the format's C instance record.
    var handle: UnsafeMutableRawPointer { get }
    /// The latency the plug-in reports now, in frames (off the audio thread).
    var latency: Int { get }
    /// The plug-in's own state as bytes its format defines (off the audio thread, while it is
    /// not running), or nil when it keeps none.
    func saveState() -> [UInt8]?
    /// Gives the plug-in a state ``saveState()`` made, before it is activated; why it refused,
    /// or nil.
    func restoreState(_ bytes: [UInt8]) -> String?
    /// The tempo its transport rolls at (`--bpm`), before it is activated; 120 when never told.
    func setTempo(_ beatsPerMinute: Double)
    /// Tells the plug-in, before it is activated, that it is given `inputs` main inputs and
    /// `outputs` main outputs, fewer than it declares; true when it takes them.
    func arrange(inputs: Int, outputs: Int) -> Bool
    /// The values the plug-in gave its writable parameters itself since the last call (off
    /// the audio thread), each parameter's place in ``BinaryPlugin/parameters`` and its value
    /// in the row's unit.
    func takeOwnChanges() -> [(parameter: Int, value: Double)]
    /// The plug-in's text for `value` (in the row's unit) of `parameter`, with its unit; nil
    /// when it gives none. Asked of an instance that never runs (``BinaryTexts``).
    func text(_ parameter: BinaryParameter, value: Double) -> String?
    /// The value (in the row's unit) the plug-in reads from `text` for `parameter`, or nil.
    /// Asked of an instance that never runs: it may set the parameter to read it.
    func value(_ parameter: BinaryParameter, text: String) -> Double?
}

extension BinaryInstance {
    package func text(_ parameter: BinaryParameter, value: Double) -> String? { nil }
    package func value(_ parameter: BinaryParameter, text: String) -> Double? { nil }
}

extension BinaryInstance {
    package func saveState() -> [UInt8]? { nil }
    package func restoreState(_ bytes: [UInt8]) -> String? { "it keeps no state" }
    package func setTempo(_ beatsPerMinute: Double) {}
    package func arrange(inputs: Int, outputs: Int) -> Bool { false }
    package func takeOwnChanges() -> [(parameter: Int, value: Double)] { [] }
}

/// The port numbers through which the kernel loop meets a binary plug-in's bridge (which has
/// no ports of its own, only buses and parameters): the main inputs' channels, the main
/// outputs', the side-chain input's, every parameter of ``BinaryPlugin/parameters`` in order,
/// and last the MIDI input's event sequence.
package struct BinaryPortLayout: Sendable, Equatable {
    package let inputs: Int
    package let outputs: Int
    package let sides: Int
    package let parameters: Int

    package init(_ plugin: BinaryPlugin) {
        inputs = plugin.audioInputs
        outputs = plugin.audioOutputs
        sides = plugin.sideInputs
        parameters = plugin.parameters.count
    }

    package func input(_ channel: Int) -> UInt32 { UInt32(channel) }
    package func output(_ channel: Int) -> UInt32 { UInt32(inputs + channel) }
    package func side(_ channel: Int) -> UInt32 { UInt32(inputs + outputs + channel) }
    /// The first parameter's port.
    package var parameterBase: UInt32 { UInt32(inputs + outputs + sides) }
    package func parameter(_ k: Int) -> UInt32 { parameterBase + UInt32(k) }
    package var midi: UInt32 { parameterBase + UInt32(parameters) }
    /// MIDI messages one run can bring: a bridge that converts them has room for this many.
    package static let midiCapacity = 1024

    /// Ports in all (the size of each instance's value memory).
    package var count: Int { Int(midi) + 1 }
}
