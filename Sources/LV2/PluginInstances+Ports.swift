import CLilv
import AudioEngine
import CPluginKernel
import KernelMemory

extension PluginInstances {
    /// The plug-in's ports as its instances connect them, and the buffers behind its atom
    /// ports: which input carries the cycle's MIDI, which the transport's position, where the
    /// message parameters travel, and the sequences each instance's atom outputs write into.
    /// Decided once for every instance; the kernel then gets the fields these buffers need.
    struct Ports {
        let plugin: PluginDescription
        let memory: KernelMemory
        /// Atom buffers' size in bytes (``PluginInstances/atomCapacity``).
        let capacity: Int
        /// The URID of `atom:Sequence`, the type of every sequence the ports hold.
        let sequenceType: LV2_URID
        /// The atom outputs, in port order, and each instance's sequences for them (instance
        /// `i`'s at `i * atomOutputs.count`).
        let atomOutputs: [PortDescription]
        let atomOutputBuffers: UnsafeMutablePointer<UnsafeMutablePointer<LV2_Atom_Sequence>>
        /// The MIDI input and its sequence per instance, filled before each run.
        let midiPort: PortDescription?
        let midiInputs: UnsafeMutablePointer<UnsafeMutablePointer<LV2_Atom_Sequence>>?
        /// The message parameters the plug-in takes, and those it can be asked for.
        let properties: [PropertyDescription]
        let readable: [PropertyDescription]
        /// The input the message parameters are written to (nil without any).
        let patchPort: PortDescription?
        /// The transport's position input, for a plug-in that reads it, when there is a tempo
        /// to tell now or a transport to follow later.
        let timePort: PortDescription?
        /// The position's own sequence per instance, when it does not share the MIDI input's.
        let positionInputs: UnsafeMutablePointer<UnsafeMutablePointer<LV2_Atom_Sequence>>?
        /// Whose sequence the message parameters share: 1 the MIDI input's, 2 the position's,
        /// 0 their own (`patchInputs`).
        let patchShares: UInt32
        let patchInputs: UnsafeMutablePointer<UnsafeMutablePointer<LV2_Atom_Sequence>>?

        init(plugin: PluginDescription, format: KernelFormat, memory: KernelMemory, capacity: Int, urids: URIDMap) {
            self.plugin = plugin
            self.memory = memory
            self.capacity = capacity
            let count = memory.instanceCount
            sequenceType = urids.map(LV2URI.atom + "Sequence")
            atomOutputs = plugin.ports.filter { $0.kind == .atom && !$0.isInput }
            atomOutputBuffers = memory.buffer(UnsafeMutablePointer<LV2_Atom_Sequence>.self, count * atomOutputs.count)
            let midiPort = plugin.midiInput
            self.midiPort = midiPort
            midiInputs = midiPort == nil ? nil : memory.buffer(UnsafeMutablePointer<LV2_Atom_Sequence>.self, count)
            // Message parameters go where the patch input's sequence is written anyway (the MIDI
            // input's, the position's), else into a sequence of their own.
            properties = plugin.numericProperties
            readable = plugin.numericReadableProperties
            let patchPort = properties.isEmpty && readable.isEmpty ? nil : plugin.patchInput
            self.patchPort = patchPort
            let timePort = format.beatsPerMinute == nil && !format.followsTransport ? nil : plugin.timeInput
            self.timePort = timePort
            let positionInputs = timePort == nil || timePort == midiPort
                ? nil : memory.buffer(UnsafeMutablePointer<LV2_Atom_Sequence>.self, count)
            self.positionInputs = positionInputs
            patchShares = patchPort == nil ? 0 : patchPort == midiPort ? 1 : patchPort == timePort && positionInputs != nil ? 2 : 0
            patchInputs = patchPort == nil || patchShares != 0 ? nil : memory.buffer(UnsafeMutablePointer<LV2_Atom_Sequence>.self, count)
        }

        /// What one instance's connection leaves for its start: its atom outputs' sequences,
        /// in port order, and its patch input's sequence (where chosen files are sent).
        struct Connected {
            var outputs: [UnsafeMutablePointer<LV2_Atom_Sequence>] = []
            var patchSequence: UnsafeMutablePointer<LV2_Atom_Sequence>?
        }

        /// Connects every port of instance `i` (before activation): controls to `values` at
        /// their defaults, audio and CV to the kernel's buffers, atoms to sequences of their own.
        func connect(_ instance: UnsafeMutablePointer<LilvInstance>, number i: Int, values: UnsafeMutablePointer<Float>) -> Connected {
            var connected = Connected()
            var atomIndex = 0
            for port in plugin.ports {
                let at: UnsafeMutableRawPointer?
                switch port.kind {
                case .control:
                    values[Int(port.index)] = Float(port.defaultValue ?? port.minimum ?? 0)
                    at = UnsafeMutableRawPointer(values + Int(port.index))
                case .audio:
                    at = UnsafeMutableRawPointer(audioBuffer(for: port))
                case .cv:
                    at = UnsafeMutableRawPointer(port.isInput ? memory.silence : memory.buffer(Float.self, memory.maxFrames))
                case .atom:
                    let sequence = atomSequence(for: port, instance: i, atomIndex: &atomIndex, patchSequence: &connected.patchSequence)
                    at = UnsafeMutableRawPointer(sequence)
                case .event, .unknown:
                    at = nil
                }
                lilv_instance_connect_port(instance, port.index, at)
            }
            connected.outputs = (0..<atomIndex).map { atomOutputBuffers[i * atomOutputs.count + $0] }
            return connected
        }

        /// Where an audio port connects before the first run: a side-chain input to its folded
        /// buffer, another side-chain port to silence or the discard, a main port to its place
        /// in the kernel's buffers.
        private func audioBuffer(for port: PortDescription) -> UnsafeMutablePointer<Float> {
            if port.isSideChain, port.isInput, let position = plugin.sideChainInputs.firstIndex(where: { $0.index == port.index }) {
                return memory.side(position: position)
            } else if port.isSideChain {
                return port.isInput ? memory.silence : memory.discard
            } else {
                let position = (port.isInput ? plugin.audioInputs : plugin.audioOutputs).firstIndex { $0.index == port.index }
                return memory.audio(input: port.isInput, position: position)
            }
        }

        /// A new sequence for an atom port of instance `i`, recorded where the kernel finds it:
        /// the MIDI input's, the position's or the patch input's table, or the next of the
        /// instance's outputs (`atomIndex` counts them). The plug-in's patch input's sequence
        /// is also handed back in `patchSequence`.
        private func atomSequence(for port: PortDescription, instance i: Int, atomIndex: inout Int,
                                  patchSequence: inout UnsafeMutablePointer<LV2_Atom_Sequence>?)
            -> UnsafeMutablePointer<LV2_Atom_Sequence> {
            let sequence = memory.sequence(capacity: capacity)
            if port.isInput, port == plugin.patchInput { patchSequence = sequence }
            if port.isInput, port == midiPort, let midiInputs {
                // Filled before each run with the cycle's messages.
                KernelMemory.markEmpty(sequence, type: sequenceType)
                midiInputs[i] = sequence
            } else if port.isInput, port == timePort, let positionInputs {
                // Filled before each run: the position when one is due.
                KernelMemory.markEmpty(sequence, type: sequenceType)
                positionInputs[i] = sequence
            } else if port.isInput {
                // A valid empty sequence: nothing happens at any frame (the patch
                // input's holds the message parameters due before each run).
                KernelMemory.markEmpty(sequence, type: sequenceType)
                if port == patchPort, let patchInputs { patchInputs[i] = sequence }
            } else {
                atomOutputBuffers[i * atomOutputs.count + atomIndex] = sequence
                atomIndex += 1
            }
            return sequence
        }

        /// The atom outputs' port indices, in order, in memory the kernel reads.
        func outputPortIndices() -> UnsafeMutablePointer<UInt32> {
            let atomPorts = memory.buffer(UInt32.self, atomOutputs.count)
            for (j, port) in atomOutputs.enumerated() { atomPorts[j] = port.index }
            return atomPorts
        }

        /// Gives `k` the atom outputs (their ports and every instance's sequences), the atom
        /// types it reads and writes, and room for the MIDI output's messages when the plug-in
        /// has one.
        func addOutputs(_ k: inout DetentLV2Kernel, portIndices atomPorts: UnsafeMutablePointer<UInt32>, urids: URIDMap) {
            k.atom_output_count = UInt32(atomOutputs.count)
            k.atom_output_ports = UnsafePointer(atomPorts)
            k.atom_outputs = UnsafePointer(atomOutputBuffers)
            k.atom_capacity = UInt32(capacity)
            k.atom_chunk = urids.map(LV2URI.atom + "Chunk")
            k.atom_sequence_type = sequenceType
            k.midi_event_type = urids.map(LV2URI.midiEvent)
            if let output = plugin.midiOutput, let a = atomOutputs.firstIndex(of: output) {
                k.midi_output = UnsafePointer(atomOutputBuffers[a])
                k.midi_out_events = memory.buffer(DetentMIDIOutEvent.self, PluginInstances.midiOutCapacity)
                k.midi_out_capacity = UInt32(PluginInstances.midiOutCapacity)
                k.midi_out_bytes = memory.buffer(UInt8.self, PluginInstances.midiOutBytes)
                k.midi_out_bytes_capacity = UInt32(PluginInstances.midiOutBytes)
            }
        }

        /// Gives `k` the message parameters the plug-in takes, as rows after the table's
        /// `first` port rows: their keys and types, and what was last sent (nothing yet).
        func addProperties(_ k: inout DetentLV2Kernel, first: Int, urids: URIDMap) {
            guard !properties.isEmpty else { return }
            let keys = memory.buffer(UInt32.self, properties.count), types = memory.buffer(UInt32.self, properties.count)
            for (j, property) in properties.enumerated() {
                keys[j] = urids.map(property.uri)
                types[j] = urids.map(property.range ?? LV2URI.atom + "Float")
            }
            let sent = memory.buffer(Float.self, properties.count)
            sent.update(repeating: .nan, count: properties.count)
            k.property_count = UInt32(properties.count)
            k.property_first = UInt32(first)
            k.property_keys = UnsafePointer(keys)
            k.property_types = UnsafePointer(types)
            k.property_sent = sent
            k.property_due = memory.buffer(UInt8.self, properties.count)
            k.property_values = memory.buffer(Float.self, properties.count)
        }

        /// Gives `k` the message parameters it can ask the plug-in for, unknown until the
        /// first answer, and asks for them.
        func addReadable(_ k: inout DetentLV2Kernel, urids: URIDMap) {
            guard !readable.isEmpty else { return }
            let keys = memory.buffer(UInt32.self, readable.count), values = memory.buffer(Float.self, readable.count)
            for (j, property) in readable.enumerated() { keys[j] = urids.map(property.uri) }
            values.update(repeating: .nan, count: readable.count)
            k.readable_count = UInt32(readable.count)
            k.readable_keys = UnsafePointer(keys)
            k.readable_values = values
            k.readable_get_pending = true
        }

        /// Gives `k` the patch messages both kinds of property travel in, and the atoms they
        /// hold: where they are written, and the URIDs the kernel writes and reads them with.
        func addPatch(_ k: inout DetentLV2Kernel, urids: URIDMap) {
            guard patchPort != nil else { return }
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

        /// Gives `k` the transport's position for a plug-in that reads it: the object (sent
        /// before the first run when the tempo is known; without a starting tempo it waits,
        /// unsent, for the transport's first word) and the sequences it is written into.
        /// After the MIDI input is added, whose sequences the position may share.
        func addPosition(_ k: inout DetentLV2Kernel, beatsPerMinute: Double?, urids: URIDMap) {
            guard let timePort else { return }
            let bytes = PluginInstances.position(beatsPerMinute: beatsPerMinute ?? 120, urids: urids)
            let atom = memory.buffer(UInt8.self, bytes.count)
            atom.initialize(from: bytes, count: bytes.count)
            k.position = UnsafeRawPointer(atom).assumingMemoryBound(to: LV2_Atom.self)
            k.position_pending = beatsPerMinute != nil
            k.position_known = beatsPerMinute != nil
            k.position_shares_midi = timePort == midiPort
            k.position_inputs = positionInputs.map { UnsafePointer($0) } ?? (timePort == midiPort ? k.midi_inputs : nil)
        }
    }
}
