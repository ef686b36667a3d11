import TextFormats
import Parameters
import AudioEngine
/// What a finished render did: for `--json`, and for the warnings printed after it.
public struct RenderSummary: Sendable, Equatable {
    public var input: String
    public var output: String
    public var format: AudioFormat
    public var sampleRate: Int
    public var channels: Int
    public var frames: Int64
    /// Highest absolute sample the engine produced, before conversion to the output format
    /// (above 1 means an integer output clipped).
    public var peak: Float
    /// Samples that did not fit the output encoding and were clipped.
    public var clipped: Int64
    /// Engine blocks whose input held NaN or infinity (rendered as silence).
    public var nonFiniteBlocks: Int64
    /// The hosted plug-in's URI; nil for the built-in engine, whose summary keeps its fields.
    public var plugin: String?
    /// The processor's latency in frames, compensated (0 for none).
    public var latency = 0
    /// Output samples the processor made NaN, infinite or denormal (written as silence).
    public var sanitizedOutputSamples: Int64 = 0
    /// Slots whose plug-in put out absurd samples, by name, with the frames in which each
    /// passed its input through instead.
    public var absurdSlots: [AbsurdSlot] = []
    /// What the processor logged during the render, and its output controls at the end
    /// (a plug-in's meters, by symbol).
    public var processorMessages: [String] = []
    public var processorOutputs: [OutputValue] = []
    /// Automation events applied, and those after the end of the input (not applied).
    public var automationEvents: Int
    public var eventsAfterEnd: Int
    /// MIDI messages played from `--midi` (nil without one).
    public var midiEvents: Int?
    /// MIDI messages of `--midi` that could not be played (``EventFeed/droppedNotes``).
    public var midiDropped = 0
    /// What went to `--midi-out` (nil without it).
    public var midiOutput: MIDIOutputSummary?
    /// What of the input's metadata the output kept (`title`, …, `bext`, `cue`, `instrument`),
    /// and what its container had no place for.
    public var metadata: [String] = []
    public var metadataLost: [String] = []
    /// The dither the output got (`none` for rounding alone); nil where none applies (float,
    /// 24 bits and more, lossy codecs).
    public var dither: Dither?
    /// The encoder settings the output was written with (what was asked; libsndfile's
    /// defaults otherwise).
    public var encoder = EncoderSettings()
    /// Wall-clock time of the render.
    public var seconds: Double
    /// Output settings that did not apply as asked (`--dither shaped` on a float output),
    /// one line each, naming the file.
    public var notes: [String] = []
    /// The output's integrated loudness in LUFS (``LoudnessMeter``); nil for silence (every
    /// 400 ms block below −70 LUFS).
    public var loudness: Double?
    /// The output's highest true peak as a linear amplitude (1 = 0 dBTP); nil when not measured.
    public var truePeak: Double?
    /// `--normalize`'s target (LUFS) and the gain it applied (dB: 0 for a silent input); nil without it.
    public var normalizeTarget: Double?
    public var normalizeGain: Double?
    /// `--normalize` found nothing above the −70 LUFS gate, so it applied no gain.
    public var normalizedSilence = false

    /// The audio's length in seconds.
    public var duration: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }

    /// Things the user should know about an otherwise successful render, one line each.
    public var warnings: [String] {
        var lines: [String] = []
        // One line per problem: samples clipped are an over too, and say so with its true peak.
        let over = truePeak.map { $0 > 1 ? Self.decibels(Float($0)) + " dBTP" : nil } ?? nil
        let lower = normalizeTarget == nil ? "lower the gain" : "lower the gain or the --normalize target"
        if clipped > 0 {
            let samples = "\(clipped) \(clipped == 1 ? "sample" : "samples")"
            lines.append("\(output): \(samples) clipped (peak \(Self.decibels(peak)) dBFS\(over.map { ", true peak " + $0 } ?? "")); \(lower)")
        } else if let over {
            lines.append("\(output): true peak \(over) (over 0 dBTP); \(lower)")
        }
        if normalizedSilence {
            lines.append("\(input): silent (no sound above the -70 LUFS gate); --normalize applied no gain")
        }
        if nonFiniteBlocks > 0 {
            let blocks = nonFiniteBlocks == 1 ? "1 block" : "\(nonFiniteBlocks) blocks"
            lines.append("\(input): NaN or infinite samples (in \(blocks)) were rendered as silence")
        }
        for absurd in absurdSlots {
            lines.append("\(output): slot \(absurd.slot) put out NaN, infinity or samples beyond ±1e6 in \(absurd.frames) frames; it passed its input through for them")
        }
        if sanitizedOutputSamples > 0 && absurdSlots.isEmpty {
            let samples = sanitizedOutputSamples == 1 ? "1 sample" : "\(sanitizedOutputSamples) samples"
            lines.append("\(output): the processor put out \(samples) of denormals; written as silence")
        }
        if !metadataLost.isEmpty {
            lines.append("\(output): the input's \(metadataLost.joined(separator: ", ")) cannot go into this output; not copied")
        }
        lines += processorMessages
        if let dropped = EventFeed.droppedWarning(midiDropped, source: input) { lines.append(dropped) }
        lines += midiOutput?.warnings ?? []
        lines += notes
        if eventsAfterEnd > 0 {
            let events = eventsAfterEnd == 1 ? "1 automation event falls" : "\(eventsAfterEnd) automation events fall"
            lines.append("\(input): \(events) after its end and \(eventsAfterEnd == 1 ? "was" : "were") not applied")
        }
        return lines
    }

    /// One JSON object on one line.
    public var jsonLine: String { jsonValue.compactText }

    /// The summary as a JSON object, fields in a fixed order.
    public var jsonValue: JSONValue {
        .object([
            JSONMember("input", .string(input)),
            JSONMember("output", .string(output)),
            JSONMember("format", .string(format.containerName)),
            JSONMember("subtype", .string(format.subtypeName)),
            JSONMember("sampleRate", .number(sampleRate)),
            JSONMember("channels", .number(channels)),
            JSONMember("frames", .number(frames)),
            JSONMember("duration", .number(duration, places: 6)),
            JSONMember("peak", .number(Double(peak), places: 6)),
            JSONMember("peakDBFS", peak > 0 ? .number(20 * _log10(Double(peak)), places: 2) : .null),
            JSONMember("truePeak", truePeak.flatMap { $0 > 0 ? .number(20 * _log10($0), places: 2) : nil } ?? .null),
            JSONMember("loudness", loudness.map { .number($0, places: 2) } ?? .null),
            JSONMember("normalizeGain", normalizeGain.map { .number($0, places: 2) } ?? .null),
            JSONMember("clipped", .number(clipped)),
            JSONMember("nonFiniteBlocks", .number(nonFiniteBlocks)),
            JSONMember("automationEvents", .number(automationEvents)),
            JSONMember("eventsAfterEnd", .number(eventsAfterEnd)),
            JSONMember("midiEvents", midiEvents.map { .number($0) } ?? .null),
            JSONMember("midiDropped", .number(midiDropped)),
            JSONMember("metadata", .array(metadata.map { .string($0) })),
            JSONMember("metadataLost", .array(metadataLost.map { .string($0) })),
            JSONMember("dither", dither.map { .string($0.rawValue) } ?? .null),
            JSONMember("quality", encoder.quality.map { .number($0) } ?? .null),
            JSONMember("bitrate", encoder.bitrate.map { .number($0) } ?? .null),
            JSONMember("compression", encoder.compression.map { .number($0) } ?? .null),
            JSONMember("seconds", .number(seconds, places: 3)),
            JSONMember("speed", seconds > 0 ? .number(duration / seconds, places: 1) : .null),
        ] + (plugin.map { uri in [
            JSONMember("plugin", .string(uri)),
            JSONMember("latency", .number(latency)),
            JSONMember("sanitizedOutputSamples", .number(sanitizedOutputSamples)),
            JSONMember("absurdOutput", .object(absurdSlots.map { JSONMember($0.slot, .number($0.frames)) })),
            JSONMember("outputs", .object(processorOutputs.map { JSONMember($0.id, .number($0.value)) })),
        ] } ?? []) + (midiOutput.map { [JSONMember("midiOut", $0.jsonValue)] } ?? []))
    }

    /// `+1.2` / `-0.3`, for messages.
    static func decibels(_ amplitude: Float) -> String {
        let db = (20 * _log10(Double(amplitude)) * 10).rounded() / 10
        return (db > 0 ? "+" : "") + "\(db)"
    }
}

#if canImport(Glibc)
import Glibc
@inline(__always) func _log10(_ x: Double) -> Double { Glibc.log10(x) }
#endif

/// A slot whose plug-in put out absurd samples, and the frames it passed its input through
/// for them.
public struct AbsurdSlot: Sendable, Equatable {
    public var slot: String
    public var frames: Int64

    public init(slot: String, frames: Int64) {
        self.slot = slot
        self.frames = frames
    }
}
