import CSndfile

/// The 4 GiB limit of containers whose headers count bytes in 32 bits (WAV, AIFF), decided
/// before anything is rendered, from frames × channels × bytes per sample.
///
/// Past the limit libsndfile does not fail: it writes the whole file and wraps the sizes in
/// its header, so that readers see a fraction of it (a 5.5 GB render plays for 26 minutes).
/// So a WAV output that may pass the limit is written as RF64 — the same file for every
/// reader when it stays small, because libsndfile then writes it as WAV
/// (`SFC_RF64_AUTO_DOWNGRADE`) — and an AIFF output that would pass it is refused.
///
/// ```swift
/// // 2 h of 96 kHz stereo float: 5.5 GB of audio
/// let plan = try SizeLimit.plan(AudioFormat(.wav, .float), frames: 691_200_000, channels: 2)
/// plan.format.container   // .rf64
/// ```
public enum SizeLimit {
    /// Bytes of audio a 32-bit header can describe, with room for the header and metadata
    /// chunks that are counted in the same size field.
    public static let bytes: Int64 = 0xFFFF_FFFF - 1 << 20

    /// The format to write, and how libsndfile is told to write it.
    public struct Plan: Equatable, Sendable {
        public var format: AudioFormat
        /// RF64 chosen in place of WAV: written as WAV when it ends up small.
        public var autoDowngrade: Bool
        /// Frames beyond which writing fails instead of wrapping the header's sizes (an
        /// output of unknown length in a container that cannot grow past the limit).
        public var frameLimit: Int64?
    }

    /// The plan for `format` holding at most `frames` frames (nil: unknown, a stream).
    ///
    /// - Throws: a refusal naming the sizes when a container that cannot grow past the limit
    ///   would have to.
    public static func plan(_ format: AudioFormat, frames: Int64?, channels: Int) throws(FormatRefusal) -> Plan {
        let bytesPerFrame = Int64(bytesPerSample(format)) * Int64(channels)
        let needed = frames.map { $0.multipliedReportingOverflow(by: bytesPerFrame) }
            .map { $0.overflow ? Int64.max : $0.partialValue }
        let fits = needed.map { $0 <= bytes } ?? false
        switch Int(format.majorCode) {
        case SF_FORMAT_WAV, SF_FORMAT_WAVEX:
            if fits { return Plan(format: format, autoDowngrade: false, frameLimit: bytes / max(1, bytesPerFrame)) }
            return Plan(format: AudioFormat(code: Int32(SF_FORMAT_RF64) | format.subtypeCode), autoDowngrade: true, frameLimit: nil)
        case SF_FORMAT_AIFF, SF_FORMAT_AU:
            if let needed, !fits {
                throw FormatRefusal("\(format.containerName) holds at most 4 GiB of audio but this render needs "
                    + gigabytes(needed) + "; use --format rf64, w64 or caf")
            }
            return Plan(format: format, autoDowngrade: false, frameLimit: bytes / max(1, bytesPerFrame))
        default:
            return Plan(format: format, autoDowngrade: false, frameLimit: nil)
        }
    }

    /// Bytes one sample takes in the data chunk; 2 for encodings not listed (ADPCM and other
    /// compressed encodings take less, so the decision errs on the safe side).
    static func bytesPerSample(_ format: AudioFormat) -> Int {
        switch Int(format.subtypeCode) {
        case SF_FORMAT_PCM_S8, SF_FORMAT_PCM_U8, SF_FORMAT_ULAW, SF_FORMAT_ALAW: 1
        case SF_FORMAT_PCM_16: 2
        case SF_FORMAT_PCM_24: 3
        case SF_FORMAT_PCM_32, SF_FORMAT_FLOAT: 4
        case SF_FORMAT_DOUBLE: 8
        default: 2
        }
    }

    /// `5.5 GB`: decimal gigabytes with one decimal, as file managers show sizes.
    static func gigabytes(_ bytes: Int64) -> String {
        let tenths = Int64((Double(bytes) / 1e8).rounded())
        return "\(tenths / 10).\(tenths % 10) GB"
    }
}
