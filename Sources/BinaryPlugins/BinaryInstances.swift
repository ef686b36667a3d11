import AudioEngine
import CPluginKernel
import CRealtime
import KernelMemory
import Parameters
import Platform
import PluginFormats
import Presets

/// The running instances of one binary plug-in (VST2, VST3, CLAP) for one engine `prepare`,
/// and the kernel the audio thread runs: CPluginKernel's, the one LV2, LADSPA and DSSI
/// plug-ins run through, reaching the plug-in through its format's bridge. So the channel rule,
/// the control writes and the MIDI split at frames are the same for every format; a format
/// brings its instances (``BinaryBackend/instantiate(_:layout:sampleRate:maxFrames:)``) and
/// its bridge, and this connects them (``BinaryPortLayout``).
///
/// Life cycle: every instance made and its ports connected, then the bridge's `activate`
/// (the plug-in's own activation); `deactivate` and `activate` again on the engine's reset;
/// `deactivate` and the instance's release when the engine lets the instances go.
final class BinaryInstances: @unchecked Sendable {
    let plugin: BinaryPlugin
    private let memory: KernelMemory
    private let bridge: UnsafePointer<LV2_Descriptor>
    private var instances: [any BinaryInstance] = []
    private var active = false
    /// Said once, off the audio thread: a saved state the plug-in refused.
    private var messages: [String] = []
    /// Each writable parameter's row id, by its place in ``BinaryPlugin/parameters``.
    private lazy var ownIDs: [Int: String] = {
        guard let (table, rows) = try? BinaryTable.make(plugin) else { return [:] }
        return Dictionary(zip(rows, table.textIDs), uniquingKeysWith: { a, _ in a })
    }()
    var kernel: UnsafeMutablePointer<DetentLV2Kernel> { memory.kernel }

    /// MIDI messages one cycle can hold, their bytes, and the bytes of one run's sequence.
    static let midiCapacity = BinaryPortLayout.midiCapacity, midiBytes = 65_536, atomCapacity = 16_384

    /// - Parameters:
    ///   - rows: each table row's place in the plug-in's parameters; `defaults` and `ranges`
    ///     are the table's, row by row.
    init(plugin: BinaryPlugin, backend: any BinaryBackend, rows: [Int], defaults: [Double], ranges: [ClosedRange<Double>],
         format: KernelFormat, state: SavedState? = nil) throws(PluginError) {
        self.plugin = plugin
        bridge = backend.bridge
        let layout = BinaryPortLayout(plugin)
        let mode = detent_denormals_off()
        defer { detent_denormals_restore(mode) }
        detent_plugin_lifecycle_lock()
        defer { detent_plugin_lifecycle_unlock() }
        let (first, used) = try Self.arranged(plugin, backend: backend, layout: layout, format: format)
        self.used = used
        memory = KernelMemory(audioInputs: used.inputs, audioOutputs: used.outputs, sideInputs: plugin.sideInputs,
                              channels: format.channels, maxFrames: format.maxFrames)
        let midiInputs = plugin.midiInput ? memory.buffer(UnsafeMutablePointer<LV2_Atom_Sequence>.self, memory.instanceCount) : nil

        for i in 0..<memory.instanceCount {
            let instance: any BinaryInstance
            if i == 0, let first {
                instance = first
            } else {
                instance = try backend.instantiate(plugin, layout: layout, sampleRate: format.sampleRate, maxFrames: format.maxFrames)
            }
            instances.append(instance)
            if let tempo = format.beatsPerMinute, tempo.isFinite, tempo > 0 { instance.setTempo(tempo) }
            memory.records[i].handle = instance.handle
            let values = memory.portValues(instance: i, count: layout.count)
            for (k, parameter) in plugin.parameters.enumerated() { values[Int(layout.parameter(k))] = Float(parameter.defaultValue) }
            for (row, k) in rows.enumerated() { values[Int(layout.parameter(k))] = Float(defaults[row]) }
            connect(instance.handle, layout: layout, values: values)
            if let midiInputs {
                let sequence = memory.sequence(capacity: Self.atomCapacity)
                KernelMemory.markEmpty(sequence, type: 0)
                midiInputs[i] = sequence
                bridge.pointee.connect_port(instance.handle, layout.midi, UnsafeMutableRawPointer(sequence))
            }
        }
        if let state, let problem = Self.restore(state, into: instances, name: plugin.name) { messages.append(problem) }
        for instance in instances { bridge.pointee.activate?(instance.handle) }
        active = true
        let parameters = rows.enumerated().map { row, k in
            KernelMemory.ParameterPort(port: layout.parameter(k), low: Float(ranges[row].lowerBound), high: Float(ranges[row].upperBound))
        }
        var k = memory.kernel(descriptor: bridge, inputPorts: (0..<used.inputs).map(layout.input),
                              outputPorts: (0..<used.outputs).map(layout.output), parameters: parameters)
        memory.addSideInputs(&k, ports: (0..<layout.sides).map(layout.side))
        // JACK's transport reaches the plug-in through its bridge, when the bridge takes it.
        k.transport_receiver = bridge.pointee.extension_data?(DETENT_TRANSPORT_URI)
        if let midiInputs {
            // The bridge reads every event of the sequence as MIDI: the type numbers only need
            // to be the loop's own.
            memory.addMIDIInput(&k, sequences: midiInputs, capacity: Self.midiCapacity, bytes: Self.midiBytes)
            k.midi_event_type = 1
            k.atom_sequence_type = 2
            k.atom_capacity = UInt32(Self.atomCapacity)
        }
        memory.kernel.pointee = k
    }

    /// The main inputs and outputs the kernel uses: the plug-in's own, or fewer when it took
    /// the chain's channels (``arranged(_:backend:layout:format:)``).
    let used: (inputs: Int, outputs: Int)

    /// A plug-in that declares more pins than the chain has channels, and more than two (IEM's
    /// ambisonic plug-ins declare 64, JUCE's largest, and work in as many channels as they are
    /// told), is told the chain's channels where its format has a way to (VST2's speaker
    /// arrangement). If it takes them, the kernel uses that many pins, and the rest read
    /// silence and are not read, where they would otherwise be folded into the chain's
    /// channels by the mean. The instance made to ask is the first one; nil when none was
    /// made.
    private static func arranged(_ plugin: BinaryPlugin, backend: any BinaryBackend, layout: BinaryPortLayout,
                                 format: KernelFormat) throws(PluginError) -> ((any BinaryInstance)?, (inputs: Int, outputs: Int)) {
        let declared = (inputs: plugin.audioInputs, outputs: plugin.audioOutputs)
        let wanted = (inputs: min(declared.inputs, format.channels), outputs: min(declared.outputs, format.channels))
        guard wanted != declared, max(declared.inputs, declared.outputs) > 2 else { return (nil, declared) }
        let instance = try backend.instantiate(plugin, layout: layout, sampleRate: format.sampleRate, maxFrames: format.maxFrames)
        return (instance, instance.arrange(inputs: wanted.inputs, outputs: wanted.outputs) ? wanted : declared)
    }

    /// Connects every port of an instance before activation: parameters to `values`, audio to
    /// the kernel's buffers (connected again at each run when direct).
    private func connect(_ handle: UnsafeMutableRawPointer, layout: BinaryPortLayout, values: UnsafeMutablePointer<Float>) {
        for k in 0..<layout.parameters {
            bridge.pointee.connect_port(handle, layout.parameter(k), UnsafeMutableRawPointer(values + Int(layout.parameter(k))))
        }
        // Pins beyond those in use (see `arranged`) read silence and write where nothing reads.
        for c in 0..<layout.inputs {
            bridge.pointee.connect_port(handle, layout.input(c), memory.audio(input: true, position: c < used.inputs ? c : nil))
        }
        for c in 0..<layout.outputs {
            bridge.pointee.connect_port(handle, layout.output(c), memory.audio(input: false, position: c < used.outputs ? c : nil))
        }
        for c in 0..<layout.sides { bridge.pointee.connect_port(handle, layout.side(c), memory.side(position: c)) }
    }

    static var stateFile: String { BinaryStates.stateFile }

    /// Gives every instance the state saved in `state`'s folder, before activation; what went
    /// wrong, or nil.
    private static func restore(_ state: SavedState, into instances: [any BinaryInstance], name: String) -> String? {
        guard case .folder(let path, _) = state else { return nil }
        let file = path + "/" + stateFile
        let bytes: [UInt8]
        do { bytes = try BoundedFileReader.read(path: file, limit: 256 << 20) } catch {
            return "\(name): cannot read the saved state '\(file)': \(error)"
        }
        for instance in instances {
            if let problem = instance.restoreState(bytes) { return "\(name): its saved state was refused: \(problem)" }
        }
        return nil
    }

    /// Saves the first instance's state into `directory` (made if needed) as ``stateFile``.
    /// - Throws: ``PluginError/stateNotSaved(name:reason:)``.
    func saveState(to directory: String) throws(PluginError) {
        guard let bytes = instances.first?.saveState() else {
            throw .stateNotSaved(name: plugin.name, reason: "it gave no state")
        }
        do {
            try FolderEntries.make(directory, mode: 0o755)
        } catch {
            throw .stateNotSaved(name: plugin.name, reason: "cannot make '\(directory)': \(error)")
        }
        let file = directory + "/" + Self.stateFile
        do {
            try AtomicFileWriter().write(bytes, to: file, replacing: true)
        } catch {
            throw .stateNotSaved(name: plugin.name, reason: error.description)
        }
    }

    deinit {
        let mode = detent_denormals_off()
        defer { detent_denormals_restore(mode) }
        detent_plugin_lifecycle_lock()
        defer { detent_plugin_lifecycle_unlock() }
        if active { for instance in instances { bridge.pointee.deactivate?(instance.handle) } }
        instances.removeAll()
    }

    /// What the engine runs.
    var prepared: PreparedKernel {
        let midi = kernel.pointee.midi_inputs != nil
        return PreparedKernel(
            kernel: ExternalKernel(context: UnsafeMutableRawPointer(kernel), run: detent_lv2_run, reset: detent_lv2_reset,
                                   beginEvents: midi ? detent_lv2_midi_begin : nil, addEvent: midi ? detent_lv2_midi_add : nil,
                                   transport: kernel.pointee.transport_receiver != nil ? detent_binary_transport : nil,
                                   side: plugin.sideInputs > 0 ? detent_lv2_side : nil),
            owner: self)
    }
}

extension BinaryInstances: KernelReports {
    func takeMessages() -> [String] {
        defer { messages.removeAll() }
        return messages
    }

    /// The read-only parameters' values in the first instance, as its bridge wrote them.
    var outputValues: [OutputValue] {
        let layout = BinaryPortLayout(plugin)
        return BinaryTable.outputIDs(plugin).map { id, k in
            OutputValue(id: id, value: Double(memory.portValues[0][Int(layout.parameter(k))]))
        }
    }

    var latency: Int { instances.first?.latency ?? 0 }

    /// The first instance's own changes (a plug-in folded over channels runs one instance a
    /// channel, moved alike), by row id.
    func takeOwnChanges() -> [OutputValue] {
        guard let changes = instances.first?.takeOwnChanges(), !changes.isEmpty else { return [] }
        let ids = ownIDs
        return changes.compactMap { change in ids[change.parameter].map { OutputValue(id: $0, value: change.value) } }
    }
}
