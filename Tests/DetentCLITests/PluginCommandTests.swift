import OfflineRender
import Foundation
import Testing
import TestSupport

/// `detent plugins`, and renders through real LV2 plug-ins compared with the LV2 tools people
/// use: lilv's `lv2apply` and `lv2file` (Debian `lilv-utils`, `lv2file`), on files sox made.
@Suite("detent: plug-ins")
struct PluginCommandTests {
    /// A 2-second sweep made by sox, in 32-bit float, with `channels` channels.
    static func sweep(_ folder: TemporaryFolder, channels: Int) throws -> String {
        let path = folder.file("sweep\(channels).wav")
        let outcome = try ChildProcess.run("/usr/bin/sox", [
            "-n", "-r", "48000", "-c", "\(channels)", "-b", "32", "-e", "floating-point", path,
            "synth", "2", "sine", "60-12000", "vol", "0.7",
        ])
        try #require(outcome.status.exited == 0, "sox: \(outcome.stderrText)")
        return path
    }

    enum Peer: String, Sendable { case lv2apply, lv2file }

    @Test("at fixed controls a render equals the same plug-in run by lv2apply or lv2file", arguments: [
        ("http://plugin.org.uk/swh-plugins/buttlow_iir", Peer.lv2apply, 1, ["cutoff": "700"]),
        ("http://plugin.org.uk/swh-plugins/sc1", .lv2file, 1, [:]),
        ("http://drobilla.net/plugins/mda/Overdrive", .lv2file, 2, ["drive": "0.8"]),
        ("http://drobilla.net/plugins/mda/Limiter", .lv2file, 2, [:]),
        ("http://gareus.org/oss/lv2/darc#mono", .lv2apply, 1, [:]),
        ("http://gareus.org/oss/lv2/darc#stereo", .lv2file, 2, [:]),
        ("urn:zamaudio:ZamEQ2", .lv2file, 1, [:]),
    ] as [(String, Peer, Int, [String: String])])
    func equalsPeer(uri: String, peer: Peer, channels: Int, controls: [String: String]) throws {
        let folder = TemporaryFolder()
        let input = try Self.sweep(folder, channels: channels)
        let sets = controls.sorted { $0.key < $1.key }
        let rendered = try Detent.run(["render", input, "--plugin", uri, "-o", "detent.wav", "--subtype", "float"]
                                      + sets.flatMap { ["--set", "\($0.key)=\($0.value)"] }, in: folder.path)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let arguments: [String] = switch peer {
        case .lv2apply: ["-i", input, "-o", folder.file("peer.wav")] + sets.flatMap { ["-c", $0.key, $0.value] } + [uri]
        case .lv2file: ["-i", input, "-o", folder.file("peer.wav"), "--ignore-clipping"] + sets.flatMap { ["-p", "\($0.key):\($0.value)"] } + [uri]
        }
        let ran = try ChildProcess.run("/usr/bin/" + peer.rawValue, arguments, currentDirectory: folder.path)
        try #require(ran.status.exited == 0, "\(peer): \(ran.stderrText)")
        let (ours, reader) = try decode(folder.file("detent.wav"))
        let (theirs, peerReader) = try decode(folder.file("peer.wav"))
        #expect(reader.channels == channels && peerReader.channels == channels)
        try #require(ours.count == theirs.count && ours.count == 96_000 * channels)
        var worst: Float = 0
        for i in ours.indices { worst = max(worst, abs(ours[i] - theirs[i])) }
        #expect(worst <= 1e-6, "largest difference \(worst)")
        #expect(theirs.contains { abs($0) > 0.01 }, "the peer's output is not silent")
    }

    @Test("entries of LV2_PATH that are not bundles (a file, a folder without a manifest) are passed over in silence")
    func notBundles() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("junk/empty.lv2"), withIntermediateDirectories: true)
        folder.write("junk/file.txt", text: "not a bundle\n")
        let plain = try Detent.run(["plugins", "--json"], in: folder.path, extra: ["LV2_PATH": "/usr/lib/lv2"])
        let junk = try Detent.run(["plugins", "--json"], in: folder.path, extra: ["LV2_PATH": folder.file("junk") + ":/usr/lib/lv2"])
        #expect(junk.status == 0 && junk.stderr == "", "\(junk.stderr)")
        #expect(junk.stdout == plain.stdout && !plain.stdout.isEmpty)
    }

    @Test("plugins lists every installed plug-in with a hostable verdict, as a table and as JSON")
    func listing() throws {
        let folder = TemporaryFolder()
        let table = try Detent.run(["plugins"], in: folder.path)
        #expect(table.status == 0 && table.stderr == "")
        #expect(table.stdout.hasPrefix("NAME "))
        #expect(table.stdout.contains("http://plugin.org.uk/swh-plugins/buttlow_iir"))
        let json = try Detent.run(["plugins", "--json"], in: folder.path)
        let lines = json.stdout.split(separator: "\n")
        #expect(lines.count >= 350)
        for line in lines {
            let object = try jsonObject(line)
            #expect(object["uri"] is String && object["hostable"] is Bool)
            if object["hostable"] as? Bool == false { #expect(object["reason"] is String) }
        }
        // Who made each, as each format says it (LV2's doap:maker, LADSPA's Maker, a vendor).
        let makers = try lines.map { try jsonObject($0) }.filter { ($0["name"] as? String) == "ZamComp" }.map { "\($0["format"]!) \($0["maker"]!)" }
        #expect(Set(makers) == Set(["LV2", "LADSPA", "VST2", "VST3", "CLAP"].map { "\($0) Damien Zammit" }))
        let filtered = try Detent.run(["plugins", "butterworth"], in: folder.path)
        #expect(filtered.stdout.split(separator: "\n").count == 8)  // header, 3 LV2 and 3 LADSPA plug-ins, count
        let none = try Detent.run(["plugins", "no-such-plugin-anywhere"], in: folder.path)
        #expect(none.status == 1 && none.stderr.split(separator: "\n").count == 1)
    }

    @Test("params --plugin prints the plug-in's table")
    func params() throws {
        let folder = TemporaryFolder()
        let outcome = try Detent.run(["params", "--plugin", "buttlow_iir"], in: folder.path)
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("cutoff") && outcome.stdout.contains("21.6 kHz"))
    }

    @Test("bad plug-in input: one line naming the problem, exit 64 or 65, no output file", arguments: [
        (["--plugin", "http://example.org/not-installed"], 64, "not-installed"),
        (["--plugin", "compressor"], 64, "matches"),
        (["--plugin", "MDA Overdrve"], 64, "MDA Overdrive"),
        (["--plugin", "buttlow_iir", "--set", "q=3"], 64, "'q'"),
        (["--plugin", "buttlow_iir", "--set", "resonance=9"], 64, "out of range"),
        (["--plugin", "http://plugin.org.uk/swh-plugins/mbeq"], 65, "cannot be loaded"),
        (["--plugin", "http://lsp-plug.in/plugins/lv2/compressor_mono", "--set", "scm=Loudest"], 64, "Loudest"),
        (["--plugin", "buttlow_iir", "--preset", "Telephone"], 64, "Telephone"),
        (["--plugin", "buttlow_iir", "--preset", "builtin.json"], 65, "detent:lowpass-gain"),
    ] as [([String], Int32, String)])
    func badInput(options: [String], status: Int32, names: String) throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([Signal.noise(frames: 4_800, seed: 1)]))
        folder.write("builtin.json", text: #"{"name": "Dark", "values": {"cutoff": 800}}"#)
        let outcome = try Detent.run(["render", "in.wav", "-o", "out.wav"] + options, in: folder.path)
        let lines = outcome.stderr.split(separator: "\n")
        #expect(outcome.status == status, "\(outcome.stderr)")
        #expect(lines.count == 1 && lines[0].hasPrefix("detent: "), "one line: \(outcome.stderr)")
        #expect(outcome.stderr.contains(names), "names the problem: \(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }

    @Test("a plug-in's latency is compensated: the output lines up with the input and is as long")
    func latencyCompensated() throws {
        let folder = TemporaryFolder()
        let input = try Self.sweep(folder, channels: 1)
        // swh's artificialLatency reports its delay control as latency but passes audio
        // through: compensation must move the output 10 ms (480 frames) earlier.
        let outcome = try Detent.run(["render", input, "--plugin", "artificialLatency", "--set", "delay=10",
                                      "-o", "out.wav", "--subtype", "float", "--json"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let summary = try jsonObject(outcome.stdout)
        #expect(summary["latency"] as? Int == 480)
        #expect(summary["frames"] as? Int == 96_000)
        let (inSamples, _) = try decode(input)
        let (outSamples, _) = try decode(folder.file("out.wav"))
        try #require(outSamples.count == inSamples.count)
        #expect(Array(outSamples[..<(96_000 - 480)]) == Array(inSamples[480...]))
        #expect(outSamples[(96_000 - 480)...].allSatisfy { $0 == 0 })
    }

    @Test("--tail renders a reverb's ring-out: a fixed time, or until it stays below -90 dBFS, the same for every block size")
    func tail() throws {
        let folder = TemporaryFolder()
        let input = try Self.sweep(folder, channels: 1)
        func render(_ tail: String, block: Int? = nil) throws -> [Float] {
            let outcome = try Detent.run(["render", input, "--plugin", "http://plugin.org.uk/swh-plugins/gverb",
                                          "--tail", tail, "-o", "out.wav", "--subtype", "float", "--force"]
                                         + (block.map { ["--block-frames", "\($0)"] } ?? []), in: folder.path)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            return try decode(folder.file("out.wav")).samples
        }
        #expect(try render("1.5s").count == 96_000 + 72_000)
        let auto = try render("auto")
        #expect(auto.count > 96_000 && auto.count <= 96_000 + 30 * 48_000)
        #expect((auto.count - 96_000) % 4_800 == 0, "the tail ends on a 100 ms step")
        #expect(auto.suffix(4_800).allSatisfy { abs($0) < 3.2e-5 }, "the last step is below -90 dBFS")
        #expect(auto[96_000..<(auto.count - 4_800)].contains { abs($0) >= 3.2e-5 }, "the tail rang out before")
        #expect(try render("auto", block: 1_000) == auto)
        let bad = try Detent.run(["render", input, "--tail", "soon", "-o", "x.wav"], in: folder.path)
        #expect(bad.status == 64 && bad.stderr.contains("--tail 'soon'"))
    }

    @Test("a plug-in's own LV2 presets are read-only factory presets: listed, shown, rendered with")
    func lv2Presets() throws {
        let folder = TemporaryFolder()
        let detune = "http://drobilla.net/plugins/mda/Detune"
        let list = try Detent.run(["preset", "list", "--plugin", detune, "--json"], in: folder.path)
        #expect(list.status == 0, "\(list.stderr)")
        let names = try list.stdout.split(separator: "\n").map { try jsonObject($0)["name"] as? String }
        #expect(names.contains("Stereo Detune") && names.contains("Symphonic"))
        // Rendering with the preset equals rendering with its values set by hand (mda-lv2's
        // Detune-presets.ttl: detune 0.2, mix 0.9, output 0.5, latency 0.5).
        let input = try Self.sweep(folder, channels: 2)
        let a = try Detent.run(["render", input, "--plugin", detune, "--preset", "stereo detune", "-o", "a.wav",
                                "--subtype", "float"], in: folder.path)
        let b = try Detent.run(["render", input, "--plugin", detune, "--set", "detune=0.2", "--set", "mix=0.9",
                                "--set", "output=0.5", "--set", "latency=0.5", "-o", "b.wav", "--subtype", "float"],
                               in: folder.path)
        #expect(a.status == 0 && a.stderr == "", "\(a.stderr)")
        #expect(b.status == 0)
        #expect(try decode(folder.file("a.wav")).samples == decode(folder.file("b.wav")).samples)
        // A user preset of the plug-in records its URI, and stays out of the built-in's list.
        let saved = try Detent.run(["preset", "save", "--plugin", detune, "Mine", "--from", "Symphonic", "--set", "mix=0.5"],
                                   in: folder.path)
        #expect(saved.status == 0, "\(saved.stderr)")
        let text = try String(contentsOfFile: folder.path + "/.config/detent/presets/Mine.json", encoding: .utf8)
        #expect(text.contains(#""processor": "http://drobilla.net/plugins/mda/Detune""#))
        #expect(text.contains(#""detune": 0.2,"#))
        let builtIn = try Detent.run(["preset", "list"], in: folder.path)
        #expect(!builtIn.stdout.contains("Mine"))
        let delete = try Detent.run(["preset", "delete", "--plugin", detune, "Symphonic"], in: folder.path)
        #expect(delete.status != 0 && delete.stderr.split(separator: "\n").count == 1)
    }

    struct ReferenceHostFailed: Error, CustomStringConvertible { let description: String }

    /// Where the reference host is built; kept for the whole test run.
    nonisolated(unsafe) static let hostFolder = TemporaryFolder()

    /// The tests' own reference host (`ReferenceHost/reference-host.c`), compiled once.
    static let referenceHost: Result<String, ReferenceHostFailed> = {
        let binary = hostFolder.file("reference-host")
        do {
            let flags = try ChildProcess.run("/usr/bin/pkg-config", ["--cflags", "--libs", "lilv-0"])
            let compiled = try ChildProcess.run("/usr/bin/cc", [
                "-O1", "-o", binary, packageRoot + "/Tests/DetentCLITests/ReferenceHost/reference-host.c",
            ] + flags.stdoutText.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
            guard compiled.status.exited == 0 else { return .failure(ReferenceHostFailed(description: "cc: \(compiled.stderrText)")) }
            return .success(binary)
        } catch {
            return .failure(ReferenceHostFailed(description: "\(error)"))
        }
    }()

    @Test("LSP plug-ins (atom ports, which lv2apply and lv2file cannot run here) equal a minimal reference host",
          arguments: ["http://lsp-plug.in/plugins/lv2/compressor_stereo", "http://lsp-plug.in/plugins/lv2/graph_equalizer_x16_stereo",
                      "http://lsp-plug.in/plugins/lv2/gate_stereo",
                      "http://lsp-plug.in/plugins/lv2/limiter_stereo"])
    func equalsReferenceHost(uri: String) throws {
        let host = try Self.referenceHost.get()
        let folder = TemporaryFolder()
        let input = try Self.sweep(folder, channels: 2)
        let rendered = try Detent.run(["render", input, "--plugin", uri, "-o", "detent.wav", "--subtype", "float"],
                                      in: folder.path)
        try #require(rendered.status == 0, "\(rendered.stderr)")
        let (ours, _) = try decode(folder.file("detent.wav"))
        let (source, _) = try decode(input)
        let raw = source.withUnsafeBufferPointer { Data(buffer: $0) }
        try raw.write(to: URL(fileURLWithPath: folder.file("in.raw")))
        let ran = try ChildProcess.run(host, [uri, "2", folder.file("in.raw"), folder.file("out.raw")])
        try #require(ran.status.exited == 0, "reference host: \(ran.status) \(ran.stderrText)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.file("out.raw")))
        let theirs = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        try #require(theirs.count == ours.count)
        var worst: Float = 0
        for i in ours.indices { worst = max(worst, abs(ours[i] - theirs[i])) }
        // LSP's processing rounds differently with the block length (the reference runs
        // blocks of 512 frames, Detent its own): float precision, about -100 dB.
        #expect(worst <= 1e-5, "largest difference \(worst)")
        #expect(theirs.contains { abs($0) > 0.01 })
    }
}
