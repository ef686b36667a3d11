import TestSupport
import Foundation
import Testing

/// Tags and the broadcast extension made by ffmpeg survive a render (read back by ffprobe),
/// unless `--no-metadata`; `--json` says what was kept.
@Suite("detent render: metadata")
struct MetadataTests {
    static func tags(_ name: String, in folder: TemporaryFolder) throws -> String {
        try tool("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "compact", name], in: folder).stdoutText
    }

    static func kept(_ outcome: Detent.Outcome) throws -> [String] {
        let line = try #require(outcome.stdout.split(separator: "\n").first)
        return try #require(jsonObject(line)["metadata"] as? [String])
    }

    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }

    /// A 16-bit mono WAV of 4000 frames with `chunk` (head and body) before its `data` chunk.
    static func wav(with chunk: [UInt8]) throws -> [UInt8] {
        var bytes = WAV.pcm16([(0..<4_000).map { Int16(truncatingIfNeeded: $0 * 13) }])
        let data = try #require(bytes.chunk("data")) - 8
        bytes.insert(contentsOf: chunk, at: data)
        bytes.replaceSubrange(4..<8, with: le32(bytes.count - 8))
        return bytes
    }

    @Test("INFO tags from a WAV go to WAV and to FLAC's Vorbis comments; bext to WAV; none with --no-metadata")
    func passThrough() throws {
        let folder = TemporaryFolder()
        try tool("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "sine=d=0.5", "-metadata", "title=Take 1",
                            "-metadata", "artist=Someone", "-c:a", "pcm_s16le", "tags.wav"], in: folder)
        try tool("ffmpeg", ["-loglevel", "error", "-i", "tags.wav", "-write_bext", "1", "-metadata", "originator=Studio A",
                            "-metadata", "description=first take", "-c:a", "pcm_s16le", "bext.wav"], in: folder)

        let wav = try Detent.run(["render", "tags.wav", "-o", "out.wav", "--json"], in: folder.path)
        #expect(try Self.kept(wav).starts(with: ["title", "software", "artist"]))
        let wavTags = try Self.tags("out.wav", in: folder)
        #expect(wavTags.contains("title=Take 1") && wavTags.contains("artist=Someone"))

        let flac = try Detent.run(["render", "tags.wav", "-o", "out.flac", "--json"], in: folder.path)
        #expect(try Self.kept(flac).contains("title"))
        let flacTags = try Self.tags("out.flac", in: folder)
        #expect(flacTags.contains("title=Take 1") && flacTags.contains("artist=Someone"))

        let bext = try Detent.run(["render", "bext.wav", "-o", "bext-out.wav", "--json"], in: folder.path)
        #expect(try Self.kept(bext).contains("bext"))
        let bextTags = try Self.tags("bext-out.wav", in: folder)
        #expect(bextTags.contains("encoded_by=Studio A") && bextTags.contains("comment=first take"))

        let none = try Detent.run(["render", "bext.wav", "-o", "none.wav", "--json", "--no-metadata"], in: folder.path)
        #expect(try Self.kept(none) == [])
        #expect(!(try Self.tags("none.wav", in: folder).contains("Take 1")))
    }

    @Test("cue points of a WAV are kept")
    func cues() throws {
        let folder = TemporaryFolder()
        // A 16-bit WAV with a `cue ` chunk of two points (at frames 100 and 2500) before its data.
        var cue = Array("cue ".utf8) + Self.le32(4 + 2 * 24) + Self.le32(2)
        for (id, frame) in [(1, 100), (2, 2_500)] {
            cue += Self.le32(id) + Self.le32(frame) + Array("data".utf8) + Self.le32(0) + Self.le32(0) + Self.le32(frame)
        }
        folder.write("cue.wav", try Self.wav(with: cue))

        let outcome = try Detent.run(["render", "cue.wav", "-o", "out.wav", "--json"], in: folder.path)
        #expect(outcome.status == 0)
        #expect(try Self.kept(outcome).contains("cue"))
        let out = try folder.bytes("out.wav")
        let body = try #require(out.chunk("cue "))
        #expect(out.le32(at: body) == 2)
        #expect(out.le32(at: body + 4 + 4) == 100 && out.le32(at: body + 4 + 24 + 4) == 2_500)
    }

    /// A sampler's loop (a WAV `smpl` chunk: base note 60, one forward loop over frames
    /// 1000…2999) is kept in WAV, and a container without a place for it says so.
    @Test("the instrument (smpl loops) of a WAV is kept in WAV; FLAC and AIFF say they have no place for it")
    func instrumentLoops() throws {
        let folder = TemporaryFolder()
        let words = [36 + 24, 0, 0, 20_833, 60, 0, 0, 0, 1, 0,  // size, maker, product, period, base note, …, one loop
                     0, 0, 1_000, 2_999, 0, 0]                // loop: id, forward, start, end, fraction, count
        folder.write("loop.wav", try Self.wav(with: Array("smpl".utf8) + words.flatMap(Self.le32)))

        let wav = try Detent.run(["render", "loop.wav", "-o", "out.wav", "--json"], in: folder.path)
        #expect(wav.status == 0)
        #expect(try Self.kept(wav).contains("instrument"))
        let out = try folder.bytes("out.wav")
        let body = try #require(out.chunk("smpl"))
        #expect(out.le32(at: body + 12) == 60, "base note")
        #expect(out.le32(at: body + 28) == 1, "one loop")
        #expect(out.le32(at: body + 36 + 8) == 1_000 && out.le32(at: body + 36 + 12) == 2_999)

        for output in ["out.flac", "out.aiff"] {
            let run = try Detent.run(["render", "loop.wav", "-o", output, "--json"], in: folder.path)
            #expect(run.status == 0)
            let line = try #require(run.stdout.split(separator: "\n").first)
            #expect(try jsonObject(line)["metadataLost"] as? [String] == ["instrument"])
            #expect(run.stderr.contains("\(output): the input's instrument cannot go into this output; not copied"))
        }
    }

    /// Tags round trip through every container that holds them, made and read back by other
    /// programs: AIFF's NAME/AUTH/(c) chunks (ffmpeg), FLAC's Vorbis comments (flac,
    /// metaflac) and Ogg Vorbis comments (ffmpeg, ffprobe).
    @Test("tags round trip through AIFF, FLAC and Ogg, made and read by other tools")
    func containersRoundTrip() throws {
        let folder = TemporaryFolder()
        try tool("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "sine=d=0.5", "-metadata", "title=Take 2",
                            "-metadata", "author=Someone Else", "-metadata", "copyright=2026 Studio",
                            "-c:a", "pcm_s16be", "tags.aiff"], in: folder)
        let aiff = try Detent.run(["render", "tags.aiff", "-o", "out.aiff", "--json"], in: folder.path)
        #expect(aiff.status == 0)
        #expect(Set(try Self.kept(aiff)).isSuperset(of: ["title", "artist", "copyright"]))
        let aiffTags = try Self.tags("out.aiff", in: folder)
        #expect(aiffTags.contains("title=Take 2") && aiffTags.contains("author=Someone Else")
                && aiffTags.contains("copyright=2026 Studio"), "\(aiffTags)")
        // AIFF's author is WAV's artist.
        _ = try Detent.run(["render", "tags.aiff", "-o", "from-aiff.wav"], in: folder.path)
        let wavTags = try Self.tags("from-aiff.wav", in: folder)
        #expect(wavTags.contains("title=Take 2") && wavTags.contains("artist=Someone Else"), "\(wavTags)")

        try tool("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", "plain.wav", "synth", "0.5", "sine", "440"], in: folder)
        try tool("flac", ["--silent", "-T", "TITLE=Take 3", "-T", "ARTIST=A Band", "-T", "DATE=2026", "-o", "tags.flac", "plain.wav"], in: folder)
        let flac = try Detent.run(["render", "tags.flac", "-o", "out.flac", "--json"], in: folder.path)
        #expect(flac.status == 0)
        // (Vorbis comment names are case-insensitive: libsndfile writes them in lower case.)
        let comments = try tool("metaflac", ["--export-tags-to=-", "out.flac"], in: folder).stdoutText.lowercased()
        #expect(comments.contains("title=take 3") && comments.contains("artist=a band") && comments.contains("date=2026"), "\(comments)")

        let ogg = try Detent.run(["render", "tags.flac", "-o", "out.ogg", "--json"], in: folder.path)
        #expect(ogg.status == 0)
        let oggTags = try tool("ffprobe", ["-v", "error", "-show_entries", "stream_tags:format_tags", "-of", "compact", "out.ogg"],
                               in: folder).stdoutText.lowercased()
        #expect(oggTags.contains("title=take 3") && oggTags.contains("artist=a band"), "\(oggTags)")

        try tool("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "sine=d=0.5", "-metadata", "title=Take 4",
                            "-metadata", "artist=Quartet", "-c:a", "libvorbis", "tags.ogg"], in: folder)
        let fromOgg = try Detent.run(["render", "tags.ogg", "-o", "from-ogg.flac", "--json"], in: folder.path)
        #expect(fromOgg.status == 0)
        let fromOggComments = try tool("metaflac", ["--export-tags-to=-", "from-ogg.flac"], in: folder).stdoutText.lowercased()
        #expect(fromOggComments.contains("title=take 4") && fromOggComments.contains("artist=quartet"), "\(fromOggComments)")
    }
}
