import CLilv
import CPluginKernel
import CRealtime
import AudioEngine
import Glibc
import Parameters
import Platform
import KernelMemory

/// The running instances of one plug-in for one engine `prepare`: lilv instances, their host
/// features, port memory and buffers, and the ``DetentLV2Kernel`` that the audio thread runs.
///
/// How the file's channels meet the plug-in's main audio ports (one rule, in docs/plugins.md):
/// equal counts connect directly; a mono plug-in runs once per channel with linked controls;
/// any other plug-in runs once, with the channels folded into its inputs and its outputs
/// folded back into the channels (`detent_lv2_fold`), so the output has the input's channels.
final class PluginInstances: @unchecked Sendable {
    let plugin: PluginDescription
    /// The parameter table's ports, in row order.
    let parameterPorts: [PortDescription]
    /// The kernel and every buffer it points into (freed after the instances, in `deinit`).
    private let memory: KernelMemory
    var kernel: UnsafeMutablePointer<DetentLV2Kernel> { memory.kernel }
    let log: UnsafeMutablePointer<DetentLV2Log>
    private(set) var instances: [UnsafeMutablePointer<LilvInstance>] = []
    private(set) var features: [HostFeatures] = []
    /// Host messages to print with the plug-in's own (a saved state that could not be read).
    private var notes: [String] = []
    private var records: UnsafeMutablePointer<DetentLV2Instance> { memory.records }
    private var portValues: UnsafeMutablePointer<UnsafeMutablePointer<Float>> { memory.portValues }

    /// Atom buffers' size in bytes: the largest any port asks for, and at least 8 KiB.
    let atomCapacity: Int
    /// The control outputs (meters), the port that reports latency (none without audio
    /// outputs: see ``latency``) and the output parameters, looked up once: a sandbox reports
    /// them every few milliseconds.
    let controlOutputs: [PortDescription]
    let latencyPort: PortDescription?
    let readableProperties: [PropertyDescription]

    /// The live worker thread (plug-ins with a worker, in a real-time engine).
    private var worker: PluginWorker?

    /// MIDI messages one cycle can hold for the plug-in's MIDI input, and their bytes.
    static let midiCapacity = 1024, midiBytes = 65_536
    /// MIDI messages of the plug-in's MIDI output held between two takes (a render block of
    /// up to 16384 frames), and their bytes.
    static let midiOutCapacity = 8192, midiOutBytes = 131_072

    /// A `time:Position` object for a transport rolling from its start at `beatsPerMinute`,
    /// in 4/4: frame 0, bar 0, beat 0, speed 1 — the atom and its body, as a plug-in reads
    /// it from its time input (what jalv and Ardour send when the transport starts).
    /// `detent_lv2_transport` writes a live transport's values into this layout: the order
    /// and types of the properties are its too.
    static func position(beatsPerMinute: Double, urids: URIDMap) -> [UInt8] {
        func le32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
        func property(_ key: String, _ type: String, _ value: [UInt8]) -> [UInt8] {
            var bytes = le32(urids.map(LV2URI.time + key)) + le32(0) + le32(UInt32(value.count)) + le32(urids.map(LV2URI.atom + type)) + value
            while bytes.count % 8 != 0 { bytes.append(0) }
            return bytes
        }
        let float = { (v: Float) in withUnsafeBytes(of: v.bitPattern.littleEndian, Array.init) }
        let long = { (v: Int64) in withUnsafeBytes(of: v.littleEndian, Array.init) }
        let body = le32(0) + le32(urids.map(LV2URI.time + "Position"))
            + property("frame", "Long", long(0))
            + property("speed", "Float", float(1))
            + property("bar", "Long", long(0))
            + property("barBeat", "Float", float(0))
            + property("beat", "Double", withUnsafeBytes(of: Double(0).bitPattern.littleEndian, Array.init))
            + property("beatUnit", "Int", le32(4))
            + property("beatsPerBar", "Float", float(4))
            + property("beatsPerMinute", "Float", float(Float(beatsPerMinute)))
        return le32(UInt32(body.count)) + le32(urids.map(LV2URI.atom + "Object")) + body
    }
    /// The live worker's request and response rings, per instance.
    static let workerRing = 65_536

    init(plugin: PluginDescription, parameterPorts: [PortDescription], defaults: [Double], ranges: [ClosedRange<Double>],
         format: KernelFormat, files: [FileParameter] = [], state: SavedState? = nil) throws(PluginError) {
        self.plugin = plugin
        self.parameterPorts = parameterPorts
        let memory = KernelMemory(audioInputs: plugin.audioInputs.count, audioOutputs: plugin.audioOutputs.count,
                                  sideInputs: plugin.sideChainInputs.count, channels: format.channels, maxFrames: format.maxFrames)
        self.memory = memory
        atomCapacity = max(8192, plugin.ports.map(\.minimumSize).max() ?? 0)
        controlOutputs = plugin.controlOutputs
        latencyPort = plugin.audioOutputs.isEmpty ? nil : plugin.latencyPort
        readableProperties = plugin.numericReadableProperties
        log = .allocate(capacity: 1)
        log.initialize(to: DetentLV2Log())
        let urids = URIDMap.shared
        detent_lv2_log_prepare(log, 64, memory.buffer(CChar.self, 64 * Int(DETENT_LV2_LOG_MESSAGE)), memory.buffer(UInt32.self, 64),
                               memory.buffer(UInt32.self, 64), urids.map(LV2URI.log + "Trace"))
        let ports = Ports(plugin: plugin, format: format, memory: memory, capacity: atomCapacity, urids: urids)

        // Some plug-ins switch the thread's floating-point mode (flush-to-zero) while they are
        // made or activated; the caller's mode is given back.
        let mode = detent_denormals_off()
        defer { detent_denormals_restore(mode) }
        try LV2World.shared.withWorld { world, _ throws(PluginError) in
            // Made and activated under the plug-in lifecycle lock too (see PluginKernel.h).
            detent_plugin_lifecycle_lock()
            defer { detent_plugin_lifecycle_unlock() }
            let lilvPlugin = try Self.loadablePlugin(plugin, in: world)
            for i in 0..<memory.instanceCount {
                try addInstance(i, of: lilvPlugin, world: world, ports: ports, format: format, defaults: defaults,
                                files: files, state: state, urids: urids)
            }
        }
        kernel.pointee = makeKernel(ports: ports, ranges: ranges, format: format, urids: urids)
        if format.realtime, (0..<memory.instanceCount).contains(where: { records[$0].worker != nil }) {
            do {
                worker = try PluginWorker(instances: records, count: memory.instanceCount, name: plugin.name)
            } catch {
                throw PluginError.instantiationFailed(name: plugin.name)
            }
        }
    }

    /// The plug-in's lilv entry in `world`, once its shared library is known to load.
    ///
    /// The library is checked first, so that a broken installation is told in Detent's one
    /// line rather than in lilv's own messages.
    private static func loadablePlugin(_ plugin: PluginDescription, in world: OpaquePointer) throws(PluginError) -> OpaquePointer {
        guard let lilvPlugin = PluginCatalog.lilvPlugin(plugin.uri, in: world) else {
            throw PluginError.unknown(plugin.uri, closest: [])
        }
        if let problem = Self.libraryProblem(lilvPlugin) {
            throw PluginError.libraryFailed(name: plugin.name, reason: problem)
        }
        return lilvPlugin
    }

    /// Makes instance `i` and readies it for its first block, the way jalv starts one: its
    /// worker record and features (the URID map, options, log, worker), the instance itself
    /// and the plug-in's default state, every port connected, the table's defaults written,
    /// activation, and then the saved state and chosen files it starts from. Runs under the
    /// world's lock and the plug-in lifecycle lock.
    private func addInstance(_ i: Int, of lilvPlugin: OpaquePointer, world: OpaquePointer, ports: Ports, format: KernelFormat,
                             defaults: [Double], files: [FileParameter], state: SavedState?, urids: URIDMap) throws(PluginError) {
        let record = records + i
        prepareWorker(record, realtime: format.realtime)
        let hostFeatures = HostFeatures(sampleRate: format.sampleRate, maxFrames: format.maxFrames,
                                        sequenceSize: atomCapacity, worker: record, log: log)
        features.append(hostFeatures)
        guard let instance = lilv_plugin_instantiate(lilvPlugin, format.sampleRate, hostFeatures.array) else {
            if let problem = Self.libraryProblem(lilvPlugin) {
                throw PluginError.libraryFailed(name: plugin.name, reason: problem)
            }
            throw PluginError.instantiationFailed(name: plugin.name)
        }
        instances.append(instance)
        record.pointee.handle = lilv_instance_get_handle(instance)
        record.pointee.worker = lilv_instance_get_extension_data(instance, LV2URI.workerInterface)?
            .assumingMemoryBound(to: LV2_Worker_Interface.self)
        if plugin.hasDefaultState {
            Self.restoreDefaultState(of: plugin, into: instance, world: world, features: hostFeatures.array, urids: urids)
        }

        // Every port is connected before activation; audio of a direct connection
        // is connected again at each run.
        let values = memory.portValues(instance: i, count: plugin.ports.count)
        let atoms = ports.connect(instance, number: i, values: values)
        for (row, port) in parameterPorts.enumerated() {
            values[Int(port.index)] = Float(defaults[row])
        }
        lilv_instance_activate(instance)
        // The saved state first, then the files chosen over it.
        if let state, let problem = Self.restore(state, into: instance, world: world, features: hostFeatures.array,
                                                 record: record, outputs: atoms.outputs, capacity: atomCapacity, urids: urids),
           i == 0 {
            notes.append("\(plugin.name): \(problem); it keeps its defaults")
        }
        if let patchSequence = atoms.patchSequence {
            Self.load(files, into: instance, record: record, input: patchSequence, outputs: atoms.outputs,
                      capacity: atomCapacity, sequenceType: ports.sequenceType, urids: urids,
                      settleFrames: plugin.runsWholeBlocks ? 0 : UInt32(format.maxFrames))
        }
    }

    /// Gives an instance's record what its worker needs before the instance is made: room for
    /// the answers it delivers, and for a live engine the rings its worker thread reads
    /// requests from and writes answers to.
    private func prepareWorker(_ record: UnsafeMutablePointer<DetentLV2Instance>, realtime: Bool) {
        record.pointee.response_capacity = 16_384
        record.pointee.responses = memory.buffer(UInt8.self, 16_384)
        record.pointee.delivering = memory.buffer(UInt8.self, 16_384)
        if realtime {
            record.pointee.threaded = 1
            record.pointee.requests = DetentByteRing(data: memory.buffer(UInt8.self, Self.workerRing),
                                                     capacity: UInt32(Self.workerRing), head: 0, tail: 0)
            record.pointee.answers = DetentByteRing(data: memory.buffer(UInt8.self, Self.workerRing),
                                                    capacity: UInt32(Self.workerRing), head: 0, tail: 0)
        }
    }

    /// Restores the state the plug-in declares as its default (`state:state` in its own
    /// description) into a new instance, before its ports are connected, as jalv does.
    private static func restoreDefaultState(of plugin: PluginDescription, into instance: UnsafeMutablePointer<LilvInstance>,
                                            world: OpaquePointer, features: UnsafePointer<UnsafePointer<LV2_Feature>?>,
                                            urids: URIDMap) {
        let uri = lilv_new_uri(world, plugin.uri)
        if let state = lilv_state_new_from_world(world, urids.mapFeature, uri) {
            lilv_state_restore(state, instance, nil, nil, 0, features)
            lilv_state_free(state)
        }
        lilv_node_free(uri)
    }

    /// The kernel the audio thread runs: the fields every format shares (instances, audio
    /// ports, the table's rows and their ranges), then the LV2 ones the ports bring — atom
    /// outputs, MIDI in and out, message parameters, the transport's position.
    private func makeKernel(ports: Ports, ranges: [ClosedRange<Double>], format: KernelFormat, urids: URIDMap) -> DetentLV2Kernel {
        let sampleRate = format.sampleRate
        let parameters = parameterPorts.enumerated().map { row, port in
            let range = ranges[row]
            return KernelMemory.ParameterPort(
                port: port.index,
                low: Float(port.isSampleRate ? (port.minimum ?? 0) * sampleRate : range.lowerBound),
                high: Float(port.isSampleRate ? (port.maximum ?? 0.5) * sampleRate : range.upperBound))
        }
        let atomPorts = ports.outputPortIndices()
        var k = memory.kernel(descriptor: instances.first.flatMap { lilv_instance_get_descriptor($0) },
                              inputPorts: plugin.audioInputs.map(\.index), outputPorts: plugin.audioOutputs.map(\.index),
                              parameters: parameters)
        memory.addSideInputs(&k, ports: plugin.sideChainInputs.map(\.index))
        ports.addOutputs(&k, portIndices: atomPorts, urids: urids)
        if let midiInputs = ports.midiInputs {
            memory.addMIDIInput(&k, sequences: midiInputs, capacity: Self.midiCapacity, bytes: Self.midiBytes)
        }
        ports.addProperties(&k, first: parameterPorts.count, urids: urids)
        ports.addReadable(&k, urids: urids)
        ports.addPatch(&k, urids: urids)
        ports.addPosition(&k, beatsPerMinute: format.beatsPerMinute, urids: urids)
        return k
    }

    deinit {
        // The worker thread stops before the instances it works for go.
        worker?.stop()
        let mode = detent_denormals_off()
        defer { detent_denormals_restore(mode) }
        // Freeing an instance releases lilv's count of its library's users, kept in the
        // shared world: changed without the world's lock, a count lost to another thread's
        // instantiation unloads a library whose plug-in is still running elsewhere. And no
        // other plug-in is made or freed meanwhile (the lifecycle lock, PluginKernel.h).
        LV2World.shared.withWorld { _, _ in
            detent_plugin_lifecycle_lock()
            defer { detent_plugin_lifecycle_unlock() }
            for instance in instances { lilv_instance_deactivate(instance) }
            for instance in instances { lilv_instance_free(instance) }
        }
        log.deallocate()
    }

    /// Why the plug-in's shared library cannot be loaded (a broken package: a missing
    /// library or symbol), or nil when it loads.
    static func libraryProblem(_ plugin: OpaquePointer) -> String? {
        guard let uri = lilv_plugin_get_library_uri(plugin), let uriText = lilv_node_as_uri(uri),
              let path = lilv_file_uri_parse(uriText, nil) else { return nil }
        defer { lilv_free(path) }
        switch SharedLibrary.load(String(cString: path)) {
        case .failure(let failure): return failure.reason
        case .success(let library):
            library.unload()
            return nil
        }
    }

    /// What the engine runs.
    var prepared: PreparedKernel {
        let midi = kernel.pointee.midi_inputs != nil
        return PreparedKernel(
            kernel: ExternalKernel(context: UnsafeMutableRawPointer(kernel), run: detent_lv2_run, reset: detent_lv2_reset,
                                   beginEvents: midi ? detent_lv2_midi_begin : nil, addEvent: midi ? detent_lv2_midi_add : nil,
                                   transport: kernel.pointee.position != nil ? detent_lv2_transport : nil,
                                   drainMIDI: kernel.pointee.midi_out_events != nil ? detent_lv2_midi_out_drain : nil,
                                   side: kernel.pointee.side_count > 0 ? detent_lv2_side : nil),
            owner: self)
    }

    /// The value of a control port of the first instance (meters, latency). Read between
    /// renders, or as a snapshot that may be a block old.
    func controlValue(_ port: PortDescription) -> Float {
        portValues[0][Int(port.index)]
    }

    /// The messages the plug-in wrote to its MIDI output since the last call (between
    /// blocks, on the thread that runs the engine).
    func takeMIDIOutput() -> MIDIOutput {
        let k = kernel
        guard let events = k.pointee.midi_out_events, let bytes = k.pointee.midi_out_bytes else { return MIDIOutput() }
        let messages = (0..<Int(k.pointee.midi_out_count)).map { e in
            let event = events[e]
            return MIDIOutput.Message(frame: event.frame,
                                      bytes: Array(UnsafeBufferPointer(start: bytes + Int(event.offset), count: Int(event.size))))
        }
        let taken = MIDIOutput(messages: messages, dropped: Int(k.pointee.midi_out_dropped))
        k.pointee.midi_out_count = 0
        k.pointee.midi_out_bytes_used = 0
        k.pointee.midi_out_dropped = 0
        return taken
    }

    /// The plug-in's messages since the last call, as lines for stderr.
    func takeMessages() -> [String] {
        var lines = notes
        notes = []
        var type: UInt32 = 0
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(DETENT_LV2_LOG_MESSAGE)) { text in
            while detent_lv2_log_take(log, text.baseAddress!, &type) != 0 {
                let line = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    .trimmedWhitespace
                if !line.isEmpty { lines.append("\(plugin.name): \(line)") }
            }
        }
        return lines
    }
}
