import CSndfile

/// The sample encodings `--subtype` names. Inputs may use any encoding libsndfile reads;
/// an output keeps the input's encoding when its container can hold it.
public enum Subtype: String, CaseIterable, Sendable {
    case pcm8, pcm16, pcm24, pcm32, float, double, ulaw, alaw, vorbis, opus, mp3

    /// libsndfile's subtype codes that this name stands for, the preferred one first
    /// (8-bit PCM is unsigned in WAV and signed elsewhere).
    var codes: [Int32] {
        let raw: [Int]
        switch self {
        case .pcm8: raw = [SF_FORMAT_PCM_S8, SF_FORMAT_PCM_U8]
        case .pcm16: raw = [SF_FORMAT_PCM_16]
        case .pcm24: raw = [SF_FORMAT_PCM_24]
        case .pcm32: raw = [SF_FORMAT_PCM_32]
        case .float: raw = [SF_FORMAT_FLOAT]
        case .double: raw = [SF_FORMAT_DOUBLE]
        case .ulaw: raw = [SF_FORMAT_ULAW]
        case .alaw: raw = [SF_FORMAT_ALAW]
        case .vorbis: raw = [SF_FORMAT_VORBIS]
        case .opus: raw = [SF_FORMAT_OPUS]
        case .mp3: raw = [SF_FORMAT_MPEG_LAYER_III]
        }
        return raw.map { Int32($0) }
    }

    /// The name of a libsndfile subtype code, if it is one of these.
    init?(code: Int32) {
        guard let found = Subtype.allCases.first(where: { $0.codes.contains(code) }) else { return nil }
        self = found
    }
}
