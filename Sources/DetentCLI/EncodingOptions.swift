import ArgumentParser
import OfflineRender

/// `detent render`'s options for how samples are encoded, beyond the format: the dither of
/// 16-bit (and smaller) outputs and the settings of encoders that have them. Values are
/// checked here; whether the output's format can use them is known per file, once its format
/// is (``EncoderSettings/commands(for:sampleRate:channels:)``).
struct EncodingOptions: ParsableArguments {
    // Taken as text and resolved by `validate()`, like `--format`: an unknown name is told
    // in Detent's words.
    @Option(help: ArgumentHelp(
        "Dither of integer outputs of 16 bits or fewer: tpdf (default; ±1 LSB triangular noise), shaped (TPDF with F-weighted noise shaping: less noise at 1-5 kHz, more above 15 kHz; 44.1 and 48 kHz, plain TPDF at other rates), none.",
        valueName: "tpdf|shaped|none"), completion: .list(Dither.allCases.map(\.rawValue)))
    var dither: String?

    @Flag(name: .customLong("no-dither"), help: "The same as --dither none.")
    var noDither = false

    @Option(help: ArgumentHelp(
        "Lossy encoder quality, 0 … 1, higher is better: Vorbis quality (oggenc -q 10·Q), Opus target 6 + 250·Q kbit/s per channel, MP3 LAME VBR -V 10·(1-Q).",
        valueName: "q"))
    var quality: Double?

    @Option(help: ArgumentHelp(
        "Bit rate in kbit/s, all channels: MP3 constant bit rate (an MPEG rate: 32, 40, … 320 at 32 kHz and up), Opus target rate (6 … 256 per channel).",
        valueName: "kbps"))
    var bitrate: Int?

    @Option(help: ArgumentHelp(
        "FLAC compression level, 0 (fastest) … 8 (smallest), as flac -0 … -8; default 5. Lossless at every level.",
        valueName: "level"))
    var compression: Int?

    func validate() throws {
        _ = try ditherMode
        if let quality, !EncoderSettings.qualities.contains(quality) {
            throw ValidationError("--quality \(quality): must be a number from 0 to 1")
        }
        if let bitrate, bitrate < 1 { throw ValidationError("--bitrate \(bitrate): must be a positive number of kbit/s") }
        if let compression, !EncoderSettings.compressionLevels.contains(compression) {
            throw ValidationError("--compression \(compression): must be a FLAC level from 0 to 8")
        }
        if quality != nil && bitrate != nil {
            throw ValidationError("--quality and --bitrate both set the encoder's rate; give one of them")
        }
    }

    /// `--dither`, by name in any case, or `--no-dither`.
    var ditherMode: Dither {
        get throws(ValidationError) {
            guard let dither else { return noDither ? .none : .tpdf }
            let mode = try Dither.named(dither, option: "--dither")
            if noDither && mode != .none {
                throw ValidationError("--no-dither and --dither \(mode.rawValue) contradict each other")
            }
            return mode
        }
    }

    var settings: EncoderSettings { EncoderSettings(quality: quality, bitrate: bitrate, compression: compression) }
}

extension Dither: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
