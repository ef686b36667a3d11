import ArgumentParser
import OfflineRender
import RenderJobs

/// `detent render`'s options for how samples are encoded, beyond the format (``EncodingChoice``,
/// which checks them).
struct EncodingOptions: ParsableArguments {
    // Taken as text and checked with the render's other options, like `--format`: an unknown
    // name is told in Detent's words.
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

    /// What these options choose.
    var choice: EncodingChoice {
        EncodingChoice(dither: dither, noDither: noDither, quality: quality, bitrate: bitrate, compression: compression)
    }
}
