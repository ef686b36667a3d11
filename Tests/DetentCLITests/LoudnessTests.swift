import Foundation
import Testing
import TestSupport

/// Loudness and true peak in render's summary, and `--normalize`, checked against an
/// independent meter: ffmpeg's `ebur128` filter (its own BS.1770 code, not libebur128), run in
/// the same test on the very file Detent wrote. Outputs are float, so quantisation plays no part.
///
/// ffmpeg prints its summary with one decimal; the tolerances are 0.1 LU (loudness) and
/// 0.2 dB (true peak: ffmpeg oversamples through its resampler, libebur128 through its own
/// filter), plus half of ffmpeg's last printed digit.
@Suite("detent render: loudness and true peak")
struct LoudnessTests {
    /// Eight seconds of stereo material at 48 kHz (ffmpeg's meter works at 48 kHz, so no
    /// resampling comes between the two meters): noise in both channels, a sine in one, and a
    /// quiet second in the middle that the gate must leave out.
    static func material(channels: Int = 2) -> [UInt8] {
        let frames = 8 * 48_000
        let quiet = 3 * 48_000..<4 * 48_000
        let signals = (0..<channels).map { c in
            let noise = Signal.noise(frames: frames, seed: UInt64(c + 1), amplitude: 0.3)
            let sine = Signal.sine(frequency: 440 + 110 * Double(c), frames: frames, amplitude: 0.2)
            return (0..<frames).map { quiet.contains($0) ? noise[$0] * 0.01 : noise[$0] + sine[$0] }
        }
        return WAV.float(signals)
    }

    /// ffmpeg's integrated loudness (LUFS) and true peak (dBTP) of `file`: the summary's
    /// `I:` and `Peak:` lines.
    static func ffmpeg(_ file: String, in folder: TemporaryFolder,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> (loudness: Double, truePeak: Double) {
        let outcome = try tool("ffmpeg", ["-nostats", "-hide_banner", "-i", file, "-af", "ebur128=peak=true", "-f", "null", "-"],
                               in: folder, sourceLocation: sourceLocation)
        let summary = try #require(outcome.stderrText.components(separatedBy: "Summary:").last, sourceLocation: sourceLocation)
        func value(_ label: String) throws -> Double {
            let line = try #require(summary.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) },
                                    "no \(label) in ffmpeg's summary", sourceLocation: sourceLocation)
            let number = try #require(line.split(separator: " ").dropFirst().first.flatMap { Double($0) },
                                      "\(line)", sourceLocation: sourceLocation)
            return number
        }
        return (try value("I:"), try value("Peak:"))
    }

    /// Renders with `--json --loudness` and returns the summary object and the stderr text.
    static func render(_ arguments: [String], in folder: TemporaryFolder,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> (summary: [String: Any], stderr: String) {
        let outcome = try Detent.run(["render"] + arguments + ["--subtype", "float", "--json", "--loudness"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)", sourceLocation: sourceLocation)
        return (try jsonObject(outcome.stdout, sourceLocation: sourceLocation), outcome.stderr)
    }

    @Test("the summary's loudness and true peak agree with ffmpeg's ebur128 on the output", arguments: [
        (2, ["--set", "cutoff=1000"]),
        (2, ["--set", "cutoff=6000", "--set", "resonance=4", "--set", "gain=-9dB"]),
        (2, ["--set", "gain=-30dB"]),
        (1, ["--set", "cutoff=300", "--set", "resonance=2"]),
    ] as [(Int, [String])])
    func agreesWithFFmpeg(channels: Int, settings: [String]) throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", Self.material(channels: channels))
        let (summary, stderr) = try Self.render(["in.wav", "-o", "out.wav"] + settings, in: folder)
        #expect(stderr == "")
        let peer = try Self.ffmpeg("out.wav", in: folder)
        let loudness = try #require(summary["loudness"] as? Double)
        let truePeak = try #require(summary["truePeak"] as? Double)
        #expect(abs(loudness - peer.loudness) <= 0.15, "Detent \(loudness) LUFS, ffmpeg \(peer.loudness) LUFS")
        #expect(abs(truePeak - peer.truePeak) <= 0.25, "Detent \(truePeak) dBTP, ffmpeg \(peer.truePeak) dBTP")
        // A true peak is never below the sample peak.
        #expect(truePeak >= (summary["peakDBFS"] as? Double ?? .infinity) - 0.01)
        #expect(summary.keys.contains("normalizeGain") && summary["normalizeGain"] is NSNull)
    }

    @Test("a resonant filter with +12 dB makes an over: one warning line with ffmpeg's figure")
    func over() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", Self.material())
        let (summary, stderr) = try Self.render(
            ["in.wav", "-o", "hot.wav", "--set", "cutoff=400", "--set", "resonance=10", "--set", "gain=12dB"], in: folder)
        let peer = try Self.ffmpeg("hot.wav", in: folder)
        #expect(peer.truePeak > 0)
        let truePeak = try #require(summary["truePeak"] as? Double)
        #expect(abs(truePeak - peer.truePeak) <= 0.25, "Detent \(truePeak) dBTP, ffmpeg \(peer.truePeak) dBTP")
        let shown = (truePeak * 10).rounded() / 10
        #expect(stderr == "detent: warning: hot.wav: true peak +\(shown) dBTP (over 0 dBTP); lower the gain\n")

        // An integer output clips it as well: still one line for the one problem.
        let clipped = try Detent.run(["render", "in.wav", "-o", "hot24.wav", "--subtype", "pcm24", "--loudness",
                                      "--set", "cutoff=400", "--set", "resonance=10", "--set", "gain=12dB"], in: folder.path)
        #expect(clipped.status == 0)
        let lines = clipped.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("detent: warning: hot24.wav: ")
            && lines[0].hasSuffix(" dBFS, true peak +\(shown) dBTP); lower the gain"), "\(clipped.stderr)")
    }

    @Test("--normalize -23: ffmpeg measures -23 LUFS, and the output is the plain render times one gain")
    func normalize() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", Self.material())
        // Automation moves the sound during the file; normalising must keep it relative.
        folder.write("auto.txt", text: "0s cutoff 500\n2s cutoff 5k ramp 3s\n5s gain -12 dB ramp 1s\n")
        let sound = ["--set", "resonance=3", "--automation", "auto.txt"]
        let plain = try Self.render(["in.wav", "-o", "plain.wav"] + sound, in: folder).summary
        let (normalized, stderr) = try Self.render(["in.wav", "-o", "n.wav", "--normalize", "-23"] + sound, in: folder)
        #expect(stderr == "")
        let measured = try Self.ffmpeg("n.wav", in: folder).loudness
        #expect(abs(measured + 23) <= 0.1, "ffmpeg: \(measured) LUFS")
        #expect(abs((normalized["loudness"] as? Double ?? 0) + 23) <= 0.1, "\(normalized)")

        // The gain is not simply -23 less the plain render's loudness: blocks of the quiet second
        // sink below the −70 LUFS gate with it, which moves the relative gate (by about 0.1 LU
        // for this material); the gain is solved with the gates.
        let gain = try #require(normalized["normalizeGain"] as? Double)
        let before = try #require(plain["loudness"] as? Double)
        #expect(abs(gain - (-23 - before)) <= 0.5, "gain \(gain) dB for \(before) LUFS")
        let a = try decode(folder.file("plain.wav")).samples, b = try decode(folder.file("n.wav")).samples
        #expect(a.count == b.count && a.count == 2 * 8 * 48_000)
        // The ratio that fits best (least squares), its dB against the reported gain (given to
        // 0.01 dB), and what is left of the output once the plain render times it is removed.
        let ratio = zip(a, b).reduce(0.0) { $0 + Double($1.0) * Double($1.1) } / a.reduce(0.0) { $0 + Double($1) * Double($1) }
        #expect(abs(20 * log10(ratio) - gain) <= 0.005 + 1e-9, "ratio \(ratio) for \(gain) dB")
        let worst = zip(a, b).map { abs(Double($0) * ratio - Double($1)) }.max() ?? .infinity
        #expect(worst <= 1e-6, "largest difference from the plain render × \(ratio): \(worst)")
        // The summary's peak is the written file's.
        let peak = b.map(abs).max()!
        #expect(abs((normalized["peak"] as? Double ?? 0) - Double(peak)) < 1e-6)
    }

    @Test("--normalize to a loud target warns of the over it makes and does not limit it")
    func normalizeOver() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", Self.material())
        let (summary, stderr) = try Self.render(["in.wav", "-o", "loud.wav", "--normalize", "-3"], in: folder)
        let peer = try Self.ffmpeg("loud.wav", in: folder)
        #expect(abs(peer.loudness + 3) <= 0.1)
        #expect(peer.truePeak > 0)
        let truePeak = try #require(summary["truePeak"] as? Double)
        let shown = (truePeak * 10).rounded() / 10
        #expect(stderr == "detent: warning: loud.wav: true peak +\(shown) dBTP (over 0 dBTP); "
            + "lower the gain or the --normalize target\n")
    }

    @Test("silence has no loudness; --normalize explains that it applied no gain", arguments: [false, true])
    func silence(normalize: Bool) throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([[Float](repeating: 0, count: 48_000), [Float](repeating: 0, count: 48_000)]))
        let (summary, stderr) = try Self.render(["in.wav", "-o", "out.wav"] + (normalize ? ["--normalize", "-23"] : []), in: folder)
        #expect(summary["loudness"] is NSNull)
        #expect(summary["truePeak"] is NSNull)
        #expect(try decode(folder.file("out.wav")).samples.allSatisfy { $0 == 0 })
        if normalize {
            #expect(summary["normalizeGain"] as? Double == 0)
            #expect(stderr == "detent: warning: in.wav: silent (no sound above the -70 LUFS gate); --normalize applied no gain\n")
        } else {
            #expect(stderr == "")
        }
    }

    @Test("a bad --normalize target is refused: one line, status 64, nothing written",
          arguments: ["nan", "inf", "-inf", "-80", "-70.5", "0.5", "12", "abc", "", "-23dB"])
    func badTarget(target: String) throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", Self.material())
        let outcome = try Detent.run(["render", "in.wav", "-o", "out.wav", "--normalize", target], in: folder.path)
        #expect(outcome.status == 64)
        #expect(outcome.stderr == "detent: --normalize '\(target)': expected an integrated loudness in LUFS, -70 … 0 (e.g. -23)\n")
        #expect(outcome.stdout == "")
        #expect(folder.names == ["in.wav"])
    }

    @Test("targets at the ends of the range and with a unit are taken", arguments: ["-70", "0", "-16LUFS", "-23.5 lufs"])
    func goodTarget(target: String) throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", Self.material())
        let outcome = try Detent.run(["render", "in.wav", "-o", "out.wav", "--normalize", target, "--subtype", "float"], in: folder.path)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(folder.names == ["in.wav", "out.wav"])
    }

    @Test("a stream cannot be read twice: --normalize with - or /dev/stdin is refused in one line")
    func stream() throws {
        let folder = TemporaryFolder()
        let input = Self.material()
        for (name, line) in [
            ("-", "detent: --normalize reads its input twice; - (stdin) can be read only once (render it to a file first)\n"),
            ("/dev/stdin", "detent: /dev/stdin: is a stream, which can be read only once; --normalize reads its input twice (render it to a file first)\n"),
        ] {
            let outcome = try ChildProcess.run(try BuiltProducts.detent, ["render", name, "-o", "out.wav", "--normalize", "-23"],
                                               environment: Detent.environment(in: folder.path),
                                               currentDirectory: folder.path, stdin: input)
            #expect(outcome.status.exited == 64)
            #expect(outcome.stderrText == line)
            #expect(folder.names == [])
        }
    }
}

extension LoudnessTests {
    /// Measuring costs several times the render: without `--loudness` (or `--normalize`) the
    /// summary says the figures were not measured, and an over is not looked for.
    @Test("without --loudness nothing is measured")
    func offByDefault() throws {
        let folder = TemporaryFolder()
        try tool("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", "in.wav", "synth", "1", "pinknoise", "vol", "0.3"], in: folder)
        let outcome = try Detent.run(["render", "in.wav", "-o", "out.wav", "--subtype", "float", "--json",
                                      "--set", "resonance=10", "--set", "gain=12dB"], in: folder.path)
        #expect(outcome.status == 0)
        let summary = try jsonObject(outcome.stdout)
        #expect(summary["loudness"] is NSNull && summary["truePeak"] is NSNull, "\(summary)")
        #expect(!outcome.stderr.contains("dBTP"))
    }
}
