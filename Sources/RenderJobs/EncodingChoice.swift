import OfflineRender
import Rig

/// How a render's samples are encoded beyond the format: the dither of 16-bit (and smaller)
/// outputs and the settings of encoders that have them (`--dither`, `--no-dither`,
/// `--quality`, `--bitrate`, `--compression`). Values are checked here; whether the output's
/// format can use them is known per file, once its format is
/// (``EncoderSettings/commands(for:sampleRate:channels:)``).
package struct EncodingChoice: Sendable, Equatable {
    package var dither: String?
    package var noDither = false
    package var quality: Double?
    package var bitrate: Int?
    package var compression: Int?

    package init(dither: String? = nil, noDither: Bool = false, quality: Double? = nil, bitrate: Int? = nil, compression: Int? = nil) {
        self.dither = dither
        self.noDither = noDither
        self.quality = quality
        self.bitrate = bitrate
        self.compression = compression
    }

    /// The usage errors these settings can make alone.
    package func validate() throws(UsageError) {
        _ = try ditherMode
        if let quality, !EncoderSettings.qualities.contains(quality) {
            throw UsageError("--quality \(quality): must be a number from 0 to 1")
        }
        if let bitrate, bitrate < 1 { throw UsageError("--bitrate \(bitrate): must be a positive number of kbit/s") }
        if let compression, !EncoderSettings.compressionLevels.contains(compression) {
            throw UsageError("--compression \(compression): must be a FLAC level from 0 to 8")
        }
        if quality != nil && bitrate != nil {
            throw UsageError("--quality and --bitrate both set the encoder's rate; give one of them")
        }
    }

    /// `--dither`, by name in any case, or `--no-dither`.
    package var ditherMode: Dither {
        get throws(UsageError) {
            guard let dither else { return noDither ? .none : .tpdf }
            let mode = try Dither.named(dither, option: "--dither")
            if noDither && mode != .none {
                throw UsageError("--no-dither and --dither \(mode.rawValue) contradict each other")
            }
            return mode
        }
    }

    package var settings: EncoderSettings { EncoderSettings(quality: quality, bitrate: bitrate, compression: compression) }
}

extension CaseIterable where Self: RawRepresentable<String> {
    /// The value named `name` in any case, or the usage error naming `option` and the names
    /// it knows.
    package static func named(_ name: String, option: String) throws(UsageError) -> Self {
        guard let value = Self(rawValue: name.lowercased()) else {
            throw UsageError("\(option) '\(name)': unknown (known: \(allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return value
    }
}
