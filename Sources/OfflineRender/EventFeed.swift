import AudioEngine
import Parameters

/// A render's timeline of parameter changes (automation) and MIDI messages (`--midi`), handed
/// to an engine block by block, each at its exact frame whatever the blocks: one way for a
/// render of audio files (``RenderStream``) and a render of MIDI alone (``MIDIRenderer``).
struct EventFeed {
    /// The changes in frame order, and the first not yet queued.
    let changes: [ParameterChange]
    private(set) var nextChange = 0
    /// The MIDI messages at their frames, the next one to play, and how many could not be
    /// given (more than ``notesPerCall`` at one frame).
    let notes: [(frame: Int64, bytes: [UInt8])]
    private(set) var nextNote = 0
    private(set) var droppedNotes = 0
    /// MIDI messages handed over per engine call, well inside a plug-in's list.
    static let notesPerCall = 512

    init(changes: [ParameterChange], notes: [(frame: Int64, bytes: [UInt8])]) {
        self.changes = changes
        self.notes = notes
    }

    /// The most changes at one frame: the engine's queue must hold that many plus one, so
    /// that processing up to a change's frame always frees room for it (see ``render``).
    var mostChangesAtOneFrame: Int {
        var most = 0, run = 0
        for i in changes.indices {
            run = i > 0 && changes[i].frame == changes[i - 1].frame ? run + 1 : 1
            most = max(most, run)
        }
        return most
    }

    /// Processes `frames` interleaved frames of `channels` channels at `block`, in place, the
    /// engine at frame `position`: every change and message of the span at its frame.
    ///
    /// A change is never coalesced: when the engine's queue is full, the audio up to that
    /// change's frame is processed first (which drains the queue), and the change is sent again.
    /// `keys`: the side-chain keys' samples for the same frames, read already.
    /// `endsStream`: the block holds the stream's last frames (``Engine/endStream()`` is said
    /// before the call that processes them).
    mutating func render(_ engine: Engine, block: UnsafeMutablePointer<Float>, channels: Int, position: Int64, frames n: Int,
                         keys: SidechainKeys? = nil, endsStream: Bool = false) {
        var done = 0
        while nextChange < changes.count, changes[nextChange].frame < position + Int64(n) {
            if engine.controls.trySend(changes[nextChange]) {
                nextChange += 1
                continue
            }
            // Everything queued is at or before this change's frame; the queue holds more than
            // the changes of any one frame, so after processing up to it there is room.
            let upTo = Int(changes[nextChange].frame - position)
            precondition(upTo > done, "parameter queue smaller than the changes of one frame")
            process(engine, block: block, channels: channels, position: position, from: done, to: upTo, keys: keys)
            done = upTo
        }
        process(engine, block: block, channels: channels, position: position, from: done, to: n, keys: keys, endsStream: endsStream)
    }

    /// Processes frames `start..<end` of the block, each MIDI message of the span at its
    /// frame: the span is cut where a call would take more than ``notesPerCall`` of them.
    private mutating func process(_ engine: Engine, block: UnsafeMutablePointer<Float>, channels: Int, position: Int64,
                                  from start: Int, to end: Int, keys: SidechainKeys?, endsStream: Bool = false) {
        var from = start
        while from < end {
            var to = end
            if nextNote < notes.count, notes[nextNote].frame < position + Int64(end) {
                engine.beginMIDI()
                var taken = 0
                while nextNote < notes.count, notes[nextNote].frame < position + Int64(end) {
                    let at = max(Int(notes[nextNote].frame - position), from)
                    if taken == Self.notesPerCall {
                        // The rest waits for the next call, from its frame; a frame holding more
                        // than a call's worth drops the excess.
                        if at > from { to = at; break }
                        droppedNotes += 1
                        nextNote += 1
                        continue
                    }
                    notes[nextNote].bytes.withUnsafeBufferPointer { bytes in
                        _ = engine.addMIDI(frame: at - from, bytes: bytes.baseAddress!, size: bytes.count)
                    }
                    taken += 1
                    nextNote += 1
                }
            }
            let at = block + from * channels
            if endsStream && to == end { engine.endStream() }
            if let keys {
                keys.withSides(from: from) { engine.process(interleaved: at, output: at, frames: to - from, sides: $0) }
            } else {
                engine.process(interleaved: at, output: at, frames: to - from)
            }
            from = to
        }
    }
}
