import Testing
import TestSupport
import Glibc
@testable import OfflineRender

/// The meter against the definitions in EBU Tech 3341 (the compliance signals of EBU R128):
/// a 1 kHz sine at −23 dBFS in both channels of a stereo file is −23 LUFS, and a sine at a
/// quarter of the sample rate sampled 45° off its crests peaks 3 dB above its samples.
@Suite("Loudness meter")
struct LoudnessMeterTests {
    /// Feeds `channels` (one array each, interleaved here) in blocks of `block` frames.
    static func measure(_ channels: [[Float]], sampleRate: Int = 48_000, block: Int = 4_096,
                        measures: LoudnessMeter.Measures = .truePeak) -> LoudnessMeter {
        let meter = LoudnessMeter(channels: channels.count, sampleRate: sampleRate, measures: measures)
        let frames = channels[0].count
        var interleaved = [Float](repeating: 0, count: frames * channels.count)
        for f in 0..<frames { for c in channels.indices { interleaved[f * channels.count + c] = channels[c][f] } }
        interleaved.withUnsafeBufferPointer { all in
            var f = 0
            while f < frames {
                let n = min(block, frames - f)
                meter.add(interleaved: all.baseAddress! + f * channels.count, frames: n)
                f += n
            }
        }
        return meter
    }

    @Test("a stereo 1 kHz sine at -23 dBFS is -23 LUFS (Tech 3341, case 1), in any block size", arguments: [1, 1_000, 16_384])
    func stereoSine(block: Int) {
        let amplitude = pow(10, -23.0 / 20)
        let sine = Signal.sine(frequency: 1_000, frames: 20 * 48_000, amplitude: amplitude)
        let meter = Self.measure([sine, sine], block: block)
        let loudness = meter.integrated ?? .nan
        #expect(abs(loudness + 23) <= 0.1, "\(loudness) LUFS")
        let truePeak = 20 * log10(meter.truePeak ?? 0)
        #expect(abs(truePeak + 23) <= 0.1, "\(truePeak) dBTP")
    }

    @Test("a true peak between samples: fs/4 sampled 45° off its crests peaks 3 dB above its samples")
    func intersamplePeak() {
        // Samples of ±0.5 (−6 dBFS); the sine through them has amplitude 0.5·√2 (−3 dBTP).
        let samples = (0..<(5 * 48_000)).map { Float(0.5 * 2.0.squareRoot() * sin(.pi / 2 * Double($0) + .pi / 4)) }
        let meter = Self.measure([samples])
        let truePeak = 20 * log10(meter.truePeak ?? 0)
        // Tech 3341's tolerance for true-peak meters: +0.2 / −0.4 dB.
        #expect(truePeak >= -3.01 - 0.4 && truePeak <= -3.01 + 0.2, "\(truePeak) dBTP")
        #expect(samples.map(abs).max()! < 0.51)
    }

    @Test("silence has no loudness and a true peak of 0; a meter told to measure nothing reports nothing")
    func silenceAndNone() {
        let silent = Self.measure([[Float](repeating: 0, count: 48_000)])
        #expect(silent.integrated == nil)
        #expect(silent.truePeak == 0)
        let none = Self.measure([Signal.noise(frames: 48_000)], measures: .none)
        #expect(none.integrated == nil && none.truePeak == nil)
        let integrated = Self.measure([Signal.noise(frames: 48_000)], measures: .integrated)
        #expect(integrated.integrated != nil && integrated.truePeak == nil)
    }
}

extension LoudnessMeterTests {
    @Test("gain(toReach:) counts the gates: a fresh meter measures the target on the audio times that gain",
          arguments: [-23.0, -40, -6])
    func gainToReach(target: Double) throws {
        // Loud noise (about -10 LUFS), a stretch 14 dB down, and a long one near -68 LUFS. At
        // gain 0 the quiet blocks pass the absolute gate, pull the relative gate below the
        // middle stretch and so count it in; once a gain takes them under -70 LUFS, the
        // relative gate rises above the middle stretch: a gain of target − loudness misses by
        // about 3 LU.
        let signal = Signal.noise(frames: 2 * 48_000, seed: 3, amplitude: 0.5)
            + Signal.noise(frames: 2 * 48_000, seed: 4, amplitude: 0.1)
            + Signal.noise(frames: 6 * 48_000, seed: 5, amplitude: 0.0006)
        let meter = LoudnessMeter(channels: 1, sampleRate: 48_000, recordsBlocks: true)
        signal.withUnsafeBufferPointer { meter.add(interleaved: $0.baseAddress!, frames: $0.count) }
        let gain = try #require(meter.gain(toReach: target))
        let factor = Float(pow(10, gain / 20))
        let check = Self.measure([signal.map { $0 * factor }], block: 777)
        let reached = try #require(check.integrated)
        // libebur128's histogram (0.1 dB bins) allows 0.05 LU.
        #expect(abs(reached - target) <= 0.05, "\(reached) LUFS after \(gain) dB")
        #expect(meter.gain(toReach: target).map { abs($0 - gain) < 1e-12 } == true)
    }
}
