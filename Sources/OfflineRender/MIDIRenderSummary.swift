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
    public var output: MIDIOutputSummary
    /// What the processor logged.
    public var processorMessages: [String]
    /// Wall-clock time of the render.
    public var seconds: Double

    public var warnings: [String] { processorMessages + output.warnings }

    public var jsonValue: JSONValue {
        .object([
            JSONMember("input", input.map { .string($0) } ?? .null),
            JSONMember("plugin", .string(plugin)),
            JSONMember("sampleRate", .number(sampleRate)),
            JSONMember("frames", .number(frames)),
            JSONMember("duration", .number(Double(frames) / Double(sampleRate), places: 6)),
            JSONMember("midiEvents", .number(midiEvents)),
            JSONMember("automationEvents", .number(automationEvents)),
            JSONMember("midiOut", output.jsonValue),
            JSONMember("seconds", .number(seconds, places: 3)),
        ])
    }
}
