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
        var bytes = WAV.pcm16([(0..<4_000).map { Int16(truncatingIfNeeded: $0 * 13) }])
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        var cue = Array("cue ".utf8) + le32(4 + 2 * 24) + le32(2)
        for (id, frame) in [(1, 100), (2, 2_500)] {
            cue += le32(id) + le32(frame) + Array("data".utf8) + le32(0) + le32(0) + le32(frame)
        }
        let data = try #require(bytes.chunk("data")) - 8
        bytes.insert(contentsOf: cue, at: data)
        bytes.replaceSubrange(4..<8, with: le32(bytes.count - 8))
        folder.write("cue.wav", bytes)

        let outcome = try Detent.run(["render", "cue.wav", "-o", "out.wav", "--json"], in: folder.path)
        #expect(outcome.status == 0)
        #expect(try Self.kept(outcome).contains("cue"))
        let out = try folder.bytes("out.wav")
        let body = try #require(out.chunk("cue "))
        #expect(out.le32(at: body) == 2)
        #expect(out.le32(at: body + 4 + 4) == 100 && out.le32(at: body + 4 + 24 + 4) == 2_500)
    }
}
