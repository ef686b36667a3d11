import TestSupport
import Foundation
import Testing

/// What libsndfile leaves out survives a render where the output can hold it, and is named
/// where it cannot: a WAV's `iXML`, `id3 ` and cue labels (`LIST adtl`), a FLAC file's
/// picture and its Vorbis comments beyond libsndfile's ten, an Ogg file's comments. The
/// files are made by ffmpeg, sox, flac and metaflac and read back by ffprobe and metaflac.
@Suite("detent render: metadata libsndfile does not carry")
struct ForeignMetadataTests {
    static func json(_ outcome: Detent.Outcome) throws -> (kept: [String], lost: [String]) {
        let line = try #require(outcome.stdout.split(separator: "\n").first)
        let object = try jsonObject(line)
        return (try #require(object["metadata"] as? [String]), try #require(object["metadataLost"] as? [String]))
    }

    static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }

    static func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + le32(body.count) + body + (body.count % 2 == 1 ? [0] : [])
    }

    /// Every RIFF chunk of a WAV: its id and its body.
    static func chunks(_ bytes: [UInt8]) -> [(id: String, body: [UInt8])] {
        var found: [(String, [UInt8])] = []
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = bytes.le32(at: offset + 4)
            found.append((bytes.text(at: offset), Array(bytes[offset + 8..<min(bytes.count, offset + 8 + size)])))
            offset += 8 + size + (size & 1)
        }
        return found
    }

    @Test("iXML, id3 and cue labels of a WAV are kept in WAV, read back by ffprobe, and named where the output cannot hold them")
    func riffChunks() throws {
        let folder = TemporaryFolder()
        try tool("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "sine=d=0.5", "-c:a", "pcm_s16le", "plain.wav"], in: folder)
        // An ID3v2 tag as ffmpeg writes one (the head of an MP3 file), to go in an `id3 ` chunk.
        try tool("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "sine=d=0.1", "-metadata", "title=From ID3",
                            "-metadata", "TKEY=Am", "-c:a", "libmp3lame", "tagged.mp3"], in: folder)
        let mp3 = try folder.bytes("tagged.mp3")
        #expect(mp3.text(at: 0, count: 3) == "ID3")
        let id3Size = mp3[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
        let id3 = Array(mp3[0..<10 + id3Size])

        let ixml = Array("<?xml version=\"1.0\"?><BWFXML><PROJECT>Night</PROJECT><SCENE>12A</SCENE></BWFXML>".utf8)
        let cue = Self.le32(1) + Self.le32(1) + Self.le32(2_000) + Array("data".utf8) + Self.le32(0) + Self.le32(0) + Self.le32(2_000)
        let labels = Array("adtl".utf8) + Self.chunk("labl", Self.le32(1) + Array("Verse one\0".utf8))
        var wav = try folder.bytes("plain.wav")
        let data = try #require(wav.chunk("data")) - 8
        wav.insert(contentsOf: Self.chunk("iXML", ixml) + Self.chunk("cue ", cue) + Self.chunk("LIST", labels)
                   + Self.chunk("id3 ", id3), at: data)
        wav.replaceSubrange(4..<8, with: Self.le32(wav.count - 8))
        folder.write("chunks.wav", wav)

        let run = try Detent.run(["render", "chunks.wav", "-o", "out.wav", "--json"], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        let (kept, lost) = try Self.json(run)
        #expect(Set(kept).isSuperset(of: ["cue", "chunk:iXML", "chunk:LIST/adtl", "chunk:id3"]), "\(kept)")
        #expect(lost.isEmpty)
        let out = try folder.bytes("out.wav")
        let chunks = Self.chunks(out)
        #expect(chunks.first { $0.id == "iXML" }?.body == ixml)
        #expect(chunks.first { $0.id == "id3 " }?.body == id3)
        #expect(out.le32(at: 4) == out.count - 8, "the RIFF size counts the added chunks")
        // ffprobe reads the whole file: the cue point and its label are a chapter.
        let probe = try tool("ffprobe", ["-v", "error", "-show_chapters", "-show_entries", "format_tags", "-of", "compact",
                                         "out.wav"], in: folder).stdoutText
        #expect(probe.contains("title=Verse one"), "\(probe)")
        // The audio is what it is without them.
        _ = try Detent.run(["render", "chunks.wav", "-o", "bare.wav", "--no-metadata"], in: folder.path)
        let bare = Self.chunks(try folder.bytes("bare.wav"))
        #expect(bare.first { $0.id == "data" }?.body == chunks.first { $0.id == "data" }?.body)

        let flac = try Detent.run(["render", "chunks.wav", "-o", "out.flac", "--json"], in: folder.path)
        #expect(flac.status == 0)
        #expect(try Self.json(flac).lost == ["cue", "chunk:iXML", "chunk:LIST/adtl", "chunk:id3"])
        #expect(flac.stderr.contains("out.flac: the input's cue, chunk:iXML, chunk:LIST/adtl, chunk:id3 cannot go into this output; not copied"),
                "\(flac.stderr)")
    }

    /// A FLAC file long enough that its audio frames move in several stretches.
    @Test("a FLAC file's picture and all its Vorbis comments are kept in FLAC, the audio unchanged; WAV names them")
    func flacBlocksAndComments() throws {
        let folder = TemporaryFolder()
        try tool("sox", ["-n", "-r", "48000", "-c", "2", "-b", "16", "noise.flac", "synth", "20", "whitenoise"], in: folder)
        try tool("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "testsrc=s=64x48", "-frames:v", "1", "cover.png"], in: folder)
        try tool("metaflac", ["--import-picture-from=cover.png", "--set-tag=TITLE=Noise", "--set-tag=CUSTOMTAG=kept",
                              "--set-tag=DESCRIPTION=a long take", "--set-tag=ARTIST=First", "--set-tag=ARTIST=Second",
                              "noise.flac"], in: folder)

        let run = try Detent.run(["render", "noise.flac", "-o", "out.flac", "--json"], in: folder.path)
        #expect(run.status == 0, "\(run.stderr)")
        let (kept, lost) = try Self.json(run)
        #expect(Set(kept).isSuperset(of: ["title", "artist", "picture", "tag:CUSTOMTAG", "tag:DESCRIPTION", "tag:ARTIST"]), "\(kept)")
        #expect(lost.isEmpty)
        let tags = try tool("metaflac", ["--export-tags-to=-", "out.flac"], in: folder).stdoutText
        for tag in ["CUSTOMTAG=kept", "DESCRIPTION=a long take", "ARTIST=Second"] { #expect(tags.contains(tag), "\(tags)") }
        #expect(tags.lowercased().contains("artist=first"))
        try tool("metaflac", ["--export-picture-to=back.png", "out.flac"], in: folder)
        #expect(try folder.bytes("back.png") == (try folder.bytes("cover.png")))
        try tool("flac", ["--test", "--silent", "out.flac"], in: folder)
        _ = try Detent.run(["render", "noise.flac", "-o", "bare.flac", "--no-metadata"], in: folder.path)
        let decoded = try tool("sox", ["out.flac", "-t", "raw", "-"], in: folder).stdout
        #expect(decoded.count >= 20 * 48_000 * 2 * 2)
        #expect(decoded == (try tool("sox", ["bare.flac", "-t", "raw", "-"], in: folder).stdout))

        let wav = try Detent.run(["render", "noise.flac", "-o", "out.wav", "--json"], in: folder.path)
        #expect(wav.status == 0)
        #expect(try Self.json(wav).lost == ["picture", "tag:CUSTOMTAG", "tag:DESCRIPTION", "tag:ARTIST"])
    }

    @Test("an Ogg file's own comments go to FLAC; an Ogg output names what it cannot take")
    func oggComments() throws {
        let folder = TemporaryFolder()
        try tool("ffmpeg", ["-loglevel", "error", "-f", "lavfi", "-i", "sine=d=0.5", "-metadata", "title=Take 5",
                            "-metadata", "MOOD=calm", "-c:a", "libvorbis", "tags.ogg"], in: folder)
        let run = try Detent.run(["render", "tags.ogg", "-o", "out.flac", "--json"], in: folder.path)
        #expect(run.status == 0)
        #expect(try Self.json(run).kept.contains("tag:MOOD"))
        let tags = try tool("metaflac", ["--export-tags-to=-", "out.flac"], in: folder).stdoutText
        #expect(tags.contains("MOOD=calm") && tags.lowercased().contains("title=take 5"), "\(tags)")

        let ogg = try Detent.run(["render", "tags.ogg", "-o", "out.ogg", "--json"], in: folder.path)
        #expect(ogg.status == 0)
        #expect(try Self.json(ogg).lost.contains("tag:MOOD"))
    }
}
