import CSndfile

/// What a file says about its audio besides the audio: text tags (RIFF INFO in WAV, Vorbis
/// comments in FLAC and Ogg, AIFF and CAF strings), the broadcast extension (`bext`: origin,
/// time reference, coding history), cue points, and the instrument (a sampler's base note,
/// key and velocity range and loops: WAV's `smpl`, also read from AIFF's `INST`), through
/// libsndfile's string and chunk commands. A render copies them to its output unless told not to (`--no-metadata`); each
/// container keeps what it has a place for.
public struct Metadata: Sendable {
    /// libsndfile's string kinds, with the names `--json` reports.
    static let stringKinds: [(code: Int32, name: String)] = [
        (Int32(SF_STR_TITLE), "title"), (Int32(SF_STR_COPYRIGHT), "copyright"), (Int32(SF_STR_SOFTWARE), "software"),
        (Int32(SF_STR_ARTIST), "artist"), (Int32(SF_STR_COMMENT), "comment"), (Int32(SF_STR_DATE), "date"),
        (Int32(SF_STR_ALBUM), "album"), (Int32(SF_STR_LICENSE), "license"), (Int32(SF_STR_TRACKNUMBER), "tracknumber"),
        (Int32(SF_STR_GENRE), "genre"),
    ]

    /// Text tags by libsndfile string kind, in ``stringKinds`` order.
    var strings: [(code: Int32, name: String, value: String)] = []
    var broadcast: SF_BROADCAST_INFO?
    var cues: SF_CUES?
    var instrument: SF_INSTRUMENT?
    /// What libsndfile leaves out (other RIFF chunks, FLAC pictures, other Vorbis comments).
    var foreign = ForeignMetadata()

    /// Nothing to copy.
    public var isEmpty: Bool { names.isEmpty }

    /// What there is, by the names `--json` reports (`title`, …, `bext`, `cue`, `instrument`,
    /// then ``ForeignMetadata/names``).
    public var names: [String] { libraryNames + foreign.names }

    /// What libsndfile reads and writes.
    var libraryNames: [String] {
        strings.map(\.name) + (broadcast == nil ? [] : ["bext"]) + (cues == nil ? [] : ["cue"])
            + (instrument == nil ? [] : ["instrument"])
    }

    /// What an open file holds.
    /// None at all: what a render from MIDI alone has to copy.
    init() {}

    /// The names of the text tags (`title`, `artist`, …), in the order files keep them.
    package static var tagNames: [String] { stringKinds.map(\.name) }

    /// The text tags, by those names: what a caller reads of a file's metadata as text.
    package var tags: [(name: String, value: String)] { strings.map { ($0.name, $0.value) } }

    /// Text tags to write, by name (``tagNames``; empty values left out); nil when a name is
    /// not one of them.
    package init?(tags: [(name: String, value: String)]) {
        for kind in Self.stringKinds {
            for tag in tags where tag.name == kind.name && !tag.value.isEmpty { strings.append((kind.code, kind.name, tag.value)) }
        }
        if tags.contains(where: { tag in !Self.stringKinds.contains { $0.name == tag.name } }) { return nil }
    }

    init(reading file: OpaquePointer) {
        for kind in Self.stringKinds {
            if let text = sf_get_string(file, kind.code), let value = String(validatingCString: text), !value.isEmpty {
                strings.append((kind.code, kind.name, value))
            }
        }
        var info = SF_BROADCAST_INFO()
        if sf_command(file, Int32(SFC_GET_BROADCAST_INFO), &info, Int32(MemoryLayout<SF_BROADCAST_INFO>.size)) == SF_TRUE {
            broadcast = info
        }
        var count: UInt32 = 0
        if sf_command(file, Int32(SFC_GET_CUE_COUNT), &count, Int32(MemoryLayout<UInt32>.size)) == SF_TRUE, count > 0 {
            var cues = SF_CUES()
            if sf_command(file, Int32(SFC_GET_CUE), &cues, Int32(MemoryLayout<SF_CUES>.size)) == SF_TRUE { self.cues = cues }
        }
        var instrument = SF_INSTRUMENT()
        if sf_command(file, Int32(SFC_GET_INSTRUMENT), &instrument, Int32(MemoryLayout<SF_INSTRUMENT>.size)) == SF_TRUE {
            self.instrument = instrument
        }
    }

    /// Writes what the open output `file` has a place for, before any audio; returns the names
    /// of what was kept (`title`, …, `bext`, `cue`, `instrument`).
    func write(to file: OpaquePointer) -> [String] {
        var kept: [String] = []
        for string in strings where sf_set_string(file, string.code, string.value) == 0 {
            kept.append(string.name)
        }
        if var info = broadcast,
           sf_command(file, Int32(SFC_SET_BROADCAST_INFO), &info, Int32(MemoryLayout<SF_BROADCAST_INFO>.size)) == SF_TRUE {
            kept.append("bext")
        }
        // libsndfile takes cue points and an instrument for any file, but only WAV writes them
        // (its AIFF writer, in 1.2, leaves the instrument out): ask the container, not the
        // command.
        var info = SF_INFO()
        sf_command(file, Int32(SFC_GET_CURRENT_SF_INFO), &info, Int32(MemoryLayout<SF_INFO>.size))
        let container = info.format & Int32(SF_FORMAT_TYPEMASK)
        let wav = container == Int32(SF_FORMAT_WAV) || container == Int32(SF_FORMAT_WAVEX)
        if var cues, wav, sf_command(file, Int32(SFC_SET_CUE), &cues, Int32(MemoryLayout<SF_CUES>.size)) == SF_TRUE {
            kept.append("cue")
        }
        if var instrument, wav,
           sf_command(file, Int32(SFC_SET_INSTRUMENT), &instrument, Int32(MemoryLayout<SF_INSTRUMENT>.size)) == SF_TRUE {
            kept.append("instrument")
        }
        return kept
    }
}
