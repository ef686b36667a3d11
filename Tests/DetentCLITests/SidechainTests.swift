import Foundation
import Glibc
import Testing
import TestSupport

/// `render --sidechain`: a compressor from zam-plugins keyed by a file that sox made, its
/// ducking measured on the output; the key's channels, length and sample rate; the refusals.
@Suite("detent: side-chain keys")
struct SidechainTests {
    static let compressor = "urn:zamaudio:ZamComp"        // mono, one lv2:isSideChain input
    static let stereo = "urn:zamaudio:ZamCompX2"          // stereo, one side-chain input
    static let ducking = ["--set", "thr=-30", "--set", "rat=20"]

    /// A 4-second 1 kHz tone at −12 dBFS (`channels` channels), and a key: 1 s of silence,
    /// then 1 s of white noise at −3 dBFS (its length: 2 s, shorter than the tone).
    static func files(_ folder: TemporaryFolder, channels: Int = 1) throws -> (tone: String, key: String) {
        let tone = folder.file("tone.wav"), burst = folder.file("burst.wav"), key = folder.file("key.wav")
        try tool("sox", ["-n", "-r", "48000", "-c", String(channels), "-b", "24", tone, "synth", "4", "sine", "1000", "gain", "-12"], in: folder)
        try tool("sox", ["-n", "-r", "48000", "-c", "1", "-b", "24", burst, "synth", "1", "whitenoise", "gain", "-3"], in: folder)
        try tool("sox", [burst, key, "pad", "1", "0"], in: folder)
        return (tone, key)
    }

    /// The RMS level (dBFS) of `seconds` of a 48 kHz file's first channel.
    static func level(_ samples: [Float], channels: Int, _ seconds: ClosedRange<Double>) -> Double {
        let from = Int(seconds.lowerBound * 48_000), to = Int(seconds.upperBound * 48_000)
        var sum = 0.0
        for i in from..<to { sum += Double(samples[i * channels]) * Double(samples[i * channels]) }
        return 10 * log10(sum / Double(to - from) + 1e-30)
    }

    static func render(_ arguments: [String], in folder: TemporaryFolder,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> [Float] {
        let output = folder.file("out-\(UUID().uuidString).wav")
        let outcome = try Detent.run(["render"] + arguments + ["-o", output, "--subtype", "float", "--quiet"], in: folder.path)
        try #require(outcome.status == 0, "\(outcome.stderr)", sourceLocation: sourceLocation)
        return try decode(output).samples
    }

    @Test("ZamComp keyed by a file ducks a tone by 10 dB or more while the key sounds, and only then; unkeyed it does not")
    func ducks() throws {
        let folder = TemporaryFolder()
        let (tone, key) = try Self.files(folder)
        let keyed = try Self.render([tone, "--plugin", Self.compressor, "--set", "sidech=1", "--sidechain", key] + Self.ducking, in: folder)
        let unkeyed = try Self.render([tone, "--plugin", Self.compressor, "--set", "sidech=1"] + Self.ducking, in: folder)
        let before = Self.level(keyed, channels: 1, 0.2...0.9)
        let during = Self.level(keyed, channels: 1, 1.2...1.9)
        let after = Self.level(keyed, channels: 1, 2.8...3.9)
        #expect(before - during >= 10, "before \(before) dB, while the key sounds \(during) dB")
        #expect(abs(after - before) < 0.5, "after the key ended: \(after) dB against \(before) dB")
        #expect(abs(Self.level(unkeyed, channels: 1, 1.2...1.9) - before) < 0.5, "silence keys nothing")
        #expect(keyed.count == 4 * 48_000, "the output is as long as the input, not the key")
    }

    @Test("in a chain, SLOT=FILE keys that slot: the same as the compressor keyed alone after the slot before it")
    func keysASlot() throws {
        let folder = TemporaryFolder()
        let (tone, key) = try Self.files(folder)
        let chain = try Self.render([tone, "--plugin", "builtin", "--plugin", Self.compressor, "--set", "builtin.gain=-2",
                                     "--set", "zamcomp.sidech=1", "--set", "zamcomp.thr=-30", "--set", "zamcomp.rat=20",
                                     "--sidechain", "zamcomp=\(key)"], in: folder)
        let first = folder.file("first.wav")
        let outcome = try Detent.run(["render", tone, "-o", first, "--subtype", "float", "--quiet", "--set", "gain=-2"], in: folder.path)
        try #require(outcome.status == 0, "\(outcome.stderr)")
        let alone = try Self.render([first, "--plugin", Self.compressor, "--set", "sidech=1", "--sidechain", key] + Self.ducking, in: folder)
        try #require(chain.count == alone.count)
        let worst = zip(chain, alone).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < 1e-5, "largest difference \(worst)")
        #expect(Self.level(chain, channels: 1, 0.2...0.9) - Self.level(chain, channels: 1, 1.2...1.9) >= 10)
    }

    @Test("a stereo key is folded as a main input is: its two channels' mean feeds a one-input side chain")
    func foldsTheKey() throws {
        let folder = TemporaryFolder()
        let (tone, key) = try Self.files(folder, channels: 2)
        let left = folder.file("left.wav"), half = folder.file("half.wav")
        try tool("sox", [key, "-c", "2", left, "remix", "1", "0"], in: folder)   // the key, then silence
        try tool("sox", [key, "-e", "floating-point", "-b", "32", half, "vol", "0.5"], in: folder)
        let stereoKey = try Self.render([tone, "--plugin", Self.stereo, "--set", "sidechain=1", "--sidechain", left] + Self.ducking, in: folder)
        let halfKey = try Self.render([tone, "--plugin", Self.stereo, "--set", "sidechain=1", "--sidechain", half] + Self.ducking, in: folder)
        try #require(stereoKey.count == halfKey.count)
        let worst = zip(stereoKey, halfKey).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < 1e-6, "largest difference \(worst)")
        #expect(Self.level(stereoKey, channels: 2, 0.2...0.9) - Self.level(stereoKey, channels: 2, 1.2...1.9) >= 10)
    }

    @Test("refused with one line and no output: no side-chain input, an unknown slot, a key twice, a missing key, another sample rate")
    func refusals() throws {
        let folder = TemporaryFolder()
        let (tone, key) = try Self.files(folder)
        let slow = folder.file("key44.wav")
        try tool("sox", [key, "-r", "44100", slow], in: folder)
        let output = folder.file("refused.wav")
        let cases: [([String], String, Int32)] = [
            (["--plugin", "builtin", "--sidechain", key], "Lowpass + gain has no side-chain input", 64),
            (["--plugin", "builtin", "--plugin", "b=builtin", "--sidechain", key], "--sidechain \(key): no slot of the chain has a side-chain input", 64),
            (["--plugin", "builtin", "--plugin", Self.compressor, "--sidechain", "nope=\(key)"], "no slot 'nope' (slots: builtin, zamcomp)", 64),
            (["--plugin", "builtin", "--plugin", Self.compressor, "--sidechain", "builtin=\(key)"], "(slot 'builtin') has no side-chain input", 64),
            (["--plugin", Self.compressor, "--sidechain", key, "--sidechain", key], "is keyed twice", 64),
            (["--plugin", Self.compressor, "--sidechain", folder.file("missing.wav")], "missing.wav: cannot open", 64),
            (["--plugin", Self.compressor, "--sidechain", slow], "key44.wav: at 44100 Hz, but", 65),
        ]
        for (arguments, message, status) in cases {
            let outcome = try Detent.run(["render", tone, "-o", output] + arguments, in: folder.path)
            #expect(outcome.status == status, "\(arguments): \(outcome.stderr)")
            let lines = outcome.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("detent: ") && lines[0].contains(message), "\(arguments): \(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output), "\(arguments)")
        }
    }

    @Test("no file a render reads is its output, even with --force: a key, a named input, the graph, the automation file")
    func readFilesAreNoOutputs() throws {
        let folder = TemporaryFolder()
        let (tone, key) = try Self.files(folder)
        let graph = folder.write("g.json", text: #"{"slots":{"a":{"plugin":"builtin"}},"connections":[["input","a"],["key","a"],["a","output"]]}"#)
        let automation = folder.write("sweep.wav", text: "0 cutoff 300\n")
        let kept = try [key, graph, automation].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let cases: [([String], String, String)] = [
            (["--plugin", Self.compressor, "--sidechain", key], key, "a side-chain key"),
            (["--plugin", Self.compressor, "--sidechain", "zamcomp=./key.wav"], key, "a side-chain key"),
            (["--graph", graph, "--input", "key=\(key)"], key, "a graph's named input"),
            (["--graph", graph, "--input", "key=\(key)", "--format", "wav"], graph, "the graph file"),
            (["--automation", automation], automation, "the automation file"),
        ]
        for (arguments, output, role) in cases {
            let outcome = try Detent.run(["render", tone, "-o", output, "--force"] + arguments, in: folder.path)
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr == "detent: \(output): is \(role) this render reads; choose another output\n", "\(arguments)")
        }
        #expect(try [key, graph, automation].map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == kept)
    }

    @Test("a key or named input that is a FIFO is refused at once in one line, not waited on")
    func fifoKeys() throws {
        let folder = TemporaryFolder()
        let (tone, _) = try Self.files(folder)
        let fifo = folder.file("key.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let graph = folder.write("g.json", text: #"{"slots":{"a":{"plugin":"builtin"}},"connections":[["input","a"],["key","a"],["a","output"]]}"#)
        for (arguments, option) in [(["--plugin", Self.compressor, "--sidechain", fifo], "--sidechain"),
                                    (["--graph", graph, "--input", "key=\(fifo)"], "--input")] {
            // `timeout` bounds the test if the render waits for a writer again.
            let outcome = try Detent.run(["render", tone, "-o", "out.wav"] + arguments, in: folder.path, prefix: ["/usr/bin/timeout", "20"])
            #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr == "detent: \(option) \(fifo): is not a regular file (a FIFO, device or socket); "
                    + "a file read beside the input is opened more than once: save it to a file\n", "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }
}
