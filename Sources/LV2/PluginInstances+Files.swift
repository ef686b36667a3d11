import CLilv
import CPluginKernel
import Parameters

extension PluginInstances {
    /// Loads the chosen files of an instance's file parameters before it first runs, off the
    /// audio thread: one `patch:Set` per file in its control input, a `run` of no frames that
    /// reads them, and the worker's work done there and then (even for a live engine, whose
    /// worker thread does not exist yet), its answers delivered after that run. So the plug-in
    /// holds its files from the first frame, and a render is the same every time.
    ///
    /// The control input is left an empty sequence again; a plug-in's atom outputs get their
    /// capacity to write into, as before every `run`.
    static func load(_ files: [FileParameter], into instance: UnsafeMutablePointer<LilvInstance>,
                     record: UnsafeMutablePointer<DetentLV2Instance>, input: UnsafeMutablePointer<LV2_Atom_Sequence>,
                     outputs: [UnsafeMutablePointer<LV2_Atom_Sequence>], capacity: Int, sequenceType: LV2_URID,
                     urids: URIDMap) {
        let messages = files.compactMap { file in
            file.path.map { PatchMessage.setPath(property: file.identifier, path: $0, urids: urids) }
        }
        guard !messages.isEmpty else { return }
        let chunk = urids.map(LV2URI.atom + "Chunk")
        // One message per run, so a plug-in that takes only the first of a cycle loads each.
        for message in messages {
            let body = PatchMessage.sequenceBody([message])
            guard body.count <= capacity else { continue }
            let raw = UnsafeMutableRawPointer(input)
            (raw + 8).copyMemory(from: body, byteCount: body.count)
            input.pointee.atom.size = UInt32(body.count)
            input.pointee.atom.type = sequenceType
            for output in outputs {
                output.pointee.atom.size = UInt32(capacity)
                output.pointee.atom.type = chunk
            }
            let threaded = record.pointee.threaded
            record.pointee.threaded = 0
            lilv_instance_run(instance, 0)
            detent_lv2_deliver(record)
            record.pointee.threaded = threaded
        }
        input.pointee.atom.size = UInt32(MemoryLayout<LV2_Atom_Sequence_Body>.size)
        input.pointee.atom.type = sequenceType
    }
}
