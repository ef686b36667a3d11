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
                     urids: URIDMap, settleFrames: UInt32) {
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
            runBeforeAudio(instance, record: record, outputs: outputs, capacity: capacity, chunk: chunk, frames: 0)
        }
        input.pointee.atom.size = UInt32(MemoryLayout<LV2_Atom_Sequence_Body>.size)
        input.pointee.atom.type = sequenceType
        settle(instance, record: record, outputs: outputs, capacity: capacity, chunk: chunk, frames: settleFrames)
    }

    /// Runs the instance on silence (its audio ports are on the kernel's buffers, silent until
    /// the first block) in runs of the nominal block length while its worker is busy, at most
    /// 16 runs: LSP's plug-ins take a file over their first two runs with frames (the message,
    /// then their loader's second stage), so without this a render's first 8,192 frames went
    /// through with no impulse response. A plug-in that does nothing with its worker is run
    /// once. `frames` 0 runs none: a plug-in that runs in whole blocks (convoLV2, which takes its
    /// file at once) then starts as a render restoring the same file from a state does.
    static func settle(_ instance: UnsafeMutablePointer<LilvInstance>, record: UnsafeMutablePointer<DetentLV2Instance>,
                       outputs: [UnsafeMutablePointer<LV2_Atom_Sequence>], capacity: Int, chunk: LV2_URID, frames: UInt32) {
        guard record.pointee.worker != nil, frames > 0 else { return }
        for _ in 0..<16 {
            let before = record.pointee.work_done
            runBeforeAudio(instance, record: record, outputs: outputs, capacity: capacity, chunk: chunk, frames: frames)
            if record.pointee.work_done == before { return }
        }
    }

    /// One `run` before the audio starts, off the audio thread: the atom outputs get their
    /// capacity to write into, the worker's work is done there and then (even for a live
    /// engine, whose worker thread does not exist yet), and its answers are delivered after.
    static func runBeforeAudio(_ instance: UnsafeMutablePointer<LilvInstance>, record: UnsafeMutablePointer<DetentLV2Instance>,
                               outputs: [UnsafeMutablePointer<LV2_Atom_Sequence>], capacity: Int, chunk: LV2_URID,
                               frames: UInt32) {
        for output in outputs {
            output.pointee.atom.size = UInt32(capacity)
            output.pointee.atom.type = chunk
        }
        let threaded = record.pointee.threaded
        record.pointee.threaded = 0
        lilv_instance_run(instance, frames)
        detent_lv2_deliver(record)
        record.pointee.threaded = threaded
    }
}
