import CLadspa
import CPluginKernel
import CRealtime
import AudioEngine
import Glibc
import Platform
import PluginFormats
import KernelMemory

/// The running instances of one LADSPA or DSSI plug-in for one engine `prepare`, and the
/// kernel the audio thread runs: CPluginKernel's, the one LV2 plug-ins run through, reaching
/// the plug-in through the LADSPA bridge (`detent_ladspa_bridge`). So the channel rule is the
/// same for every format — equal counts connect directly, a mono plug-in runs once per channel
/// with linked controls, any other runs once with the channels folded in and out — and so is
/// the way controls are written and MIDI split at frames.
///
/// Life cycle, as the LADSPA header orders it: `instantiate`, every port connected,
/// `activate`; `deactivate` and `activate` again on the engine's reset; `deactivate` and
/// `cleanup` when the engine lets the instances go.
final class LadspaInstances: @unchecked Sendable {
    let plugin: LadspaPlugin
    /// The kernel and every buffer it points into (freed after the instances, in `deinit`).
    private let memory: KernelMemory
    var kernel: UnsafeMutablePointer<DetentLV2Kernel> { memory.kernel }
    private let descriptor: UnsafePointer<LADSPA_Descriptor>
    private let bridges: UnsafeMutablePointer<DetentLadspaInstance>
    private var records: UnsafeMutablePointer<DetentLV2Instance> { memory.records }
    private var handles: [LADSPA_Handle] = []
    private var active = false

    /// MIDI messages one cycle can hold, their bytes, and the events of one `run_synth`.
    static let midiCapacity = 1024, midiBytes = 65_536, atomCapacity = 16_384

    /// - Parameters:
    ///   - parameterPorts: the port each table row drives (nil: the program row).
    ///   - defaults, ranges: the table's, row by row.
    init(plugin: LadspaPlugin, parameterPorts: [LadspaPort?], defaults: [Double], ranges: [ClosedRange<Double>],
         format: KernelFormat) throws(PluginError) {
        self.plugin = plugin
        let memory = KernelMemory(audioInputs: plugin.audioInputs.count, audioOutputs: plugin.audioOutputs.count,
                                  channels: format.channels, maxFrames: format.maxFrames)
        let count = memory.instanceCount, records = memory.records

        guard let found = Self.descriptor(plugin) else {
            throw PluginError.libraryFailed(name: plugin.name, reason: "its descriptor is no longer there")
        }
        descriptor = found.ladspa
        self.memory = memory
        bridges = .allocate(capacity: count)
        bridges.initialize(repeating: DetentLadspaInstance(), count: count)
        let midiInputs = plugin.isSynth ? memory.buffer(UnsafeMutablePointer<LV2_Atom_Sequence>.self, count) : nil
        let programs = plugin.programs
        let banks = memory.buffer(UInt.self, programs.count), numbers = memory.buffer(UInt.self, programs.count)
        for (i, program) in programs.enumerated() { banks[i] = program.bank; numbers[i] = program.program }

        // Some plug-ins switch the thread's floating-point mode as they are made or activated;
        // the caller's mode is given back.
        let mode = detent_denormals_off()
        defer { detent_denormals_restore(mode) }
        // Made and activated under the plug-in lifecycle lock (PluginKernel.h).
        detent_plugin_lifecycle_lock()
        defer { detent_plugin_lifecycle_unlock() }
        for i in 0..<count {
            try addInstance(i, dssi: found.dssi, parameterPorts: parameterPorts, defaults: defaults, sampleRate: format.sampleRate,
                            programBanks: banks, programNumbers: numbers, midiInputs: midiInputs)
        }
        for i in 0..<count { detent_ladspa_bridge().pointee.activate?(records[i].handle) }
        active = true
        kernel.pointee = makeKernel(parameterPorts: parameterPorts, ranges: ranges, sampleRate: format.sampleRate,
                                    midiInputs: midiInputs)
    }

    /// The slot of the control values that holds the program's (one past the ports); the
    /// MIDI sequence's index is the one after (see `DetentLadspaInstance.midi_port`).
    private var programSlot: Int { plugin.ports.count }

    /// Makes instance `i` and readies it for activation: its bridge record (the descriptors,
    /// the handle, the programs and the MIDI input it reads), every port connected, and the
    /// table's defaults written.
    private func addInstance(_ i: Int, dssi: UnsafePointer<DSSI_Descriptor>?, parameterPorts: [LadspaPort?], defaults: [Double],
                             sampleRate: Double, programBanks: UnsafeMutablePointer<UInt>, programNumbers: UnsafeMutablePointer<UInt>,
                             midiInputs: UnsafeMutablePointer<UnsafeMutablePointer<LV2_Atom_Sequence>>?) throws(PluginError) {
        guard let handle = descriptor.pointee.instantiate(descriptor, UInt(sampleRate.rounded())) else {
            throw PluginError.instantiationFailed(name: plugin.name)
        }
        handles.append(handle)
        let bridge = bridges + i
        bridge.pointee.descriptor = descriptor
        bridge.pointee.dssi = dssi
        bridge.pointee.handle = handle
        bridge.pointee.midi_port = UInt32(programSlot + 1)
        bridge.pointee.program_selected = -1
        records[i].handle = UnsafeMutableRawPointer(bridge)
        let values = memory.portValues(instance: i, count: programSlot + 1)
        connectPorts(handle, values: values, sampleRate: sampleRate)
        for (row, port) in parameterPorts.enumerated() {
            values[port.map { Int($0.index) } ?? programSlot] = Float(defaults[row])
        }
        if !plugin.programs.isEmpty {
            bridge.pointee.program_value = UnsafePointer(values + programSlot)
            bridge.pointee.program_banks = UnsafePointer(programBanks)
            bridge.pointee.program_numbers = UnsafePointer(programNumbers)
            bridge.pointee.program_count = UInt32(plugin.programs.count)
        }
        if let midiInputs {
            let sequence = memory.sequence(capacity: Self.atomCapacity)
            KernelMemory.markEmpty(sequence, type: 0)
            midiInputs[i] = sequence
            bridge.pointee.midi = UnsafePointer(sequence)
            bridge.pointee.events = memory.buffer(snd_seq_event_t.self, Self.midiCapacity)
            bridge.pointee.event_capacity = UInt32(Self.midiCapacity)
        }
    }

    /// Connects every port of an instance, as LADSPA asks before activation: controls to
    /// `values` (inputs at their starting values), audio to the kernel's buffers.
    private func connectPorts(_ handle: LADSPA_Handle, values: UnsafeMutablePointer<Float>, sampleRate: Double) {
        let ins = plugin.audioInputs, outs = plugin.audioOutputs
        for port in plugin.ports {
            let at: UnsafeMutablePointer<Float>
            if !port.isAudio {
                values[Int(port.index)] = Float(port.isInput ? port.hints.startingValue(sampleRate: sampleRate) : 0)
                at = values + Int(port.index)
            } else {
                at = memory.audio(input: port.isInput, position: (port.isInput ? ins : outs).firstIndex { $0.index == port.index })
            }
            descriptor.pointee.connect_port(handle, UInt(port.index), at)
        }
    }

    /// The kernel the audio thread runs, through the LADSPA bridge: the table's rows (the
    /// program's too) with their ranges, and the MIDI input of a synth.
    private func makeKernel(parameterPorts: [LadspaPort?], ranges: [ClosedRange<Double>], sampleRate: Double,
                            midiInputs: UnsafeMutablePointer<UnsafeMutablePointer<LV2_Atom_Sequence>>?) -> DetentLV2Kernel {
        let parameters = parameterPorts.enumerated().map { row, port in
            // A sample-rate port is held to its fractions of the actual rate; others to the table's range.
            let range = port.map { $0.hints.isSampleRate ? $0.hints.range(sampleRate: sampleRate) : ranges[row] } ?? ranges[row]
            return KernelMemory.ParameterPort(port: port?.index ?? UInt32(programSlot),
                                              low: Float(range.lowerBound), high: Float(range.upperBound))
        }
        var k = memory.kernel(descriptor: detent_ladspa_bridge(), inputPorts: plugin.audioInputs.map(\.index),
                              outputPorts: plugin.audioOutputs.map(\.index), parameters: parameters)
        if let midiInputs {
            // The bridge reads every event of the sequence as MIDI: the type numbers only
            // need to be the loop's own.
            memory.addMIDIInput(&k, sequences: midiInputs, capacity: Self.midiCapacity, bytes: Self.midiBytes)
            k.midi_event_type = 1
            k.atom_sequence_type = 2
            k.atom_capacity = UInt32(Self.atomCapacity)
        }
        return k
    }

    deinit {
        let mode = detent_denormals_off()
        defer { detent_denormals_restore(mode) }
        detent_plugin_lifecycle_lock()
        defer { detent_plugin_lifecycle_unlock() }
        for (i, handle) in handles.enumerated() {
            if active { detent_ladspa_bridge().pointee.deactivate?(records[i].handle) }
            descriptor.pointee.cleanup?(handle)
        }
        bridges.deallocate()
    }

    /// The plug-in's descriptors, from its library (opened already by the discovery).
    static func descriptor(_ plugin: LadspaPlugin) -> (ladspa: UnsafePointer<LADSPA_Descriptor>, dssi: UnsafePointer<DSSI_Descriptor>?)? {
        guard plugin.index >= 0, case .success(let library) = LoadedLibraries.open(plugin.path) else { return nil }
        switch plugin.flavor {
        case .ladspa:
            return library.ladspaEntry.flatMap { $0(UInt(plugin.index)) }.map { ($0, nil) }
        case .dssi:
            guard let dssi = library.dssiEntry.flatMap({ $0(UInt(plugin.index)) }),
                  let ladspa = dssi.pointee.LADSPA_Plugin else { return nil }
            return (ladspa, dssi)
        }
    }

    /// What the engine runs.
    var prepared: PreparedKernel {
        let midi = kernel.pointee.midi_inputs != nil
        return PreparedKernel(
            kernel: ExternalKernel(context: UnsafeMutableRawPointer(kernel), run: detent_lv2_run, reset: detent_lv2_reset,
                                   beginEvents: midi ? detent_lv2_midi_begin : nil, addEvent: midi ? detent_lv2_midi_add : nil),
            owner: self)
    }

    /// A control port's value in the first instance (meters, latency), read between renders.
    func controlValue(_ port: LadspaPort) -> Float { memory.portValues[0][Int(port.index)] }
}

extension LadspaInstances: KernelReports {
    func takeMessages() -> [String] { [] }

    var outputValues: [OutputValue] {
        LadspaTable.outputIDs(plugin).map { OutputValue(id: $0.id, value: Double(controlValue($0.port))) }
    }

    var latency: Int {
        guard let port = plugin.latencyPort else { return 0 }
        let frames = controlValue(port)
        return frames.isFinite && frames > 0 ? Int(frames.rounded()) : 0
    }
}
