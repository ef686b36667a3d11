import TestSupport
import Foundation
import Testing
import Parameters
@testable import OfflineRender
import AudioEngine

@Suite("Offline render")
struct RenderTests {
    static let frames = 12_000
    static let input = [Signal.noise(frames: frames, seed: 1), Signal.noise(frames: frames, seed: 2)]

    /// A timeline in the file format: seconds and samples, default and explicit ramps, jumps,
    /// a retarget mid-glide, events on one frame, and events at block edges.
    static let automationText = """
        # time     parameter  value    ramp
        0          cutoff     300
        0.001s     gain       -12 dB
        4095smp    resonance  6        ramp 1000smp
        4096smp    cutoff     12k
        5000smp    cutoff     80 Hz    ramp 5ms
        8191smp    gain       +6       ramp 0
        8191smp    gain       -3
        0.2s       cutoff     5k       ramp 0
        """

    /// The same timeline as the engine sees it, written out by hand from the file's law
    /// (0.001 s at 48 kHz is frame 48; 5 ms is 240 frames; 0.2 s is frame 9600).
    static let changes = [
        ParameterChange(.cutoff, 300, frame: 0),
        ParameterChange(.gain, -12, frame: 48),
        ParameterChange(.resonance, 6, frame: 4_095, rampFrames: 1_000),
        ParameterChange(.cutoff, 12_000, frame: 4_096),
        ParameterChange(.cutoff, 80, frame: 5_000, rampFrames: 240),
        ParameterChange(.gain, 6, frame: 8_191, rampFrames: 0),
        ParameterChange(.gain, -3, frame: 8_191),
        ParameterChange(.cutoff, 5_000, frame: 9_600, rampFrames: 0),
    ]

    @Test("the rendered file equals the engine's output for the same input, values and events",
          arguments: [IOThreads.inline, .shared, .separate])
    func equalsEngine(ioThreads: IOThreads) throws {
        let folder = TemporaryFolder()
        let inPath = folder.write("in.wav", WAV.float(Self.input))
        let auto = try AutomationParser.parse(Self.automationText, path: "auto.txt", table: LowpassGain.table)
        let result = render(inPath, folder.file("out.wav")) {
            $0.startingValues = [.resonance: 2, .cutoff: 2_000]
            $0.automation = auto
            $0.blockFrames = 1_000
            $0.ioThreads = ioThreads
        }
        #expect(result.error == nil)
        let expected = EngineRun.reference(Self.input, values: [.resonance: 2, .cutoff: 2_000], changes: Self.changes)
        let out = try Decoded(folder.file("out.wav"))
        #expect(out.channels == expected)
        #expect(out.format == AudioFormat(.wav, .float))
        #expect(result.value?.frames == Int64(Self.frames))
        #expect(result.value?.automationEvents == Self.changes.count)
        #expect(result.value?.eventsAfterEnd == 0)
        let peak = expected.joined().map(abs).max()!
        #expect(result.value?.peak == peak)
    }

    @Test("the output is identical for any internal block size and thread layout, dither included")
    func blockSizeIndependence() throws {
        let folder = TemporaryFolder()
        let inPath = folder.write("in.wav", WAV.float(Self.input.map { Array($0.prefix(5_000)) }))
        let auto = try AutomationParser.parse(Self.automationText, path: "auto.txt", table: LowpassGain.table)
        var outputs: [[UInt8]] = []
        for block in [1, 7, 256, 4_096, 65_536, nil] {
            for ioThreads in [IOThreads.inline, .shared, .separate] {
                let out = "out\(block ?? 0)-\(ioThreads).wav"
                let result = render(inPath, folder.file(out)) {
                    $0.automation = auto
                    $0.blockFrames = block
                    $0.subtype = .pcm16
                    $0.ioThreads = ioThreads
                }
                #expect(result.error == nil)
                outputs.append(try folder.bytes(out))
            }
        }
        #expect(outputs.count == 18)
        #expect(outputs.allSatisfy { $0 == outputs[0] })
    }

    @Test("blocks are 16384 frames, or an eighth of a shorter input (a power of two, at least 4096)")
    func automaticBlocks() {
        let cases: [(Int64?, Int)] = [(nil, 16_384), (0, 4_096), (32_768, 4_096), (32_769, 8_192), (48_000, 8_192),
                                      (65_537, 16_384), (131_071, 16_384), (131_072, 16_384), (28_800_000, 16_384)]
        for (length, frames) in cases {
            #expect(RenderSettings.blockFrames(forLength: length) == frames, "\(length.map(String.init) ?? "unknown")")
        }
    }

    /// Jumps of every parameter, and a gain glide (gain moves every sample; cutoff and Q glides
    /// refresh the filter every few frames by the engine's design, so they are tested as jumps).
    @Test("an event at sample N first changes sample N", arguments: [0, 1, 4_095, 4_096, 4_097, 9_999])
    func sampleAccurate(n: Int) throws {
        let folder = TemporaryFolder()
        let noise = [Signal.noise(frames: 10_000, seed: 4)]
        let inPath = folder.write("in.wav", WAV.float(noise))
        _ = render(inPath, folder.file("plain.wav")) { $0.blockFrames = 4_096 }
        for line in ["\(n)smp gain -6 dB ramp 0", "\(n)smp gain -6 dB", "\(n)smp cutoff 200 ramp 0",
                     "\(n)smp resonance 4 ramp 0"] {
            let out = folder.file("moved.wav")
            let result = render(inPath, out) {
                $0.automation = try! AutomationParser.parse(line, path: "a", table: LowpassGain.table)
                $0.blockFrames = 4_096
                $0.overwrite = true
            }
            #expect(result.error == nil)
            let plain = try Decoded(folder.file("plain.wav")).channels[0]
            let moved = try Decoded(out).channels[0]
            #expect(plain.indices.first { plain[$0] != moved[$0] } == n, "\(line)")
        }
    }

    @Test("a time in seconds lands on the nearest frame at the file's own sample rate")
    func secondsAtFileRate() throws {
        let folder = TemporaryFolder()
        let noise = [Signal.noise(frames: 8_000, seed: 6)]
        let inPath = folder.write("in.wav", WAV.float(noise, sampleRate: 44_100))
        _ = render(inPath, folder.file("plain.wav"))
        let result = render(inPath, folder.file("moved.wav")) {
            $0.automation = try! AutomationParser.parse("0.1s gain -6 ramp 0", path: "a", table: LowpassGain.table)
        }
        #expect(result.value?.sampleRate == 44_100)
        let plain = try Decoded(folder.file("plain.wav")).channels[0]
        let moved = try Decoded(folder.file("moved.wav")).channels[0]
        #expect(plain.indices.first { plain[$0] != moved[$0] } == 4_410)
    }

    @Test("events beyond the ring's capacity all arrive at their own frames: none coalesced")
    func floodOfEvents() throws {
        let folder = TemporaryFolder()
        let input = [Signal.noise(frames: 6_000, seed: 5)]
        let inPath = folder.write("in.wav", WAV.float(input))
        // 3000 jumps, one per frame, then 1500 on a single frame (more than the default ring).
        var lines: [String] = []
        var changes: [ParameterChange] = []
        for i in 0..<3_000 {
            let db = Double(i % 13) - 6
            lines.append("\(i)smp gain \(db) ramp 0")
            changes.append(ParameterChange(.gain, db, frame: Int64(i), rampFrames: 0))
        }
        for i in 0..<1_500 {
            let hz = 200 + Double(i)
            lines.append("4000smp cutoff \(hz) ramp \(i % 2 == 0 ? "0" : "100smp")")
            changes.append(ParameterChange(.cutoff, hz, frame: 4_000, rampFrames: i % 2 == 0 ? 0 : 100))
        }
        let result = render(inPath, folder.file("out.wav")) {
            $0.automation = try! AutomationParser.parse(lines.joined(separator: "\n"), path: "a", table: LowpassGain.table)
            $0.blockFrames = 512
        }
        #expect(result.value?.automationEvents == 4_500)
        #expect(try Decoded(folder.file("out.wav")).channels == EngineRun.reference(input, changes: changes))
    }

    @Test("events after the end are counted and reported, not applied")
    func eventsAfterEnd() throws {
        let folder = TemporaryFolder()
        let inPath = folder.write("in.wav", WAV.float([[Float](repeating: 0.1, count: 1_000)]))
        let result = render(inPath, folder.file("out.wav")) {
            $0.automation = try! AutomationParser.parse("999smp gain -6\n1000smp gain -3\n2s cutoff 300", path: "a", table: LowpassGain.table)
        }
        #expect(result.value?.automationEvents == 1)
        #expect(result.value?.eventsAfterEnd == 2)
        #expect(result.value?.warnings == ["\(inPath): 2 automation events fall after its end and were not applied"])
    }

    @Test("NaN and infinity in a valid file render finite, with a warning")
    func nonFiniteInput() throws {
        let folder = TemporaryFolder()
        var x = Signal.noise(frames: 4_000, seed: 9)
        for i in 1_000..<1_010 { x[i] = .nan }
        x[3_000] = .infinity
        let inPath = folder.write("nan.wav", WAV.float([x]))
        let result = render(inPath, folder.file("out.wav")) { $0.blockFrames = 1_024 }
        let out = try Decoded(folder.file("out.wav")).channels[0]
        #expect(out.allSatisfy { $0.isFinite })
        // The engine's contract: non-finite samples become silence. Frames 1000…1009 lie in
        // block 0 (0…1023), frame 3000 in block 2 (2048…3071).
        let clean = x.map { $0.isFinite ? $0 : 0 }
        #expect(out == EngineRun.reference([clean])[0])
        #expect(result.value?.nonFiniteBlocks == 2)
        #expect(result.value?.warnings == ["\(inPath): NaN or infinite samples (in 2 blocks) were rendered as silence"])
    }

    @Test("integer outputs clip, and every clipped sample is counted")
    func clippingCount() throws {
        let folder = TemporaryFolder()
        let input = [Signal.noise(frames: 4_000, seed: 3, amplitude: 0.9)]
        let inPath = folder.write("in.wav", WAV.float(input))
        let result = render(inPath, folder.file("out.wav")) {
            $0.startingValues = [.gain: 12, .cutoff: 20_000]
            $0.subtype = .pcm16
            $0.dither = .none
        }
        // The law: a sample clips when it rounds (ties to even) outside −32768 … 32767.
        let engine = EngineRun.reference(input, values: [.gain: 12, .cutoff: 20_000])[0]
        let expected = engine.filter { x in
            let r = (Double(x) * 32_768).rounded(.toNearestOrEven)
            return r > 32_767 || r < -32_768
        }.count
        #expect(expected > 0)
        #expect(result.value?.clipped == Int64(expected))
        let out = try Decoded(folder.file("out.wav")).channels[0]
        #expect(out.max() == 32_767 / 32_768 && out.min() == -1)
        let peak = engine.map(abs).max()!
        #expect(result.value?.warnings.first == "\(folder.file("out.wav")): \(expected) samples clipped (peak \(RenderSummary.decibels(peak)) dBFS); lower the gain")
    }
}