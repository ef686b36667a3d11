import CSndfile

/// A libsndfile format code (container | encoding | byte order), with the rules for choosing
/// an output's format from its input's.
///
/// Codes that have no name in ``Container`` or ``Subtype`` are kept as they are: an input in
/// IMA ADPCM or NIST Sphere is written back in the same format unless told otherwise.
public struct AudioFormat: Equatable, Sendable, CustomStringConvertible {
    public var code: Int32

    public init(code: Int32) { self.code = code }

    public init(_ container: Container, _ subtype: Subtype) {
        code = container.code | subtype.codes[0]
        if let fitting = subtype.codes.first(where: { Self.check(container.code | $0, channels: 1, sampleRate: 48_000) }) {
            code = container.code | fitting
        }
    }

    var majorCode: Int32 { code & Int32(SF_FORMAT_TYPEMASK) }
    var subtypeCode: Int32 { code & Int32(SF_FORMAT_SUBMASK) }

    public var container: Container? { Container(code: majorCode) }
    public var subtype: Subtype? { Subtype(code: subtypeCode) }

    /// Bits per sample of the linear PCM encodings that the renderer quantises itself (with
    /// clipping counted and optional dither) and hands to libsndfile as left-justified
    /// 32-bit integers; `nil` for every other encoding.
    public var pcmBits: Int? {
        switch Int(subtypeCode) {
        case SF_FORMAT_PCM_S8, SF_FORMAT_PCM_U8: 8
        case SF_FORMAT_PCM_16: 16
        case SF_FORMAT_PCM_24: 24
        case SF_FORMAT_PCM_32: 32
        default: nil
        }
    }

    /// True for the lossy codecs (Vorbis, Opus, MPEG layers), which belong to their own
    /// containers.
    var isLossy: Bool {
        [SF_FORMAT_VORBIS, SF_FORMAT_OPUS, SF_FORMAT_MPEG_LAYER_I, SF_FORMAT_MPEG_LAYER_II, SF_FORMAT_MPEG_LAYER_III]
            .contains(Int(subtypeCode))
    }

    /// True for 32- and 64-bit float encodings, which hold any finite sample unclipped.
    public var isFloatingPoint: Bool {
        subtypeCode == Int32(SF_FORMAT_FLOAT) || subtypeCode == Int32(SF_FORMAT_DOUBLE)
    }

    /// `wav pcm16`, or libsndfile's own names for formats without one here.
    public var description: String { "\(containerName) \(subtypeName)" }

    /// The container's short name (`wav`), or libsndfile's description of it.
    public var containerName: String {
        container?.rawValue ?? Self.libraryName(majorCode, command: SFC_GET_FORMAT_MAJOR, count: SFC_GET_FORMAT_MAJOR_COUNT)
    }

    /// The encoding's short name (`pcm24`), or libsndfile's description of it.
    public var subtypeName: String {
        subtype?.rawValue ?? Self.libraryName(subtypeCode, command: SFC_GET_FORMAT_SUBTYPE, count: SFC_GET_FORMAT_SUBTYPE_COUNT)
    }

    /// The output format for an input in `input`: the requested container and encoding, and
    /// otherwise the input's. When the container changes and cannot hold the input's
    /// encoding, the container's preferred one is taken (lossless where possible).
    ///
    /// - Throws: a one-line reason when the request cannot be met.
    public static func output(
        for input: AudioFormat, container: Container?, subtype: Subtype?, channels: Int, sampleRate: Int
    ) throws(FormatRefusal) -> AudioFormat {
        let chosen = try chosenFormat(for: input, container: container, subtype: subtype, channels: channels, sampleRate: sampleRate)
        return riffFamily(chosen, input: input, container: container, channels: channels, sampleRate: sampleRate)
    }

    /// `wav` names a family of containers, as the `.wav` extension does: a WAVE_FORMAT_EXTENSIBLE
    /// or RF64 input stays one (keeping its speaker layout, its size beyond 4 GiB), and a WAV
    /// output of more than two channels is WAVE_FORMAT_EXTENSIBLE, which the format requires
    /// for them and which carries the speaker layout. Only where the encoding fits.
    static func riffFamily(
        _ format: AudioFormat, input: AudioFormat, container: Container?, channels: Int, sampleRate: Int
    ) -> AudioFormat {
        guard format.majorCode == Int32(SF_FORMAT_WAV) else { return format }
        var candidates: [Int32] = []
        if container == nil || container == .wav,
           input.majorCode == Int32(SF_FORMAT_WAVEX) || input.majorCode == Int32(SF_FORMAT_RF64) {
            candidates.append(input.majorCode)
        }
        if channels > 2 { candidates.append(Int32(SF_FORMAT_WAVEX)) }
        let rest = format.code & ~Int32(SF_FORMAT_TYPEMASK)
        if let major = candidates.first(where: { check($0 | rest, channels: channels, sampleRate: sampleRate) }) {
            return AudioFormat(code: major | rest)
        }
        return format
    }

    private static func chosenFormat(
        for input: AudioFormat, container: Container?, subtype: Subtype?, channels: Int, sampleRate: Int
    ) throws(FormatRefusal) -> AudioFormat {
        let major = container?.code ?? input.majorCode
        let majorName = container?.rawValue ?? input.containerName
        func fits(_ code: Int32) -> Bool { check(code, channels: channels, sampleRate: sampleRate) }
        if let subtype {
            // `opus` names Ogg holding Opus: Vorbis in a `.opus` file would be a lie its players
            // find out too late.
            if container == .opus, subtype != .opus {
                throw FormatRefusal("opus holds Opus audio only, not \(subtype.rawValue) (use --format ogg for Ogg \(subtype.rawValue))")
            }
            guard let code = subtype.codes.map({ major | $0 }).first(where: fits) else {
                let anyChannels = subtype.codes.contains { check(major | $0, channels: 1, sampleRate: sampleRate) }
                throw FormatRefusal(anyChannels ? "\(majorName) cannot hold \(channels)-channel \(subtype.rawValue) audio"
                    : "\(majorName) cannot hold \(subtype.rawValue) audio")
            }
            return AudioFormat(code: code)
        }
        if container == nil || major == input.majorCode {
            // Unchanged container: keep everything, byte order included.
            if fits(input.code) { return input }
        }
        // A lossy encoding is its container's (libsndfile accepts MP3 in WAV, then fails to
        // write it): a new container takes its own encoding.
        if !input.isLossy, fits(major | input.subtypeCode) { return AudioFormat(code: major | input.subtypeCode) }
        let preferred = (container ?? Container(code: major))?.preferredSubtype
        if let code = preferred?.codes.map({ major | $0 }).first(where: fits) { return AudioFormat(code: code) }
        throw FormatRefusal("\(majorName) cannot hold \(channels)-channel audio")
    }

    /// The extension libsndfile suggests for the container (for containers not named here).
    var libraryExtension: String? {
        Self.libraryInfo(majorCode, command: SFC_GET_FORMAT_MAJOR, count: SFC_GET_FORMAT_MAJOR_COUNT)?.extension
            .map { String(cString: $0) }
    }

    /// libsndfile's check of a format for writing.
    static func check(_ code: Int32, channels: Int, sampleRate: Int) -> Bool {
        var info = SF_INFO()
        info.format = code
        info.channels = Int32(clamping: channels)
        info.samplerate = Int32(clamping: sampleRate)
        return sf_format_check(&info) != 0
    }

    /// The name libsndfile gives a major or subtype code.
    private static func libraryName(_ code: Int32, command: Int, count: Int) -> String {
        libraryInfo(code, command: command, count: count)?.name.map { String(cString: $0) }
            ?? "format 0x" + String(code, radix: 16)
    }

    /// libsndfile's description of a major or subtype code, looked up in its format lists.
    private static func libraryInfo(_ code: Int32, command: Int, count: Int) -> SF_FORMAT_INFO? {
        var n: Int32 = 0
        sf_command(nil, Int32(count), &n, Int32(MemoryLayout<Int32>.size))
        for k in 0..<n {
            var info = SF_FORMAT_INFO()
            info.format = k
            sf_command(nil, Int32(command), &info, Int32(MemoryLayout<SF_FORMAT_INFO>.size))
            if info.format == code { return info }
        }
        return nil
    }
}

/// Why an output format was refused (the caller adds the file name).
public struct FormatRefusal: Error, Equatable, Sendable {
    public let reason: String
    init(_ reason: String) { self.reason = reason }
}
