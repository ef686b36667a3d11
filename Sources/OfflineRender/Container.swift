import CSndfile

/// The file containers `--format` names. Inputs may be in any container libsndfile reads;
/// these are the ones an output can be asked for by name.
///
/// `opus` is Ogg holding Opus (libsndfile's `SF_FORMAT_OGG | SF_FORMAT_OPUS`): not a container
/// of its own, but the name people give `.opus` files, so `--format opus` means what
/// `-o take.opus` already did. A file read back is Ogg (``init(code:)`` finds `ogg` first).
public enum Container: String, CaseIterable, Sendable {
    case wav, wavex, aiff, au, caf, flac, ogg, opus, w64, rf64, mp3

    /// libsndfile's major format code.
    public var code: Int32 {
        let major: Int
        switch self {
        case .wav: major = SF_FORMAT_WAV
        case .wavex: major = SF_FORMAT_WAVEX
        case .aiff: major = SF_FORMAT_AIFF
        case .au: major = SF_FORMAT_AU
        case .caf: major = SF_FORMAT_CAF
        case .flac: major = SF_FORMAT_FLAC
        case .ogg, .opus: major = SF_FORMAT_OGG
        case .w64: major = SF_FORMAT_W64
        case .rf64: major = SF_FORMAT_RF64
        case .mp3: major = SF_FORMAT_MPEG
        }
        return Int32(major)
    }

    /// The extension a new file of this container gets.
    public var fileExtension: String {
        switch self {
        case .wavex: "wav"
        default: rawValue
        }
    }

    /// Extensions that name this container, for choosing a container from `-o out.flac`.
    var extensions: [String] {
        switch self {
        case .wav: ["wav", "wave"]
        case .wavex: []
        case .aiff: ["aiff", "aif", "aifc"]
        case .au: ["au", "snd"]
        case .ogg: ["ogg", "oga"]
        default: [rawValue]
        }
    }

    /// Extensions a file of this container may have when `--format` names it: its own,
    /// `.wav` for RF64, whose files usually carry it (readers look at the header), and either
    /// Ogg spelling for Ogg and Opus, which are one container (`--format ogg -o take.opus` is
    /// Opus, as `-o take.opus` is).
    var acceptedExtensions: [String] {
        let shared: [String] = switch self {
        case .rf64: ["wav", "wave"]
        case .ogg: Container.opus.extensions
        case .opus: Container.ogg.extensions
        default: []
        }
        return extensions + [fileExtension] + shared
    }

    /// The container named by a file extension (case-insensitive), if any.
    public init?(fileExtension ext: String) {
        let e = ext.lowercased()
        guard let found = Container.allCases.first(where: { $0.extensions.contains(e) }) else { return nil }
        self = found
    }

    /// The container whose major code is `code`, if it is one of the named ones.
    init?(code: Int32) {
        guard let found = Container.allCases.first(where: { $0.code == code }) else { return nil }
        self = found
    }

    /// Containers libsndfile writes whole to a pipe: their headers do not count the audio
    /// that follows, so they never have to be gone back to. (FLAC is not one: libsndfile
    /// appends the completed stream header at the end where it cannot seek back.)
    public static let streaming: [Container] = [.au, .ogg, .mp3]

    /// The encoding a new file of this container gets when the input's does not fit in it.
    var preferredSubtype: Subtype {
        switch self {
        case .flac: .pcm24
        case .ogg: .vorbis
        case .opus: .opus
        case .mp3: .mp3
        default: .float
        }
    }
}
