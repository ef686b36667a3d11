import CPluginKernel
import Glibc

/// The C kernel every plug-in format runs through (`DetentLV2Kernel`, whose loop writes the
/// control ports, connects the buffers and calls `run`), and the memory it points into, built
/// one way for LV2, LADSPA, DSSI, CLAP, VST3 and VST2 alike: a format brings its ports and
/// its instances; this decides how the file's channels meet them, owns every buffer, and fills
/// the kernel's shared fields.
///
/// ```swift
/// let memory = KernelMemory(audioInputs: 2, audioOutputs: 2, channels: 2, maxFrames: 4096)
/// for i in 0..<memory.instanceCount {
///     let values = memory.portValues(instance: i, count: ports.count)
///     // connect each port: controls to `values + index`, audio to `memory.audio(...)`
/// }
/// var k = memory.kernel(descriptor: descriptor, inputPorts: ins, outputPorts: outs, parameters: rows)
/// memory.kernel.pointee = k
/// ```
///
/// The channel rule (docs/plugins.md): equal counts connect directly; a mono plug-in runs once
/// per channel with linked controls; any other plug-in runs once, with the channels folded
/// into its inputs and its outputs folded back into the channels (`detent_lv2_fold`).
///
/// Everything is allocated here, before the audio thread sees it, and freed when this goes —
/// after its owner has freed the plug-in's instances, which it does in its `deinit` (stored
/// properties are released after the owner's `deinit` body).
package final class KernelMemory: @unchecked Sendable {
    /// The kernel the audio thread runs, once its owner has set it.
    package let kernel: UnsafeMutablePointer<DetentLV2Kernel>
    /// One record per instance: its handle, worker and rings.
    package let records: UnsafeMutablePointer<DetentLV2Instance>
    /// Per instance: its control ports' values, by port index.
    package let portValues: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// How many instances run: the channel count for a mono plug-in on several channels, else 1.
    package let instanceCount: Int
    /// True when the channels connect to the audio ports directly (no folding).
    package let direct: Bool
    package let maxFrames: Int
    /// Zeros for inputs with nothing to read, and a place for outputs nobody reads.
    package let silence: UnsafeMutablePointer<Float>
    package let discard: UnsafeMutablePointer<Float>
    /// The folded inputs and outputs (one `maxFrames` stretch per port), when not direct.
    package let mappedIn: UnsafeMutablePointer<Float>?
    package let mappedOut: UnsafeMutablePointer<Float>?
    /// The side-chain inputs folded for a plug-in that runs once (one `maxFrames` stretch per
    /// port); nil for a mono plug-in run once per channel, whose instance `i` hears channel `i`.
    package let sideBuffers: UnsafeMutablePointer<Float>?
    private let audioInputs: Int, audioOutputs: Int
    private var allocations: [UnsafeMutableRawPointer] = []

    /// `sideInputs`: the side-chain inputs of one instance (beside the main ones).
    package init(audioInputs: Int, audioOutputs: Int, sideInputs: Int = 0, channels: Int, maxFrames: Int) {
        self.audioInputs = audioInputs
        self.audioOutputs = audioOutputs
        self.maxFrames = maxFrames
        let direct = audioInputs == audioOutputs && (audioInputs == channels || audioInputs == 1)
        self.direct = direct
        instanceCount = direct && audioInputs == 1 ? channels : 1
        kernel = .allocate(capacity: 1)
        kernel.initialize(to: DetentLV2Kernel())
        records = .allocate(capacity: instanceCount)
        records.initialize(repeating: DetentLV2Instance(), count: instanceCount)
        portValues = .allocate(capacity: instanceCount)
        silence = Self.zeroed(Float.self, maxFrames, into: &allocations)
        discard = Self.zeroed(Float.self, maxFrames, into: &allocations)
        mappedIn = direct ? nil : Self.zeroed(Float.self, audioInputs * maxFrames, into: &allocations)
        sideBuffers = instanceCount > 1 || sideInputs == 0 ? nil : Self.zeroed(Float.self, sideInputs * maxFrames, into: &allocations)
        mappedOut = direct ? nil : Self.zeroed(Float.self, audioOutputs * maxFrames, into: &allocations)
    }

    deinit {
        for raw in allocations { raw.deallocate() }
        records.deallocate()
        portValues.deallocate()
        kernel.deallocate()
    }

    /// `n` zeroed values of `type` (at least one), cache-line aligned, freed with this.
    package func buffer<T>(_ type: T.Type, _ n: Int) -> UnsafeMutablePointer<T> {
        Self.zeroed(type, n, into: &allocations)
    }

    private static func zeroed<T>(_ type: T.Type, _ n: Int, into allocations: inout [UnsafeMutableRawPointer]) -> UnsafeMutablePointer<T> {
        let bytes = max(n, 1) * MemoryLayout<T>.stride
        let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        memset(raw, 0, bytes)
        allocations.append(raw)
        return raw.bindMemory(to: T.self, capacity: max(n, 1))
    }

    /// Instance `instance`'s control values: `count` floats, zeroed, that its control ports
    /// connect to (`values + port index`).
    package func portValues(instance: Int, count: Int) -> UnsafeMutablePointer<Float> {
        let values = buffer(Float.self, count)
        portValues[instance] = values
        return values
    }

    /// Where an audio port connects before the first run: a main port's stretch of the folded
    /// buffers; else silence (an input) or the discard (an output) — for a direct connection,
    /// whose buffers the kernel connects again at each run, and for a port that is not a main
    /// one. `position` is the port's place among the plug-in's main inputs, or outputs (nil
    /// for another port).
    package func audio(input: Bool, position: Int?) -> UnsafeMutablePointer<Float> {
        if let mappedIn, let mappedOut, let position {
            return (input ? mappedIn : mappedOut) + position * maxFrames
        }
        return input ? silence : discard
    }

    /// Where side-chain input `position` (its place among one instance's side inputs)
    /// connects before the first run: its folded buffer, or silence for a plug-in run once per
    /// channel (connected again at each run that has a side signal).
    package func side(position: Int) -> UnsafeMutablePointer<Float> {
        sideBuffers.map { $0 + position * maxFrames } ?? silence
    }

    /// Gives `k` its side-chain inputs: the ports of one instance's, in order.
    package func addSideInputs(_ k: inout DetentLV2Kernel, ports: [UInt32]) {
        guard !ports.isEmpty else { return }
        let indices = buffer(UInt32.self, ports.count)
        indices.update(from: ports, count: ports.count)
        k.side_count = UInt32(ports.count)
        k.side_ports = UnsafePointer(indices)
        k.side_buffers = sideBuffers
    }

    /// One table row's port and the range the kernel holds its value to.
    package struct ParameterPort {
        package var port: UInt32
        package var low: Float
        package var high: Float
        package init(port: UInt32, low: Float, high: Float) {
            self.port = port
            self.low = low
            self.high = high
        }
    }

    /// The kernel with the fields every format shares filled in: the instances, the audio
    /// ports (by port index, in the order of the plug-in's main inputs and outputs), the
    /// channel rule's buffers, and the table's rows. The format adds its own and stores it.
    package func kernel(descriptor: UnsafePointer<LV2_Descriptor>?, inputPorts: [UInt32], outputPorts: [UInt32],
                       parameters: [ParameterPort]) -> DetentLV2Kernel {
        precondition(inputPorts.count == audioInputs && outputPorts.count == audioOutputs, "one index per main audio port")
        let ins = buffer(UInt32.self, inputPorts.count), outs = buffer(UInt32.self, outputPorts.count)
        ins.update(from: inputPorts, count: inputPorts.count)
        outs.update(from: outputPorts, count: outputPorts.count)
        let rows = parameters.count
        let ports = buffer(UInt32.self, rows), lows = buffer(Float.self, rows), highs = buffer(Float.self, rows)
        for (row, parameter) in parameters.enumerated() {
            ports[row] = parameter.port
            lows[row] = parameter.low
            highs[row] = parameter.high
        }
        var k = DetentLV2Kernel()
        k.descriptor = descriptor
        k.instances = records
        k.instance_count = UInt32(instanceCount)
        k.audio_per_instance = direct ? UInt32(audioInputs) : 0
        k.audio_inputs = UnsafePointer(ins)
        k.audio_outputs = UnsafePointer(outs)
        k.mapped = direct ? 0 : 1
        k.mapped_inputs = UInt32(audioInputs)
        k.mapped_outputs = UInt32(audioOutputs)
        k.mapped_in = mappedIn
        k.mapped_out = mappedOut
        k.max_frames = UInt32(maxFrames)
        k.parameter_count = UInt32(rows)
        k.parameter_ports = UnsafePointer(ports)
        k.parameter_low = UnsafePointer(lows)
        k.parameter_high = UnsafePointer(highs)
        k.port_values = UnsafePointer(portValues)
        return k
    }

    /// An atom sequence with room for `capacity` bytes of events, zeroed.
    package func sequence(capacity: Int) -> UnsafeMutablePointer<LV2_Atom_Sequence> {
        buffer(UInt8.self, capacity + MemoryLayout<LV2_Atom_Sequence>.size)
            .withMemoryRebound(to: LV2_Atom_Sequence.self, capacity: 1) { $0 }
    }

    /// Makes `sequence` a valid empty sequence of `type`: what an input holds when nothing
    /// happens in a cycle.
    package static func markEmpty(_ sequence: UnsafeMutablePointer<LV2_Atom_Sequence>, type: UInt32) {
        sequence.pointee.atom.size = UInt32(MemoryLayout<LV2_Atom_Sequence_Body>.size)
        sequence.pointee.atom.type = type
    }

    /// Gives `k` a MIDI input: the per-instance sequences the cycle's messages are written
    /// into, and room for `capacity` messages of `bytes` bytes in all.
    package func addMIDIInput(_ k: inout DetentLV2Kernel, sequences: UnsafeMutablePointer<UnsafeMutablePointer<LV2_Atom_Sequence>>,
                             capacity: Int, bytes: Int) {
        k.midi_inputs = UnsafePointer(sequences)
        k.midi_events = buffer(DetentMIDIEvent.self, capacity)
        k.midi_capacity = UInt32(capacity)
        k.midi_bytes = buffer(UInt8.self, bytes)
        k.midi_bytes_capacity = UInt32(bytes)
    }
}
