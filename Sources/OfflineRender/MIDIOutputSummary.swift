import TextFormats
import Parameters

/// What a render wrote to its MIDI output file (`--midi-out`): for `--json`, and a warning
/// when messages were lost.
public struct MIDIOutputSummary: Sendable, Equatable {
    public var path: String
    /// Messages written.
    public var messages: Int
    /// Messages a Standard MIDI File cannot hold (real-time and other system messages) or
    /// malformed ones, left out.
    public var skipped: Int
    /// Messages the processor wrote faster than they could be taken (its list was full), lost.
    public var dropped: Int

    public init(path: String, messages: Int, skipped: Int, dropped: Int) {
        self.path = path
        self.messages = messages
        self.skipped = skipped
        self.dropped = dropped
    }

    public var jsonValue: JSONValue {
        .object([
            JSONMember("path", .string(path)),
            JSONMember("messages", .number(messages)),
            JSONMember("skipped", .number(skipped)),
            JSONMember("dropped", .number(dropped)),
        ])
    }

    public var warnings: [String] {
        var lines: [String] = []
        if skipped > 0 {
            lines.append("\(path): \(skipped) MIDI \(skipped == 1 ? "message" : "messages") a MIDI file cannot hold (system real-time or malformed) left out")
        }
        if dropped > 0 {
            lines.append("\(path): \(dropped) MIDI \(dropped == 1 ? "message" : "messages") of the processor's output lost (more than a block holds)")
        }
        return lines
    }
}
