import OfflineRender
import Foundation
import Testing
import TestSupport

/// `render --bpm`: plug-ins that read the transport's position (LV2 `time:Position`) are told
/// the tempo, the transport rolling from the first frame. zam's delay, synced to the beat with a
/// divisor of 1, echoes a whole 4/4 bar later: 2 s at 120 bpm, 2.667 s at 90.
@Suite("detent: render --bpm")
struct TempoTests {
    static let delay = "urn:zamaudio:ZamDelay"

    /// The frame of the largest sample in `range`.
    static func loudest(_ samples: [Float], in range: Range<Int>) -> Int {
        var best = range.lowerBound
        for i in range where abs(samples[i]) > abs(samples[best]) { best = i }
        return best
    }

    @Test("a tempo-synced delay echoes a bar later at the tempo given, and at its own fallback without one")
    func delayFollowsTheTempo() throws {
        let folder = TemporaryFolder()
        var impulse = [Float](repeating: 0, count: 48_000 * 3)
        impulse[100] = 0.9
        folder.write("impulse.wav", WAV.float([impulse]))
        var echoes: [String: Int] = [:]
        for bpm in ["120", "90", "none"] {
            let outcome = try Detent.run(["render", "impulse.wav", "--plugin", Self.delay, "--set", "sync=on", "--set", "div=1",
                                          "--set", "drywet=1", "-o", "out-\(bpm).wav", "--subtype", "float", "--quiet"]
                                         + (bpm == "none" ? [] : ["--bpm", bpm]), in: folder.path)
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let samples = try decode(folder.file("out-\(bpm).wav")).samples
            // The impulse through the delay's filter, then its echo.
            let direct = Self.loudest(samples, in: 0..<1_000)
            echoes[bpm] = Self.loudest(samples, in: 1_000..<samples.count) - direct
        }
        #expect(echoes["120"] == 96_000, "a bar at 120 bpm is 2 s")
        #expect(echoes["90"] == 128_000, "a bar at 90 bpm is 2.667 s")
        #expect(echoes["none"] != 96_000 && echoes["none"] != 128_000)
    }

    @Test("a tempo out of range is one line and status 64", arguments: ["0", "1000", "-5", "nan"])
    func badTempo(bpm: String) throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([[Float](repeating: 0, count: 100)]))
        let outcome = try Detent.run(["render", "in.wav", "--bpm", bpm, "-o", "out.wav"], in: folder.path)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.split(separator: "\n").count == 1 && outcome.stderr.contains("--bpm"), "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("out.wav")))
    }
}
