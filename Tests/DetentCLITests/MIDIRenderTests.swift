import OfflineRender
import Foundation
import Testing
import TestSupport

/// `render --midi FILE`: a Standard MIDI File plays an instrument offline, each message at its
/// exact frame, whatever blocks the file is read in; the output lasts as long as the notes.
@Suite("detent: render --midi")
struct MIDIRenderTests {
    static let synth = "http://drobilla.net/plugins/mda/DX10"

    /// A format-0 file at 480 ticks per quarter and 120 bpm (a tick is 1/960 s): each event
    /// (delta ticks, bytes) in turn, then the end of the track.
    static func midiFile(_ events: [(Int, [UInt8])]) -> [UInt8] {
        func vlq(_ value: Int) -> [UInt8] {
            var bytes = [UInt8(value & 0x7F)]
            var v = value >> 7
            while v > 0 { bytes.insert(UInt8(v & 0x7F) | 0x80, at: 0); v >>= 7 }
            return bytes
        }
        var track: [UInt8] = [0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20]  // 500000 µs per quarter
        for (delta, bytes) in events { track += vlq(delta) + bytes }
        track += [0x00, 0xFF, 0x2F, 0x00]
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return Array("MThd".utf8) + be32(6) + [0, 0, 0, 1, 0x01, 0xE0] + Array("MTrk".utf8) + be32(track.count) + track
    }

    func silence(_ folder: TemporaryFolder, seconds: Double) throws -> String {
        let path = folder.file("silence.wav")
        try tool("sox", ["-n", "-r", "48000", "-c", "2", "-b", "32", "-e", "floating-point", path, "trim", "0", "\(seconds)"], in: folder)
        return path
    }

    @Test("a note plays at its exact frame, for any read blocks; the output lasts as long as the MIDI file")
    func noteAtItsFrame() throws {
        let folder = TemporaryFolder()
        // Note on at 480 ticks (0.5 s = frame 24000), off 480 ticks later; then a controller
        // 1440 ticks later, which ends the file at 2.5 s — longer than the 1 s input. It falls
        // on the frame after the last (120000), so two of the three messages play.
        try Data(Self.midiFile([(480, [0x90, 60, 100]), (480, [0x80, 60, 0]), (1440, [0xB0, 64, 0])]))
            .write(to: URL(fileURLWithPath: folder.file("note.mid")))
        let input = try silence(folder, seconds: 1)
        var outputs: [[Float]] = []
        for block in ["1000", "16384"] {
            let outcome = try Detent.run(["render", input, "--plugin", Self.synth, "--midi", "note.mid", "--block-frames", block,
                                          "-o", "out\(block).wav", "--subtype", "float", "--json", "--quiet"], in: folder.path)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdout.contains("\"midiEvents\":2"), "\(outcome.stdout)")
            outputs.append(try decode(folder.file("out\(block).wav")).samples)
        }
        #expect(outputs[0] == outputs[1])
        let left = stride(from: 0, to: outputs[0].count, by: 2).map { outputs[0][$0] }
        #expect(left.count == 120_000)
        let first = try #require(left.firstIndex { $0 != 0 })
        #expect((24_000..<24_016).contains(first), "the note starts at frame \(first)")
        #expect(left[24_000..<48_000].map(abs).max()! > 0.01)
    }

    @Test("an instrument renders from MIDI alone: as long as the file and the tail, as a silent input of that length renders it")
    func instrumentFromMIDIAlone() throws {
        let folder = TemporaryFolder()
        // Note on at 0.5 s, off at 1 s, where the file ends; a 0.5 s tail: 1.5 s in all.
        try Data(Self.midiFile([(480, [0x90, 60, 100]), (480, [0x80, 60, 0])]))
            .write(to: URL(fileURLWithPath: folder.file("note.mid")))
        let alone = try Detent.run(["render", "--plugin", Self.synth, "--midi", "note.mid", "--tail", "0.5", "-o", "alone.wav",
                                    "--subtype", "float", "--json"], in: folder.path)
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(alone.stdout.contains("\"frames\":72000") && alone.stdout.contains("\"midiEvents\":2"), "\(alone.stdout)")
        #expect(!alone.stderr.contains("warning"), "\(alone.stderr)")
        let input = try silence(folder, seconds: 1.5)
        let withInput = try Detent.run(["render", input, "--plugin", Self.synth, "--midi", "note.mid", "-o", "input.wav",
                                        "--subtype", "float"], in: folder.path)
        #expect(withInput.status == 0, "\(withInput.stderr)")
        let samples = try decode(folder.file("alone.wav")).samples
        #expect(samples == (try decode(folder.file("input.wav")).samples))
        #expect(samples.map(abs).max()! > 0.01)

        let mono = try Detent.run(["render", "--plugin", Self.synth, "--midi", "note.mid", "-o", "mono.flac", "--rate", "44100",
                                   "--channels", "1", "--json"], in: folder.path)
        #expect(mono.status == 0, "\(mono.stderr)")
        #expect(mono.stdout.contains("\"sampleRate\":44100") && mono.stdout.contains("\"channels\":1")
            && mono.stdout.contains("\"frames\":44100") && mono.stdout.contains("\"format\":\"flac\""), "\(mono.stdout)")

        for (arguments, words) in [
            (["render", "--plugin", Self.synth, "--midi", "note.mid"], "name its output with -o"),
            (["render", input, "--plugin", Self.synth, "--midi", "note.mid", "--rate", "44100", "-o", "x.wav"], "--rate is for an instrument"),
            (["render", "--plugin", Self.synth, "--midi", "note.mid", "-o", "x.wav", "--channels", "0"], "--channels 0"),
        ] {
            let refused = try Detent.run(arguments, in: folder.path)
            #expect(refused.status == 64 && refused.stderr.contains(words), "\(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.wav")))
    }

    @Test("a VST2 instrument renders a note from MIDI alone: silent before the note, sounding after it", arguments: [
        "vst2:amsynth", "vst2:ZynAddSubFX",
    ])
    func binaryInstrumentFromMIDIAlone(plugin: String) throws {
        let folder = TemporaryFolder()
        // Note on at 0.5 s, off at 1 s; a 0.5 s tail.
        try Data(Self.midiFile([(480, [0x90, 60, 100]), (480, [0x80, 60, 0])]))
            .write(to: URL(fileURLWithPath: folder.file("note.mid")))
        let outcome = try Detent.run(["render", "--plugin", plugin, "--midi", "note.mid", "--tail", "0.5", "-o", "out.wav",
                                      "--subtype", "float", "--json"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("\"frames\":72000") && outcome.stdout.contains("\"midiEvents\":2"), "\(outcome.stdout)")
        let channel = try decode(folder.file("out.wav")).samples
        let before = channel.prefix(2 * 23_000).map(abs).max() ?? 0, after = channel.dropFirst(2 * 25_000).map(abs).max() ?? 0
        #expect(before < 1e-4 && after > 0.01, "before the note \(before), after \(after)")
    }

    @Test("a bad MIDI file or one for a processor that takes no MIDI is one line, and nothing is written", arguments: [
        ("garbage", ["--plugin", synth], Int32(65), "not a Standard MIDI File"),
        ("truncated", ["--plugin", synth], 65, "truncated"),
        ("good", [], 64, "takes no MIDI"),
        ("missing", ["--plugin", synth], 65, "missing.mid"),
    ] as [(String, [String], Int32, String)])
    func badMIDI(kind: String, plugin: [String], status: Int32, message: String) throws {
        let folder = TemporaryFolder()
        let good = Self.midiFile([(0, [0x90, 60, 100]), (480, [0x80, 60, 0])])
        switch kind {
        case "garbage": try Data("not midi at all".utf8).write(to: URL(fileURLWithPath: folder.file("x.mid")))
        case "truncated": try Data(good.dropLast(6)).write(to: URL(fileURLWithPath: folder.file("x.mid")))
        case "good": try Data(good).write(to: URL(fileURLWithPath: folder.file("x.mid")))
        default: break
        }
        let input = try silence(folder, seconds: 0.5)
        let file = kind == "missing" ? "missing.mid" : "x.mid"
        let outcome = try Detent.run(["render", input, "--midi", file, "-o", "out.wav"] + plugin, in: folder.path)
        #expect(outcome.status == status)
        #expect(outcome.stderr.split(separator: "\n").count == 1 && outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }
}
