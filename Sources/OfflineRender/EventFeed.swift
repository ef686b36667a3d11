import AudioEngine
import Parameters

/// The one loop that drives an engine through a signal: a timeline of parameter changes
/// (automation) and MIDI messages, handed over block by block, each at its exact frame
/// whatever the blocks. Every caller that renders a signal goes through it — a render of
/// audio files (``RenderStream``), of MIDI alone (``MIDIRenderer``), and a caller's buffers
/// (Python's chains) — so a change, a message and an overflow are handled one way in all.
///
/// Where the samples are is the caller's: each span is processed by a closure it gives
/// (``render(_:position:frames:endsStream:process:)``), which calls the engine on its own
/// buffers (an interleaved block in place, or tables of channel rows, with side chains).
package final class EventFeed {
    /// The changes in frame order, and the first not yet queued (those queued are let go
    /// when more are added; ``changesTaken`` counts them all).
    package private(set) var changes: [ParameterChange]
    private var nextChangeInList = 0
    private var changesGone = 0
    /// Changes queued so far.
    package var nextChange: Int { changesGone + nextChangeInList }
    /// The MIDI messages at their frames, in order (those handed over are let go when more
    /// are added), and how many could not be given (more than ``notesPerCall`` at one frame).
    package private(set) var notes: [(frame: Int64, bytes: [UInt8])]
    private var nextNote = 0
    /// Messages handed over before the ones still in `notes`.
    private var notesGone = 0
    package private(set) var droppedNotes = 0
    /// MIDI messages handed over per engine call, well inside a plug-in's list.
    package static let notesPerCall = 512

    package init(changes: [ParameterChange] = [], notes: [(frame: Int64, bytes: [UInt8])] = []) {
        self.changes = changes
        self.notes = notes
    }

    /// Messages handed to the engine (or dropped) so far.
    package var notesTaken: Int { notesGone + nextNote }
    /// Messages the engine played: handed over and not dropped.
    package var notesPlayed: Int { notesTaken - droppedNotes }

    /// What a render says when messages of `source` were dropped (nil: none were).
    package static func droppedWarning(_ dropped: Int, source: String) -> String? {
        guard dropped > 0 else { return nil }
        return "\(source): \(dropped) MIDI \(dropped == 1 ? "message" : "messages") dropped (more than \(notesPerCall) at one frame, or more than the plug-in's list holds)"
    }

    /// Adds messages after those given before (their frames on the same timeline, in order,
    /// none before the last one given): a caller that hands its signal over in parts gives
    /// each part's messages with it.
    package func add(notes more: [(frame: Int64, bytes: [UInt8])]) {
        guard !more.isEmpty else { return }
        if nextNote > 0 {
            notes.removeFirst(nextNote)
            notesGone += nextNote
            nextNote = 0
        }
        notes += more
    }

    /// Adds changes on the same timeline (a caller's automation for its next part): merged
    /// with those still pending by frame, the ones given before first at a frame.
    package func add(changes more: [ParameterChange]) {
        guard !more.isEmpty else { return }
        let pending = changes[nextChangeInList...]
        changesGone += nextChangeInList
        nextChangeInList = 0
        changes = (Array(pending) + more).enumerated()
            .sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
    }

    /// Forgets the messages and changes not yet handed over (a signal that starts afresh).
    package func dropPending() {
        notesGone += nextNote
        notes.removeAll()
        nextNote = 0
        changesGone += nextChangeInList
        changes.removeAll()
        nextChangeInList = 0
    }

    /// The most changes at one frame: the engine's queue must hold that many plus one, so
    /// that processing up to a change's frame always frees room for it (see ``render``).
    package var mostChangesAtOneFrame: Int {
        var most = 0, run = 0
        for i in changes.indices {
            run = i > 0 && changes[i].frame == changes[i - 1].frame ? run + 1 : 1
            most = max(most, run)
        }
        return most
    }

    /// Renders `frames` frames, the engine at frame `position`: every change and message of
    /// the span at its frame. `process(from, to)` runs the engine over frames `from..<to` of
    /// the caller's block (the messages for them given already).
    ///
    /// A change is never coalesced: when the engine's queue is full, the audio up to that
    /// change's frame is processed first (which drains the queue), and the change is sent again.
    /// `endsStream`: the block holds the stream's last frames (``Engine/endStream()`` is said
    /// before the call that processes them).
    package func render(_ engine: Engine, position: Int64, frames n: Int, endsStream: Bool = false,
                        process: (_ from: Int, _ to: Int) -> Void) {
        var done = 0
        while nextChangeInList < changes.count, changes[nextChangeInList].frame < position + Int64(n) {
            if engine.controls.trySend(changes[nextChangeInList]) {
                nextChangeInList += 1
                continue
            }
            // Everything queued is at or before this change's frame; the queue holds more than
            // the changes of any one frame, so after processing up to it there is room.
            let upTo = Int(changes[nextChangeInList].frame - position)
            precondition(upTo > done, "parameter queue smaller than the changes of one frame")
            span(engine, position: position, from: done, to: upTo, process: process)
            done = upTo
        }
        span(engine, position: position, from: done, to: n, endsStream: endsStream, process: process)
    }

    /// Renders `frames` interleaved frames of `channels` channels at `block`, in place, with
    /// `keys`' samples for the same frames (read already).
    func render(_ engine: Engine, block: UnsafeMutablePointer<Float>, channels: Int, position: Int64, frames n: Int,
                        keys: SidechainKeys? = nil, endsStream: Bool = false) {
        render(engine, position: position, frames: n, endsStream: endsStream) { from, to in
            let at = block + from * channels
            if let keys {
                keys.withSides(from: from) { engine.process(interleaved: at, output: at, frames: to - from, sides: $0) }
            } else {
                engine.process(interleaved: at, output: at, frames: to - from)
            }
        }
    }

    /// Frames `start..<end` of the block, each MIDI message of the span at its frame: the
    /// span is cut where a call would take more than ``notesPerCall`` of them.
    private func span(_ engine: Engine, position: Int64, from start: Int, to end: Int, endsStream: Bool = false,
                      process: (_ from: Int, _ to: Int) -> Void) {
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
                    let added = notes[nextNote].bytes.withUnsafeBufferPointer { bytes in
                        engine.addMIDI(frame: at - from, bytes: bytes.baseAddress!, size: bytes.count)
                    }
                    // A plug-in whose own list is full (a long SysEx) loses the message: counted.
                    if !added && engine.acceptsMIDI { droppedNotes += 1 }
                    taken += 1
                    nextNote += 1
                }
            }
            if endsStream && to == end { engine.endStream() }
            process(from, to)
            from = to
        }
    }
}
