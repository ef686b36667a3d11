import Foundation
import Testing
import TestSupport

/// `render --midi-out FILE`: a plug-in's MIDI output becomes a Standard MIDI File, read back
/// here by midicsv; MIDI-only plug-ins (x42's MIDI filters) render from a MIDI file to a MIDI
/// file with no audio file on either side.
@Suite("detent: render --midi-out")
struct MIDIOutTests {
    static let filters = "http://gareus.org/oss/lv2/midifilter#"

    /// Notes at 480 ticks a quarter, 120 bpm: 60 at 0.5 s for 0.5 s, 64 on channel 2 at 1.25 s,
    /// its note-off ending the file at 1.5 s.
    static let song = MIDIRenderTests.midiFile([
        (480, [0x90, 60, 100]), (480, [0x80, 60, 0]), (240, [0x91, 64, 90]), (240, [0x81, 64, 0]),
    ])

    /// The channel events of a MIDI file as midicsv prints them: (tick, kind, channel, key, value).
    func events(_ path: String, in folder: TemporaryFolder) throws -> (division: Int, tempo: Int?, events: [(Int, String, Int, Int, Int)]) {
        let text = try tool("midicsv", [path], in: folder).stdoutText
        var division = 0, tempo: Int?
        var found: [(Int, String, Int, Int, Int)] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            if fields[2] == "Header" { division = Int(fields[5])! }
            if fields[2] == "Tempo" { tempo = Int(fields[3])! }
            if fields[2].hasSuffix("_c"), fields.count >= 6 {
                found.append((Int(fields[1])!, fields[2], Int(fields[3])!, Int(fields[4])!, Int(fields[5])!))
            }
        }
        return (division, tempo, found)
    }

    @Test("MIDI Chromatic Transpose turns a MIDI file into one whose notes are 5 semitones up, at the same times")
    func transpose() throws {
        let folder = TemporaryFolder()
        try Data(Self.song).write(to: URL(fileURLWithPath: folder.file("in.mid")))
        let outcome = try Detent.run(["render", "--plugin", Self.filters + "miditranspose", "--set", "transpose=5",
                                      "--midi", "in.mid", "--midi-out", "out.mid", "--json"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("\"midiEvents\":4") && outcome.stdout.contains("\"messages\":4"), "\(outcome.stdout)")
        let read = try events("out.mid", in: folder)
        #expect(read.division == 960 && read.tempo == 500_000)
        // Ticks at 960 a quarter: twice the input's.
        let expected: [(Int, String, Int, Int, Int)] = [
            (960, "Note_on_c", 0, 65, 100), (1920, "Note_off_c", 0, 65, 0), (2400, "Note_on_c", 1, 69, 90), (2880, "Note_off_c", 1, 69, 0),
        ]
        #expect(read.events.map { "\($0)" } == expected.map { "\($0)" })
        #expect(try folderContents(folder.path).filter { !$0.hasPrefix(".config") && !$0.hasPrefix(".cache") } == ["in.mid", "out.mid"])
    }

    @Test("MIDI Delay follows --bpm: one beat later at 90 bpm, each note on the tick nearest its frame")
    func delayFollowsTempo() throws {
        let folder = TemporaryFolder()
        try Data(Self.song).write(to: URL(fileURLWithPath: folder.file("in.mid")))
        let outcome = try Detent.run(["render", "--plugin", Self.filters + "mididelay", "--set", "delayBeats=1",
                                      "--midi", "in.mid", "--midi-out", "out.mid", "--bpm", "90", "--tail", "1"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let read = try events("out.mid", in: folder)
        #expect(read.tempo == 666_667)
        // At 90 bpm a second is 1440 ticks, and the delay one quarter note (960 ticks): the
        // note at 0.5 s comes out at 720 + 960.
        #expect(read.events.map { $0.0 } == [1680, 2400, 2760, 3120], "\(read.events)")
        #expect(read.events.map { $0.3 } == [60, 60, 64, 64])
    }

    @Test("rendering audio, a chain's MIDI output goes to --midi-out beside the audio output")
    func besideAudio() throws {
        let folder = TemporaryFolder()
        try Data(Self.song).write(to: URL(fileURLWithPath: folder.file("in.mid")))
        try tool("sox", ["-n", "-r", "48000", "-c", "1", "-b", "32", "-e", "floating-point", folder.file("silence.wav"),
                         "trim", "0", "2"], in: folder)
        let outcome = try Detent.run(["render", "silence.wav", "--plugin", "t=" + Self.filters + "miditranspose",
                                      "--plugin", "synth=" + MIDIRenderTests.synth, "--set", "t.transpose=7", "--midi", "in.mid",
                                      "--midi-out", "out.mid", "-o", "out.wav", "--json", "--quiet"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("\"midiOut\":{\"path\":\"out.mid\",\"messages\":4"), "\(outcome.stdout)")
        let read = try events("out.mid", in: folder)
        #expect(read.events.map { $0.0 } == [960, 1920, 2400, 2880] && read.events.map { $0.3 } == [67, 67, 71, 71], "\(read.events)")
        #expect(try decode(folder.file("out.wav")).samples.map(abs).max()! > 0.01, "the synth plays")
    }

    @Test("MIDI-only plug-ins are listed as hostable, MIDI only")
    func listedOffline() throws {
        let folder = TemporaryFolder()
        let listing = try Detent.run(["plugins", "--json", "Chromatic Transpose"], in: folder.path)
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(listing.stdout.contains("\"hostable\":true") && listing.stdout.contains("\"midiOnly\":true"), "\(listing.stdout)")
        let table = try Detent.run(["plugins", "Chromatic Transpose"], in: folder.path)
        #expect(table.stdout.contains("yes (MIDI only)"), "\(table.stdout)")
    }

    @Test("a bad --midi-out is one line and nothing is written", arguments: [
        (["--midi-out", "exists.mid"], Int32(64), "exists"),
        (["--midi-out", "gone/out.mid"], 74, "gone"),
        (["--midi-out", "out.mid", "--plugin", "http://drobilla.net/plugins/mda/DX10"], 64, "no MIDI output"),
        (["--midi-out", "out.mid", "in.wav"], 64, "only MIDI in and out"),
        (["--midi-out", "out.mid", "-o", "x.wav"], 64, "--midi-out"),
        (["--midi-out", "out.mid", "--tail", "auto"], 64, "--tail auto"),
    ] as [([String], Int32, String)])
    func badOutput(arguments: [String], status: Int32, message: String) throws {
        let folder = TemporaryFolder()
        try Data(Self.song).write(to: URL(fileURLWithPath: folder.file("in.mid")))
        try Data("keep".utf8).write(to: URL(fileURLWithPath: folder.file("exists.mid")))
        try tool("sox", ["-n", "-r", "48000", "-c", "1", folder.file("in.wav"), "trim", "0", "0.1"], in: folder)
        let plugin = arguments.contains("--plugin") ? [] : ["--plugin", Self.filters + "miditranspose"]
        let before = try folderContents(folder.path)
        let outcome = try Detent.run(["render", "--midi", "in.mid"] + plugin + arguments, in: folder.path)
        #expect(outcome.status == status, "\(outcome.stderr)")
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 1 && outcome.stderr.contains(message), "\(outcome.stderr)")
        #expect(try folderContents(folder.path) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("exists.mid"))) == Data("keep".utf8))
    }
}
