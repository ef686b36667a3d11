import CSndfile

/// How hard the output's encoder works: `--quality` for the lossy codecs, `--bitrate` where a
/// rate can be asked for, `--compression` for FLAC. Nil leaves libsndfile's default.
///
/// libsndfile 1.2.0 has one setting per encoder, SFC_SET_COMPRESSION_LEVEL (0 … 1, 0 the
/// best quality or the fastest encoding; SFC_SET_VBR_ENCODING_QUALITY is 1 minus it), plus
/// SFC_SET_BITRATE_MODE for MP3 alone. What each encoder makes of it, read from its source:
///
/// | output | `--quality Q` (0 … 1) | `--bitrate K` (kbit/s, all channels) | `--compression L` |
/// |---|---|---|---|
/// | Vorbis | libvorbis VBR quality Q (`oggenc -q 10·Q`); default 0.4 | refused: libsndfile sets Vorbis by quality alone | refused |
/// | Opus | target 6 + 250·Q kbit/s per channel, libopus's constrained VBR | that target: 6 … 256 per channel | refused |
/// | MP3 | LAME VBR `-V 10·(1−Q)` (at most V 9.999); default V 4 | constant bit rate, one of MPEG's rates for the sample rate | refused |
/// | FLAC | refused | refused | level L, 0 … 8 as `flac -0` … `-8`; default 5 |
///
/// Every other output is uncompressed or fixed-rate, and refuses all three. The commands are
/// worked out (and refused) before the output is created, and sent by ``SoundFileWriter``
/// after libsndfile opens the file and before the first write, when the encoders still take
/// them.
public struct EncoderSettings: Sendable, Equatable {
    /// 0 … 1, higher is better.
    public var quality: Double?
    /// Kilobits per second for all channels together.
    public var bitrate: Int?
    /// FLAC's compression level, 0 (fastest) … 8 (smallest).
    public var compression: Int?

    public init(quality: Double? = nil, bitrate: Int? = nil, compression: Int? = nil) {
        self.quality = quality
        self.bitrate = bitrate
        self.compression = compression
    }

    public static let qualities = 0.0...1.0
    public static let compressionLevels = 0...8

    /// One libsndfile command.
    public enum Command: Equatable, Sendable {
        /// SFC_SET_VBR_ENCODING_QUALITY: 0 … 1, higher is better.
        case quality(Double)
        /// SFC_SET_COMPRESSION_LEVEL: 0 … 1, lower is better (or faster).
        case compressionLevel(Double)
        /// SFC_SET_BITRATE_MODE (MP3).
        case bitrateMode(Int32)
    }

    /// The commands, in the order to send them, that give `format` these settings.
    ///
    /// - Throws: why the output cannot use a setting (the caller adds the file's name).
    public func commands(for format: AudioFormat, sampleRate: Int, channels: Int) throws(FormatRefusal) -> [Command] {
        let codec = Int(format.subtypeCode)
        let isFLAC = format.majorCode == Int32(SF_FORMAT_FLAC)
        var commands: [Command] = []
        if let quality {
            switch codec {
            case SF_FORMAT_VORBIS, SF_FORMAT_OPUS: commands.append(.quality(quality))
            // LAME refuses V 10 (quality 0) as out of its range, which it takes to be 9.999.
            case SF_FORMAT_MPEG_LAYER_III: commands.append(.quality(max(quality, 0.0001)))
            default:
                throw FormatRefusal("--quality applies to Vorbis, Opus and MP3 outputs, not \(format)"
                    + (isFLAC ? " (FLAC is lossless: --compression sets its level)" : ""))
            }
        }
        if let bitrate {
            switch codec {
            case SF_FORMAT_OPUS:
                // libsndfile sets Opus's target to (6 + 250·(1 − level)) kbit/s per channel.
                let range = 6 * channels...256 * channels
                guard range.contains(bitrate) else {
                    throw FormatRefusal("--bitrate \(bitrate): Opus takes \(range.lowerBound) … \(range.upperBound) kbit/s for \(channels) channel\(channels == 1 ? "" : "s")")
                }
                let perChannel = Double(bitrate) / Double(channels)
                commands.append(.compressionLevel(1 - (perChannel - 6) / 250))
            case SF_FORMAT_MPEG_LAYER_III:
                let (rates, top, bottom) = Self.mp3Rates(sampleRate: sampleRate)
                guard rates.contains(bitrate) else {
                    throw FormatRefusal("--bitrate \(bitrate): MP3 at \(sampleRate) Hz takes "
                        + rates.map(String.init).joined(separator: ", ") + " kbit/s")
                }
                // libsndfile picks (int)(top − level·(top − bottom)) kbit/s; aim at the middle of
                // the step so that the truncation lands on the rate asked for. The level must be
                // set first: changing the mode re-applies it.
                let level = max(0, (Double(top - bitrate) - 0.5) / Double(top - bottom))
                commands += [.compressionLevel(level), .bitrateMode(Int32(SF_BITRATE_MODE_CONSTANT))]
            case SF_FORMAT_VORBIS:
                throw FormatRefusal("--bitrate: libsndfile encodes Vorbis by quality alone; use --quality")
            default:
                throw FormatRefusal("--bitrate applies to MP3 and Opus outputs, not \(format)")
            }
        }
        if let compression {
            guard isFLAC else {
                throw FormatRefusal("--compression applies to FLAC outputs, not \(format)"
                    + (format.isLossy ? " (--quality sets a lossy encoder's)" : ""))
            }
            commands.append(.compressionLevel(Double(compression) / 8))
        }
        return commands
    }

    /// The bit rates LAME encodes at `sampleRate` that libsndfile's mapping reaches, and the
    /// top and bottom of that mapping: MPEG-1 from 32 kHz, MPEG-2 from 16 kHz, MPEG-2.5 below.
    static func mp3Rates(sampleRate: Int) -> (rates: [Int], top: Int, bottom: Int) {
        if sampleRate >= 32_000 { return ([32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320], 320, 32) }
        let lowSampling = [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        if sampleRate >= 16_000 { return (lowSampling, 160, 8) }
        return (lowSampling.filter { $0 <= 64 }, 64, 8)
    }

    /// Sends `commands` to an open file; the first one libsndfile refuses, named.
    static func send(_ commands: [Command], to file: OpaquePointer) -> String? {
        // Each answers SF_TRUE when taken (and SF_FALSE or an error code when not).
        func send<Value: BitwiseCopyable>(_ command: Int, _ value: Value) -> Bool {
            var value = value
            return Int(sf_command(file, Int32(command), &value, Int32(MemoryLayout<Value>.size))) == SF_TRUE
        }
        for command in commands {
            switch command {
            case .quality(let value):
                if !send(SFC_SET_VBR_ENCODING_QUALITY, value) { return "SFC_SET_VBR_ENCODING_QUALITY \(value)" }
            case .compressionLevel(let value):
                if !send(SFC_SET_COMPRESSION_LEVEL, value) { return "SFC_SET_COMPRESSION_LEVEL \(value)" }
            case .bitrateMode(let mode):
                if !send(SFC_SET_BITRATE_MODE, mode) { return "SFC_SET_BITRATE_MODE \(mode)" }
            }
        }
        return nil
    }
}
