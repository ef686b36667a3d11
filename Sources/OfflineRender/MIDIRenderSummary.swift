import TextFormats
import Parameters

/// What a render from a MIDI file to a MIDI file did (``MIDIRenderer``): for `--json`, and
/// the warnings printed after it.
public struct MIDIRenderSummary: Sendable, Equatable {
    /// The MIDI file played (`--midi`).
    public var input: String?
    public var plugin: String
    public var sampleRate: Int
    /// The render's length in frames: the MIDI file's, plus the tail.
    public var frames: Int64
    /// MIDI messages played, and automation events applied.
    public var midiEvents: Int
    public var automationEvents: Int
    /// MIDI messages that could not be played (``EventFeed/droppedNotes``).
    public var midiDropped = 0
    public var output: MIDIOutputSummary
    /// What the processor logged.
    public var processorMessages: [String]
    /// Wall-clock time of the render.
    public var seconds: Double

    public var warnings: [String] {
        processorMessages + [EventFeed.droppedWarning(midiDropped, source: input ?? "--midi")].compactMap { $0 } + output.warnings
    }

    public var jsonValue: JSONValue {
        .object([
            JSONMember("input", input.map { .string($0) } ?? .null),
            JSONMember("plugin", .string(plugin)),
            JSONMember("sampleRate", .number(sampleRate)),
            JSONMember("frames", .number(frames)),
            JSONMember("duration", .number(Double(frames) / Double(sampleRate), places: 6)),
            JSONMember("midiEvents", .number(midiEvents)),
            JSONMember("midiDropped", .number(midiDropped)),
            JSONMember("automationEvents", .number(automationEvents)),
            JSONMember("midiOut", output.jsonValue),
            JSONMember("seconds", .number(seconds, places: 3)),
        ])
    }
}
