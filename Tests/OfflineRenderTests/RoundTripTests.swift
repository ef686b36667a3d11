import TestSupport
import Foundation
import Testing
import Parameters
@testable import OfflineRender
import AudioEngine

@Suite("Formats and round trips")
struct RoundTripTests {
    static let input = [Signal.noise(frames: 3_000, seed: 11, amplitude: 0.7), Signal.noise(frames: 3_000, seed: 12, amplitude: 0.7)]
    static let values: [ParameterIndex: Double] = [.cutoff: 5_000, .gain: -1]

    /// What an integer output must hold: the engine's samples rounded (ties to even) to
    /// `bits`, clipped, and read back as k / 2^(bits−1).
    static func quantized(_ x: [[Float]], bits: Int) -> [[Float]] {
        let scale = Double(1 << (bits - 1))
        return x.map { $0.map { Float(min(max((Double($0) * scale).rounded(.toNearestOrEven), -scale), scale - 1) / scale) } }
    }

    @Test("float WAV holds the engine's samples exactly")
    func floatWAV() throws { try check(.wav, .float, expected: EngineRun.reference(Self.input, values: Self.values)) }

    @Test("a float file carries no PEAK chunk (it holds the time of writing), so renders repeat byte for byte")
    func noPeakChunk() throws {
        let folder = TemporaryFolder()
        let inPath = folder.write("in.wav", WAV.float(Self.input))
        _ = render(inPath, folder.file("out.wav"))
        let bytes = try folder.bytes("out.wav")
        let peak = Array("PEAK".utf8)
        #expect(!bytes.indices.dropLast(3).contains { Array(bytes[$0..<$0 + 4]) == peak })
    }

    @Test("WAV, FLAC and AIFF at 24 bits hold the engine's samples rounded to 24 bits",
          arguments: [Container.wav, .flac, .aiff])
    func pcm24(_ container: Container) throws {
        try check(container, .pcm24, expected: Self.quantized(EngineRun.reference(Self.input, values: Self.values), bits: 24))
    }

    @Test("WAV, FLAC and AIFF at 16 bits without dither hold the engine's samples rounded to 16 bits",
          arguments: [Container.wav, .flac, .aiff])
    func pcm16(_ container: Container) throws {
        try check(container, .pcm16, dither: false,
                  expected: Self.quantized(EngineRun.reference(Self.input, values: Self.values), bits: 16))
    }

    @Test("16-bit output with TPDF dither stays within 1.5 steps of the engine's samples and differs from plain rounding")
    func pcm16Dithered() throws {
        let folder = TemporaryFolder()
        let inPath = folder.write("in.wav", WAV.float(Self.input))
        _ = render(inPath, folder.file("out.wav")) { $0.startingValues = Self.values; $0.subtype = .pcm16 }
        let out = try Decoded(folder.file("out.wav")).channels
        let engine = EngineRun.reference(Self.input, values: Self.values)
        let rounded = Self.quantized(engine, bits: 16)
        var differing = 0
        for c in 0..<2 {
            for i in engine[c].indices {
                #expect(abs(Double(out[c][i]) - Double(engine[c][i])) * 32_768 < 1.5)
                if out[c][i] != rounded[c][i] { differing += 1 }
            }
        }
        // Noise samples sit anywhere between two steps (offset uniform in ±½); with triangular
        // dither of ±1 the sum leaves ±½ — a different step from plain rounding — with
        // probability 1/3 (sum of three uniforms of width 1). Expect about 2000 of 6000.
        #expect(differing > 6_000 / 4 && differing < 6_000 / 2)
    }

    func check(_ container: Container, _ subtype: Subtype, dither: Bool = true, expected: [[Float]]) throws {
        let folder = TemporaryFolder()
        let inPath = folder.write("in.wav", WAV.float(Self.input))
        let outPath = folder.file("out." + container.fileExtension)
        let result = render(inPath, outPath) {
            $0.startingValues = Self.values
            $0.container = container
            $0.subtype = subtype
            $0.dither = dither ? .tpdf : .none
        }
        #expect(result.error == nil)
        let out = try Decoded(outPath)
        #expect(out.format.container == container)
        #expect(out.format.subtype == subtype)
        #expect(out.sampleRate == 48_000)
        #expect(out.channels == expected)
    }

    @Test("integer samples read and written at the same depth come back unchanged")
    func integerIdentity() throws {
        let folder = TemporaryFolder()
        let ints: [Int16] = [-32_768, -32_767, -1, 0, 1, 12_345, 32_767]
        let path = folder.write("in.wav", WAV.pcm16([ints]))
        let decoded = try Decoded(path)
        #expect(decoded.channels[0] == ints.map { Float($0) / 32_768 })
        var q = Quantizer(bits: 16, dither: false)
        var out = [Int32](repeating: 0, count: ints.count)
        decoded.channels[0].withUnsafeBufferPointer { samples in
            q.quantize(samples.baseAddress!, count: ints.count, into: &out)
        }
        #expect(out == ints.map { Int32($0) << 16 })
        #expect(q.clipped == 0)
    }

    @Test("the output keeps the input's container, encoding, rate and channel count")
    func keepsFormat() throws {
        let folder = TemporaryFolder()
        let three = (0..<3).map { Signal.noise(frames: 2_000, seed: UInt64(20 + $0)) }
        let wav = folder.write("in.wav", WAV.float(three, sampleRate: 44_100))
        _ = render(wav, folder.file("mid.aiff")) { $0.container = .aiff; $0.subtype = .pcm24 }
        let result = render(folder.file("mid.aiff"), folder.file("out.aiff"))
        let out = try Decoded(folder.file("out.aiff"))
        #expect(out.format == (try Decoded(folder.file("mid.aiff"))).format)
        #expect(out.format.container == .aiff && out.format.subtype == .pcm24)
        #expect(out.sampleRate == 44_100 && out.channels.count == 3)
        #expect(result.value?.format == out.format)
    }

    @Test("a new container that cannot hold the input's encoding gets its preferred one")
    func preferredSubtype() throws {
        let input = AudioFormat(.wav, .float)
        #expect(try AudioFormat.output(for: input, container: .flac, subtype: nil, channels: 2, sampleRate: 48_000)
            == AudioFormat(.flac, .pcm24))
        #expect(try AudioFormat.output(for: input, container: .ogg, subtype: nil, channels: 2, sampleRate: 48_000)
            == AudioFormat(.ogg, .vorbis))
        #expect(try AudioFormat.output(for: AudioFormat(.ogg, .vorbis), container: .wav, subtype: nil, channels: 2, sampleRate: 48_000)
            == AudioFormat(.wav, .float))
        #expect(try AudioFormat.output(for: AudioFormat(.flac, .pcm16), container: .aiff, subtype: nil, channels: 2, sampleRate: 48_000)
            == AudioFormat(.aiff, .pcm16))
        #expect(AudioFormat(.wav, .pcm8).pcmBits == 8)  // unsigned in WAV, still 8 bits
        #expect(throws: FormatRefusal("flac cannot hold float audio")) {
            try AudioFormat.output(for: input, container: .flac, subtype: .float, channels: 2, sampleRate: 48_000)
        }
        // FLAC holds at most 8 channels.
        #expect(throws: FormatRefusal("flac cannot hold 9-channel pcm16 audio")) {
            try AudioFormat.output(for: input, container: .flac, subtype: .pcm16, channels: 9, sampleRate: 48_000)
        }
        #expect(throws: FormatRefusal("flac cannot hold 9-channel audio")) {
            try AudioFormat.output(for: input, container: .flac, subtype: nil, channels: 9, sampleRate: 48_000)
        }
    }
}
