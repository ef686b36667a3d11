import CLilv
import CPluginKernel
import CRealtime
import AudioEngine
import Glibc
import Parameters
import Platform
import PluginKernel

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
        let sampleRate = format.sampleRate, maxFrames = format.maxFrames, channels = format.channels
        self.plugin = plugin
        self.parameterPorts = parameterPorts
        let ins = plugin.audioInputs, outs = plugin.audioOutputs
        let sides = plugin.sideChainInputs
        let memory = KernelMemory(audioInputs: ins.count, audioOutputs: outs.count, sideInputs: sides.count,
                                  channels: channels, maxFrames: maxFrames)
        self.memory = memory
        let count = memory.instanceCount, records = memory.records
        atomCapacity = max(8192, plugin.ports.map(\.minimumSize).max() ?? 0)
        log = .allocate(capacity: 1)
        log.initialize(to: DetentLV2Log())
        let urids = URIDMap.shared
        detent_lv2_log_prepare(log, 64, memory.buffer(CChar.self, 64 * Int(DETENT_LV2_LOG_MESSAGE)), memory.buffer(UInt32.self, 64),
                               memory.buffer(UInt32.self, 64), urids.map(LV2URI.log + "Trace"))

        let silence = memory.silence, discard = memory.discard
        let atomSequence = urids.map(LV2URI.atom + "Sequence")
        let portCount = plugin.ports.count
        let atomOutputs = plugin.ports.filter { $0.kind == .atom && !$0.isInput }
        let atomOutputBuffers = memory.buffer(UnsafeMutablePointer<LV2_Atom_Sequence>.self, count * atomOutputs.count)
        let midiPort = plugin.midiInput
        let midiInputs = midiPort == nil ? nil : memory.buffer(UnsafeMutablePointer<LV2_Atom_Sequence>.self, count)
        // Message parameters go where the patch input's sequence is written anyway (the MIDI
        // input's, the position's), else into a sequence of their own.
        let properties = plugin.numericProperties
        let readable = plugin.numericReadableProperties
        let patchPort = properties.isEmpty && readable.isEmpty ? nil : plugin.patchInput
        // The transport's position, for a plug-in that reads it, when there is a tempo to tell
        // now or a transport to follow later.
        let timePort = format.beatsPerMinute == nil && !format.followsTransport ? nil : plugin.timeInput
        let positionInputs = timePort == nil || timePort == midiPort ? nil : memory.buffer(UnsafeMutablePointer<LV2_Atom_Sequence>.self, count)
        let patchShares: UInt32 = patchPort == nil ? 0 : patchPort == midiPort ? 1 : patchPort == timePort && positionInputs != nil ? 2 : 0
        let patchInputs = patchPort == nil || patchShares != 0 ? nil : memory.buffer(UnsafeMutablePointer<LV2_Atom_Sequence>.self, count)

        // Some plug-ins switch the thread's floating-point mode (flush-to-zero) while they are
        // made or activated; the caller's mode is given back.
        let mode = detent_denormals_off()
        defer { detent_denormals_restore(mode) }
        try LV2World.shared.withWorld { world, _ throws(PluginError) in
            // Made and activated under the plug-in lifecycle lock too (see PluginKernel.h).
            detent_plugin_lifecycle_lock()
            defer { detent_plugin_lifecycle_unlock() }
            guard let lilvPlugin = PluginCatalog.lilvPlugin(plugin.uri, in: world) else {
                throw PluginError.unknown(plugin.uri, closest: [])
            }
            // Checked first, so that a broken installation is told in Detent's one line
            // rather than in lilv's own messages.
            if let problem = Self.libraryProblem(lilvPlugin) {
                throw PluginError.libraryFailed(name: plugin.name, reason: problem)
            }
            for i in 0..<count {
                let record = records + i
                record.pointee.response_capacity = 16_384
                record.pointee.responses = memory.buffer(UInt8.self, 16_384)
                record.pointee.delivering = memory.buffer(UInt8.self, 16_384)
                if format.realtime {
                    record.pointee.threaded = 1
                    record.pointee.requests = DetentByteRing(data: memory.buffer(UInt8.self, Self.workerRing),
                                                             capacity: UInt32(Self.workerRing), head: 0, tail: 0)
                    record.pointee.answers = DetentByteRing(data: memory.buffer(UInt8.self, Self.workerRing),
                                                            capacity: UInt32(Self.workerRing), head: 0, tail: 0)
                }
                let hostFeatures = HostFeatures(sampleRate: sampleRate, maxFrames: maxFrames,
                                                sequenceSize: atomCapacity, worker: record, log: log)
                features.append(hostFeatures)
                guard let instance = lilv_plugin_instantiate(lilvPlugin, sampleRate, hostFeatures.array) else {
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
                    let uri = lilv_new_uri(world, plugin.uri)
                    if let state = lilv_state_new_from_world(world, urids.mapFeature, uri) {
                        lilv_state_restore(state, instance, nil, nil, 0, hostFeatures.array)
                        lilv_state_free(state)
                    }
                    lilv_node_free(uri)
                }

                // Every port is connected before activation; audio of a direct connection
                // is connected again at each run.
                let values = memory.portValues(instance: i, count: portCount)
                var atomIndex = 0
                var patchSequence: UnsafeMutablePointer<LV2_Atom_Sequence>?
                for port in plugin.ports {
                    let at: UnsafeMutableRawPointer?
                    switch port.kind {
                    case .control:
                        values[Int(port.index)] = Float(port.defaultValue ?? port.minimum ?? 0)
                        at = UnsafeMutableRawPointer(values + Int(port.index))
                    case .audio:
                        if port.isSideChain, port.isInput, let position = sides.firstIndex(where: { $0.index == port.index }) {
                            at = UnsafeMutableRawPointer(memory.side(position: position))
                        } else if port.isSideChain {
                            at = UnsafeMutableRawPointer(port.isInput ? silence : discard)
                        } else {
                            let position = (port.isInput ? ins : outs).firstIndex { $0.index == port.index }
                            at = UnsafeMutableRawPointer(memory.audio(input: port.isInput, position: position))
                        }
                    case .cv:
                        at = UnsafeMutableRawPointer(port.isInput ? silence : memory.buffer(Float.self, maxFrames))
                    case .atom:
                        let sequence = memory.sequence(capacity: atomCapacity)
                        if port.isInput, port == plugin.patchInput { patchSequence = sequence }
                        if port.isInput, port == midiPort, let midiInputs {
                            // Filled before each run with the cycle's messages.
                            KernelMemory.markEmpty(sequence, type: atomSequence)
                            midiInputs[i] = sequence
                        } else if port.isInput, port == timePort, let positionInputs {
                            // Filled before each run: the position when one is due.
                            KernelMemory.markEmpty(sequence, type: atomSequence)
                            positionInputs[i] = sequence
                        } else if port.isInput {
                            // A valid empty sequence: nothing happens at any frame (the patch
                            // input's holds the message parameters due before each run).
                            KernelMemory.markEmpty(sequence, type: atomSequence)
                            if port == patchPort, let patchInputs { patchInputs[i] = sequence }
                        } else {
                            atomOutputBuffers[i * atomOutputs.count + atomIndex] = sequence
                            atomIndex += 1
                        }
                        at = UnsafeMutableRawPointer(sequence)
                    case .event, .unknown:
                        at = nil
                    }
                    lilv_instance_connect_port(instance, port.index, at)
                }
                for (row, port) in parameterPorts.enumerated() {
                    values[Int(port.index)] = Float(defaults[row])
                }
                lilv_instance_activate(instance)
                let ownOutputs = (0..<atomIndex).map { atomOutputBuffers[i * atomOutputs.count + $0] }
                // The saved state first, then the files chosen over it.
                if let state, let problem = Self.restore(state, into: instance, world: world, features: hostFeatures.array,
                                                         record: record, outputs: ownOutputs, capacity: atomCapacity, urids: urids),
                   i == 0 {
                    notes.append("\(plugin.name): \(problem); it keeps its defaults")
                }
                if let patchSequence {
                    let atomOutputs = ownOutputs
                    Self.load(files, into: instance, record: record, input: patchSequence, outputs: atomOutputs,
                              capacity: atomCapacity, sequenceType: atomSequence, urids: urids,
                              settleFrames: plugin.runsWholeBlocks ? 0 : UInt32(maxFrames))
                }
            }
        }

        let parameters = parameterPorts.enumerated().map { row, port in
            let range = ranges[row]
            return KernelMemory.ParameterPort(
                port: port.index,
                low: Float(port.isSampleRate ? (port.minimum ?? 0) * sampleRate : range.lowerBound),
                high: Float(port.isSampleRate ? (port.maximum ?? 0.5) * sampleRate : range.upperBound))
        }
        let atomPorts = memory.buffer(UInt32.self, atomOutputs.count)
        for (j, port) in atomOutputs.enumerated() { atomPorts[j] = port.index }

        var k = memory.kernel(descriptor: instances.first.flatMap { lilv_instance_get_descriptor($0) },
                              inputPorts: ins.map(\.index), outputPorts: outs.map(\.index), parameters: parameters)
        memory.addSideInputs(&k, ports: sides.map(\.index))
        k.atom_output_count = UInt32(atomOutputs.count)
        k.atom_output_ports = UnsafePointer(atomPorts)
        k.atom_outputs = UnsafePointer(atomOutputBuffers)
        k.atom_capacity = UInt32(atomCapacity)
        k.atom_chunk = urids.map(LV2URI.atom + "Chunk")
        k.atom_sequence_type = atomSequence
        k.midi_event_type = urids.map(LV2URI.midiEvent)
        if let output = plugin.midiOutput, let a = atomOutputs.firstIndex(of: output) {
            k.midi_output = UnsafePointer(atomOutputBuffers[a])
            k.midi_out_events = memory.buffer(DetentMIDIOutEvent.self, Self.midiOutCapacity)
            k.midi_out_capacity = UInt32(Self.midiOutCapacity)
            k.midi_out_bytes = memory.buffer(UInt8.self, Self.midiOutBytes)
            k.midi_out_bytes_capacity = UInt32(Self.midiOutBytes)
        }
        if let midiInputs { memory.addMIDIInput(&k, sequences: midiInputs, capacity: Self.midiCapacity, bytes: Self.midiBytes) }
        if !properties.isEmpty {
            let keys = memory.buffer(UInt32.self, properties.count), types = memory.buffer(UInt32.self, properties.count)
            for (j, property) in properties.enumerated() {
                keys[j] = urids.map(property.uri)
                types[j] = urids.map(property.range ?? LV2URI.atom + "Float")
            }
            let sent = memory.buffer(Float.self, properties.count)
            sent.update(repeating: .nan, count: properties.count)
            k.property_count = UInt32(properties.count)
            k.property_first = UInt32(parameterPorts.count)
            k.property_keys = UnsafePointer(keys)
            k.property_types = UnsafePointer(types)
            k.property_sent = sent
            k.property_due = memory.buffer(UInt8.self, properties.count)
            k.property_values = memory.buffer(Float.self, properties.count)
        }
        if !readable.isEmpty {
            let keys = memory.buffer(UInt32.self, readable.count), values = memory.buffer(Float.self, readable.count)
            for (j, property) in readable.enumerated() { keys[j] = urids.map(property.uri) }
            values.update(repeating: .nan, count: readable.count)
            k.readable_count = UInt32(readable.count)
            k.readable_keys = UnsafePointer(keys)
            k.readable_values = values
            k.readable_get_pending = true
        }
        if patchPort != nil {
            // The patch messages both kinds of property travel in, and the atoms they hold.
            k.patch_inputs = patchInputs.map { UnsafePointer($0) }
            k.patch_shares = patchShares
            k.urid_object = urids.map(LV2URI.atom + "Object")
            k.urid_patch_set = urids.map(LV2URI.patch + "Set")
            k.urid_patch_get = urids.map(LV2URI.patch + "Get")
            k.urid_patch_put = urids.map(LV2URI.patch + "Put")
            k.urid_patch_body = urids.map(LV2URI.patch + "body")
            k.urid_patch_property = urids.map(LV2URI.patch + "property")
            k.urid_patch_value = urids.map(LV2URI.patch + "value")
            k.urid_urid = urids.map(LV2URI.atom + "URID")
            k.urid_float = urids.map(LV2URI.atom + "Float")
            k.urid_double = urids.map(LV2URI.atom + "Double")
            k.urid_int = urids.map(LV2URI.atom + "Int")
            k.urid_long = urids.map(LV2URI.atom + "Long")
            k.urid_bool = urids.map(LV2URI.atom + "Bool")
        }
        if let timePort {
            // Without a starting tempo the object waits, unsent, for the transport's first word.
            let bytes = Self.position(beatsPerMinute: format.beatsPerMinute ?? 120, urids: urids)
            let atom = memory.buffer(UInt8.self, bytes.count)
            atom.initialize(from: bytes, count: bytes.count)
            k.position = UnsafeRawPointer(atom).assumingMemoryBound(to: LV2_Atom.self)
            k.position_pending = format.beatsPerMinute != nil
            k.position_known = format.beatsPerMinute != nil
            k.position_shares_midi = timePort == midiPort
            k.position_inputs = positionInputs.map { UnsafePointer($0) } ?? (timePort == midiPort ? k.midi_inputs : nil)
        }
        kernel.pointee = k
        if format.realtime, (0..<count).contains(where: { records[$0].worker != nil }) {
            do {
                worker = try PluginWorker(instances: records, count: count, name: plugin.name)
            } catch {
                throw PluginError.instantiationFailed(name: plugin.name)
            }
        }
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
        var text = [CChar](repeating: 0, count: Int(DETENT_LV2_LOG_MESSAGE))
        var type: UInt32 = 0
        while detent_lv2_log_take(log, &text, &type) != 0 {
            let line = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                .trimmedWhitespace
            if !line.isEmpty { lines.append("\(plugin.name): \(line)") }
        }
        return lines
    }
}
