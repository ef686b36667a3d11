import OfflineRender
import Foundation
import Testing
import TestSupport

/// LADSPA and DSSI plug-ins from the command line: renders equal ladspa-sdk's `applyplugin`,
/// `detent plugins` lists every format with a FORMAT column, `--plugin` takes labels, IDs and
/// files, a broken library is one "not hostable" row, and a DSSI synth plays notes offline.
@Suite("detent: LADSPA and DSSI")
struct LadspaCommandTests {
    static func sweep(_ folder: TemporaryFolder) throws -> String {
        let path = folder.file("sweep.wav")
        try tool("sox", ["-n", "-r", "48000", "-c", "1", "-b", "32", "-e", "floating-point", path,
                         "synth", "2", "sine", "60-12000", "vol", "0.7"], in: folder)
        return path
    }

    /// `applyplugin` writes 16-bit PCM, each sample ⌊x · 32768⌋ held to the 16-bit range: the
    /// same conversion of Detent's float render must give its samples exactly.
    static func sixteenBit(_ x: Float) -> Float {
        Float(Int16(clamping: Int((Double(x) * 32_768).rounded(.down)))) / 32_768
    }

    @Test("at fixed controls a render equals applyplugin's, sample for sample at its 16 bits", arguments: [
        ("ladspa:1903", "butterworth_1902.so", "buttlow_iir", [("cutoff_frequency", "700"), ("resonance", "0.9")]),  // swh-plugins
        ("ladspa:ToneStack", "caps.so", "ToneStack", [("model", "2"), ("bass", "0.3"), ("mid", "0.6"), ("treble", "0.8")]),  // caps
        ("tap_tubewarmth", "tap_tubewarmth.so", "tap_tubewarmth", [("drive", "5"), ("tape_tube_blend", "3")]),  // tap-plugins
        ("cmt.so:lpf", "cmt.so", "lpf", [("cutoff_frequency", "1000")]),  // cmt
    ] as [(String, String, String, [(String, String)])])
    func equalsApplyplugin(reference: String, file: String, label: String, controls: [(String, String)]) throws {
        let folder = TemporaryFolder()
        let input = try Self.sweep(folder)
        let rendered = try Detent.run(["render", input, "--plugin", reference, "-o", "detent.wav", "--subtype", "float"]
                                      + controls.flatMap { ["--set", "\($0.0)=\($0.1)"] }, in: folder.path)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        // The controls in port order, as applyplugin takes them.
        try tool("applyplugin", [input, folder.file("peer.wav"), "/usr/lib/ladspa/" + file, label] + controls.map(\.1), in: folder)
        let (ours, _) = try decode(folder.file("detent.wav"))
        let (theirs, reader) = try decode(folder.file("peer.wav"))
        #expect(reader.channels == 1)
        try #require(ours.count == 96_000 && theirs.count == 96_000)
        let differing = ours.indices.filter { Self.sixteenBit(ours[$0]) != theirs[$0] }
        #expect(differing.isEmpty, "\(differing.count) samples differ, the first at \(differing.first ?? -1)")
        #expect(theirs.contains { abs($0) > 0.01 }, "the peer's output is not silent")
    }

    @Test("plugins lists LV2, LADSPA and DSSI together with a format column; --json has the format")
    func listing() throws {
        let folder = TemporaryFolder()
        let table = try Detent.run(["plugins"], in: folder.path)
        #expect(table.status == 0 && table.stderr == "")
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("NAME") == true && lines.first?.contains("FORMAT") == true)
        #expect(lines.contains { $0.contains(" LADSPA ") && $0.hasSuffix("ladspa:1903:buttlow_iir") })
        #expect(lines.contains { $0.contains(" LV2 ") && $0.hasSuffix("http://plugin.org.uk/swh-plugins/buttlow_iir") })
        #expect(lines.contains { $0.contains(" DSSI ") && $0.hasSuffix("dssi:2183:hexter") })
        let json = try Detent.run(["plugins", "plate", "--json"], in: folder.path)
        let objects = try json.stdout.split(separator: "\n").map { try jsonObject($0) }
        #expect(objects.contains { $0["format"] as? String == "LV2" })
        #expect(objects.contains { $0["format"] as? String == "LADSPA" && $0["identifier"] as? String == "ladspa:1779:Plate" })
    }

    @Test("--plugin takes a label, ladspa:LABEL, ladspa:ID, the identifier and FILE.so:LABEL", arguments: [
        "buttlow_iir", "ladspa:buttlow_iir", "ladspa:1903", "ladspa:1903:buttlow_iir", "butterworth_1902.so:buttlow_iir",
        "/usr/lib/ladspa/butterworth_1902.so:buttlow_iir",
    ])
    func references(reference: String) throws {
        let folder = TemporaryFolder()
        let outcome = try Detent.run(["params", "--plugin", reference, "--json"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        // A plain label that an LV2 URI also ends with finds the LV2 plug-in, as before LADSPA
        // was hosted; every LADSPA reference finds the LADSPA one.
        let id = reference == "buttlow_iir" ? "\"cutoff\"" : "\"cutoff_frequency\""
        #expect(outcome.stdout.contains(id), "\(outcome.stdout.prefix(300))")
    }

    @Test("a name two formats share chooses the LV2 build and says once which identifier picks the other")
    func sharedName() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([Signal.noise(frames: 4_800, seed: 1)]))
        let outcome = try Detent.run(["render", "in.wav", "-o", "out.wav", "--plugin", "GLAME Butterworth Lowpass"], in: folder.path)
        let lines = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("detent: warning:") }
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(lines.count == 1 && lines[0].contains("the LV2 build is used") && lines[0].contains("ladspa:1903:buttlow_iir"),
                "\(outcome.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    @Test("bad references: one line, exit 64; a label two libraries share lists both", arguments: [
        ("ladspa:lpf", "cmt.so:lpf"),
        ("ladspa:4242424", "no installed plug-in"),
        ("nothing.so:lpf", "no installed plug-in"),
    ])
    func badReferences(reference: String, names: String) throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([Signal.noise(frames: 4_800, seed: 1)]))
        let outcome = try Detent.run(["render", "in.wav", "-o", "out.wav", "--plugin", reference], in: folder.path)
        let lines = outcome.stderr.split(separator: "\n")
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(lines.count == 1 && lines[0].hasPrefix("detent: ") && outcome.stderr.contains(names), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    @Test("a broken library on LADSPA_PATH is one not-hostable row, and the listing goes on")
    func brokenLibrary() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("lib"), withIntermediateDirectories: true)
        folder.write("lib/broken.so", text: "not a library\n")
        let outcome = try Detent.run(["plugins", "broken"], in: folder.path,
                                     extra: ["LADSPA_PATH": folder.file("lib") + ":/usr/lib/ladspa"])
        #expect(outcome.status == 0 && outcome.stderr == "", "\(outcome.stderr)")
        #expect(outcome.stdout.contains("no: cannot be loaded:") && outcome.stdout.contains(folder.file("lib/broken.so")))
        let hosting = try Detent.run(["params", "--plugin", folder.file("lib/broken.so") + ":x"], in: folder.path)
        #expect(hosting.status == 65 && hosting.stderr.split(separator: "\n").count == 1, "\(hosting.stderr)")
        #expect(hosting.stderr.contains("cannot be hosted"))
    }

    @Test("a chain of a LADSPA and an LV2 plug-in renders with SLOT.ID parameters")
    func chain() throws {
        let folder = TemporaryFolder()
        let input = try Self.sweep(folder)
        let outcome = try Detent.run(["render", input, "-o", "out.wav", "--plugin", "ladspa:1903",
                                      "--plugin", "http://drobilla.net/plugins/mda/Overdrive",
                                      "--set", "buttlow_iir.cutoff_frequency=900", "--set", "overdrive.drive=0.5"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }

    @Test("a DSSI synth plays a note of --midi at its exact frame, for any block size; its programs are presets")
    func dssiOffline() throws {
        let folder = TemporaryFolder()
        try tool("sox", ["-n", "-r", "48000", "-c", "1", "-b", "32", "-e", "floating-point", folder.file("silence.wav"),
                         "trim", "0", "2"], in: folder)
        // 960 ticks per second: a note at 480 ticks (frame 24000) and one at 720 (frame 36000).
        try Data(MIDIRenderTests.midiFile([(480, [0x90, 60, 100]), (240, [0x80, 60, 0]), (480, [0xB0, 64, 0])]))
            .write(to: URL(fileURLWithPath: folder.file("early.mid")))
        try Data(MIDIRenderTests.midiFile([(720, [0x90, 60, 100]), (240, [0x80, 60, 0]), (240, [0xB0, 64, 0])]))
            .write(to: URL(fileURLWithPath: folder.file("late.mid")))
        var outputs: [String: [Float]] = [:]
        // The same for every block size: Xsynth. (hexter does not always play the same notes
        // alike from one render to the next, seen under load whatever the block size; why,
        // inside hexter, is not traced.)
        for (name, extra) in [("xsynth-64", ["--block", "64"]), ("xsynth-4096", [])] {
            let outcome = try Detent.run(["render", "silence.wav", "--midi", "early.mid", "--plugin", "dssi:2181:Xsynth",
                                          "-o", name + ".wav", "--subtype", "float", "--quiet"] + extra, in: folder.path)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            outputs[name] = try decode(folder.file(name + ".wav")).samples
        }
        let xsynth = try #require(outputs["xsynth-64"])
        #expect(xsynth == outputs["xsynth-4096"], "the same for every block size")
        #expect(xsynth[..<24_000].allSatisfy { $0 == 0 } && xsynth[24_000..<24_480].contains { abs($0) > 1e-4 })
        for (name, extra) in [("early", ["--block", "64"]), ("late", []), ("organ", ["--preset", "E.ORGAN 1"])] {
            let midi = name == "late" ? "late.mid" : "early.mid"
            let outcome = try Detent.run(["render", "silence.wav", "--midi", midi, "--plugin", "hexter", "-o", name + ".wav",
                                          "--subtype", "float", "--quiet"] + extra, in: folder.path)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            outputs[name] = try decode(folder.file(name + ".wav")).samples
        }
        let early = try #require(outputs["early"]), late = try #require(outputs["late"])
        #expect(early[..<24_000].allSatisfy { $0 == 0 }, "silent before its frame")
        #expect(early[24_000..<24_480].contains { abs($0) > 1e-4 }, "sounding from its frame")
        // The same note 12000 frames later starts 12000 frames later (hexter's LFO runs from
        // activation, so the two notes are not the same sound sample for sample).
        #expect(late[..<36_000].allSatisfy { $0 == 0 }, "silent before its frame")
        #expect(late[36_000..<36_480].contains { abs($0) > 1e-4 }, "sounding from its frame")
        let otherProgram = outputs["organ"] != early
        #expect(otherProgram, "another program, another sound")
    }
}
