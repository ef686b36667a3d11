import CSndfile
import Testing
@testable import OfflineRender

@Suite("EncoderSettings")
struct EncoderSettingsTests {
    static let vorbis = AudioFormat(.ogg, .vorbis), opus = AudioFormat(.ogg, .opus), mp3 = AudioFormat(.mp3, .mp3)
    static let flac = AudioFormat(.flac, .pcm16), wav = AudioFormat(.wav, .pcm16)

    func commands(_ settings: EncoderSettings, _ format: AudioFormat, rate: Int = 48_000, channels: Int = 2) throws -> [EncoderSettings.Command] {
        try settings.commands(for: format, sampleRate: rate, channels: channels)
    }

    @Test("--bitrate for MP3 lands on every MPEG rate through libsndfile's mapping, in constant mode",
          arguments: [8_000, 11_025, 16_000, 22_050, 32_000, 44_100, 48_000])
    func mp3Rates(sampleRate: Int) throws {
        // libsndfile 1.2.0's mpeg_l3_encoder_set_quality: (int)(top − level·(top − bottom)).
        let (top, bottom) = sampleRate >= 32_000 ? (320.0, 32.0) : sampleRate >= 16_000 ? (160, 8) : (64, 8)
        let rates = EncoderSettings.mp3Rates(sampleRate: sampleRate).rates
        #expect(rates.first == Int(bottom) && rates.last == Int(top))
        for rate in rates {
            let sent = try commands(EncoderSettings(bitrate: rate), Self.mp3, rate: sampleRate)
            guard case .compressionLevel(let level) = sent.first, sent.count == 2 else {
                Issue.record("\(rate): \(sent)")
                continue
            }
            #expect((0...1).contains(level))
            #expect(Int(top - level * (top - bottom)) == rate, "\(rate) kbit/s at \(sampleRate) Hz")
            #expect(sent.last == .bitrateMode(Int32(SF_BITRATE_MODE_CONSTANT)), "the mode after the level, which it re-applies")
        }
        #expect(throws: FormatRefusal.self) { try commands(EncoderSettings(bitrate: 100), Self.mp3, rate: sampleRate) }
    }

    @Test("--bitrate for Opus is libsndfile's target of (6 + 250·(1 − level)) kbit/s per channel", arguments: [1, 2, 6])
    func opusRates(channels: Int) throws {
        for rate in [6 * channels, 64, 96, 128, 256 * channels] where rate >= 6 * channels && rate <= 256 * channels {
            let sent = try commands(EncoderSettings(bitrate: rate), Self.opus, channels: channels)
            guard case .compressionLevel(let level) = sent.first, sent.count == 1 else {
                Issue.record("\(rate): \(sent)")
                continue
            }
            let target = Int((1 - level) * 250_000 + 6_000) * channels  // as ogg_opus_command computes it
            #expect(abs(target - rate * 1_000) <= channels, "\(rate) kbit/s, \(channels) channels: \(target) bit/s")
        }
        #expect(throws: FormatRefusal.self) { try commands(EncoderSettings(bitrate: 6 * channels - 1), Self.opus, channels: channels) }
        #expect(throws: FormatRefusal.self) { try commands(EncoderSettings(bitrate: 256 * channels + 1), Self.opus, channels: channels) }
    }

    @Test("--compression L is FLAC level L; --quality Q is libsndfile's VBR quality Q, above 0 for LAME")
    func levelsAndQualities() throws {
        for level in 0...8 {
            guard case .compressionLevel(let sent)? = try commands(EncoderSettings(compression: level), Self.flac).first else {
                Issue.record("level \(level)")
                continue
            }
            #expect(Int((sent * 8).rounded()) == level)  // libsndfile: lrint(level · 8)
        }
        #expect(try commands(EncoderSettings(quality: 0.3), Self.vorbis) == [.quality(0.3)])
        #expect(try commands(EncoderSettings(quality: 0.3), Self.opus) == [.quality(0.3)])
        #expect(try commands(EncoderSettings(quality: 0.3), Self.mp3) == [.quality(0.3)])
        // LAME's VBR quality is 10·(1 − Q), and it refuses 10.
        guard case .quality(let q)? = try commands(EncoderSettings(quality: 0), Self.mp3).first else {
            Issue.record("mp3 quality 0")
            return
        }
        #expect(q > 0 && 10 * (1 - q) >= 9.99)
        #expect(try commands(EncoderSettings(), Self.wav).isEmpty)
    }

    @Test("settings a format cannot use are refused with the reason", arguments: [
        (EncoderSettings(compression: 5), EncoderSettingsTests.wav, "--compression applies to FLAC outputs, not wav pcm16"),
        (EncoderSettings(compression: 5), EncoderSettingsTests.vorbis, "--compression applies to FLAC outputs, not ogg vorbis (--quality"),
        (EncoderSettings(quality: 0.5), EncoderSettingsTests.flac, "--quality applies to Vorbis, Opus and MP3 outputs, not flac pcm16 (FLAC is lossless"),
        (EncoderSettings(quality: 0.5), EncoderSettingsTests.wav, "--quality applies to Vorbis, Opus and MP3 outputs, not wav pcm16"),
        (EncoderSettings(bitrate: 128), EncoderSettingsTests.vorbis, "--bitrate: libsndfile encodes Vorbis by quality alone; use --quality"),
        (EncoderSettings(bitrate: 128), EncoderSettingsTests.flac, "--bitrate applies to MP3 and Opus outputs, not flac pcm16"),
        (EncoderSettings(bitrate: 100), EncoderSettingsTests.mp3, "--bitrate 100: MP3 at 48000 Hz takes 32, 40,"),
        (EncoderSettings(bitrate: 600), EncoderSettingsTests.opus, "--bitrate 600: Opus takes 12 … 512 kbit/s for 2 channels"),
    ] as [(EncoderSettings, AudioFormat, String)])
    func refusals(settings: EncoderSettings, format: AudioFormat, reason: String) {
        #expect {
            try commands(settings, format)
        } throws: { error in
            (error as? FormatRefusal)?.reason.hasPrefix(reason) == true
        }
    }
}
