import CSndfile
import Testing
@testable import OfflineRender

/// The 4 GiB decision, made from frames × channels × bytes per sample before rendering.
@Suite("Outputs past 4 GiB")
struct SizeLimitTests {
    static let twoHours96k: Int64 = 2 * 3_600 * 96_000

    @Test("2 h of 96 kHz stereo float (5.5 GB) to WAV is RF64; a small one stays WAV")
    func wav() throws {
        var settings = RenderSettings()
        settings.tail = .seconds(2)
        let frames = try #require(settings.mostFrames(input: Self.twoHours96k, sampleRate: 96_000))
        #expect(frames == Self.twoHours96k + 2 * 96_000 + 96_000)
        let big = try SizeLimit.plan(AudioFormat(.wav, .float), frames: frames, channels: 2)
        #expect(big.format == AudioFormat(.rf64, .float))
        #expect(big.autoDowngrade)
        // Not WAVE_FORMAT_EXTENSIBLE either: its header has the same 32-bit sizes.
        #expect(try SizeLimit.plan(AudioFormat(.wavex, .pcm24), frames: frames, channels: 6).format == AudioFormat(.rf64, .pcm24))
        let small = try SizeLimit.plan(AudioFormat(.wav, .pcm16), frames: 48_000 * 60, channels: 2)
        #expect(small.format == AudioFormat(.wav, .pcm16))
        #expect(!small.autoDowngrade)
        #expect(small.frameLimit == SizeLimit.bytes / 4)
    }

    @Test("the limit itself: one frame past it is RF64")
    func edge() throws {
        let frames = SizeLimit.bytes / 8
        #expect(try SizeLimit.plan(AudioFormat(.wav, .float), frames: frames, channels: 2).format.container == .wav)
        #expect(try SizeLimit.plan(AudioFormat(.wav, .float), frames: frames + 1, channels: 2).format.container == .rf64)
    }

    @Test("a stream of unknown length to WAV is RF64, written as WAV when it stays small")
    func stream() throws {
        let plan = try SizeLimit.plan(AudioFormat(.wav, .pcm16), frames: nil, channels: 2)
        #expect(plan.format.container == .rf64 && plan.autoDowngrade)
    }

    @Test("AIFF past 4 GiB is refused before rendering; of unknown length it stops at the limit")
    func aiff() throws {
        #expect(throws: FormatRefusal("aiff holds at most 4 GiB of audio but this render needs 5.5 GB; use --format rf64, w64 or caf")) {
            try SizeLimit.plan(AudioFormat(.aiff, .float), frames: Self.twoHours96k, channels: 2)
        }
        #expect(try SizeLimit.plan(AudioFormat(.aiff, .pcm16), frames: nil, channels: 2).frameLimit == SizeLimit.bytes / 4)
        #expect(try SizeLimit.plan(AudioFormat(.flac, .pcm24), frames: Self.twoHours96k * 10, channels: 8).frameLimit == nil)
    }
}
