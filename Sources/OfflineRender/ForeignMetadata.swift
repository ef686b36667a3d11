import Platform

/// The metadata libsndfile neither reads into its fixed set nor writes: a WAV's other RIFF
/// chunks (`iXML`, `id3 `, cue labels in `LIST adtl`, `cart`, `axml`, …), a FLAC file's
/// PICTURE, APPLICATION and CUESHEET blocks, and the Vorbis comments of a FLAC or Ogg file
/// outside libsndfile's ten (`CUSTOMTAG=…`, `DESCRIPTION=…`, a second `ARTIST=…`).
///
/// Read from the input's own bytes (walking the RIFF chunks, the FLAC metadata blocks, the
/// Ogg comment header), and put into the finished output
/// after libsndfile closed it: RIFF chunks are appended after the audio (where the format
/// allows any chunk, and where ffmpeg and others put `LIST` and `id3 `), so only the RIFF
/// size changes; FLAC blocks must come before the audio, so a FLAC output's audio frames are
/// moved up once by the size of the added blocks. What the output cannot hold (another
/// container, a pipe that cannot be rewritten) is named, never dropped in silence.
struct ForeignMetadata: Sendable {
    /// A RIFF chunk as read: its four-character id and its body (without the pad byte).
    struct Chunk: Sendable {
        var id: [UInt8]
        var body: [UInt8]
    }

    /// A FLAC metadata block: its type and its body.
    struct Block: Sendable {
        var type: UInt8
        var body: [UInt8]
    }

    var chunks: [Chunk] = []
    var blocks: [Block] = []
    /// Vorbis comments (`NAME=value`) libsndfile does not carry, in the input's order.
    var comments: [String] = []
    /// The input's frames, for a cue sheet (whose lead-out must be the output's length).
    var inputFrames: Int64?

    var isEmpty: Bool { chunks.isEmpty && blocks.isEmpty && comments.isEmpty }

    /// What there is, by the names `--json` reports: `chunk:iXML`, `chunk:id3`,
    /// `chunk:LIST/adtl`, `picture`, `application`, `cuesheet`, `flac-block:N`, `tag:NAME`.
    var names: [String] {
        var names = chunks.map(Self.name) + blocks.map(Self.name)
        for comment in comments {
            let name = "tag:" + Self.field(comment)
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The Vorbis comment fields libsndfile reads into its strings (the first of each).
    static let libraryFields: Set<String> = [
        "title", "copyright", "software", "artist", "comment", "date", "album", "license", "tracknumber", "genre",
    ]

    /// RIFF chunks that are the audio's own or that libsndfile reads and writes itself
    /// (`LIST` of type `INFO` is its text tags), or padding.
    static let libraryChunks: Set<String> = [
        "RIFF", "RIFX", "RF64", "BW64", "fmt ", "fact", "data", "ds64", "PEAK", "bext", "cue ", "smpl", "inst",
        "JUNK", "junk", "pad ", "PAD ", "FLLR", "filr",
    ]

    /// At most this much is carried (a stray chunk of gigabytes is named as not copied).
    static let mostBytes = 64 << 20

    // MARK: Reading

    /// What `file` (open on `descriptor`, a file that can seek) holds beyond libsndfile's set.
    static func read(descriptor: Int32, format: AudioFormat, frames: Int64?) -> ForeignMetadata {
        var found = ForeignMetadata()
        found.inputFrames = frames
        switch format.container {
        case .wav, .wavex, .rf64: found.chunks = riffChunks(descriptor)
        case .flac: found.readFLAC(descriptor)
        case .ogg, .opus: found.comments = foreignComments(oggComments(descriptor) ?? [])
        default: break
        }
        return found
    }

    /// The chunks of a RIFF or RF64 file that libsndfile does not take in, found by walking
    /// the chunk heads (only those chunks' bodies are read, never the audio's).
    private static func riffChunks(_ descriptor: Int32) -> [Chunk] {
        guard let size = try? DescriptorIO.size(descriptor), let head = DescriptorIO.bytes(descriptor, at: 0, count: 12),
              head.starts(with: Array("RIFF".utf8)) || head.starts(with: Array("RF64".utf8)),
              head[8..<12].elementsEqual("WAVE".utf8) else { return [] }
        var chunks: [Chunk] = []
        var total = 0
        var dataSize: Int64?
        var offset: Int64 = 12
        while offset + 8 <= size, let chunkHead = DescriptorIO.bytes(descriptor, at: offset, count: 8) {
            let id = Array(chunkHead[0..<4])
            var length = Int64(chunkHead[4..<8].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let name = String(decoding: id, as: UTF8.self)
            if name == "ds64", let sizes = DescriptorIO.bytes(descriptor, at: offset + 8, count: 16) {
                // RF64: the audio's real size is the ds64 chunk's second field.
                dataSize = Int64(sizes[8..<16].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
            }
            if name == "data", length == 0xFFFF_FFFF {
                guard let dataSize else { break }
                length = dataSize
            }
            let isInfo = name == "LIST" && DescriptorIO.bytes(descriptor, at: offset + 8, count: 4) == Array("INFO".utf8)
            if !libraryChunks.contains(name), !isInfo, length <= Int64(mostBytes - total),
               let body = DescriptorIO.bytes(descriptor, at: offset + 8, count: Int(length)) {
                total += body.count
                chunks.append(Chunk(id: id, body: body))
            }
            offset += 8 + length + (length & 1)
        }
        return chunks
    }

    /// The blocks and comments of a FLAC file (after an ID3v2 tag, if one comes first).
    private mutating func readFLAC(_ descriptor: Int32) {
        guard let (blocks, _) = Self.flacBlocks(descriptor) else { return }
        var total = 0
        for block in blocks {
            switch block.type {
            case 4: comments = Self.foreignComments(Self.parseComments(block.body, skip: 0)?.entries ?? [])
            case 0, 1, 3: break  // STREAMINFO, PADDING and SEEKTABLE describe the audio as it was encoded
            case 127: break      // invalid
            default:
                guard block.body.count <= Self.mostBytes - total else { continue }
                total += block.body.count
                self.blocks.append(block)
            }
        }
    }

    /// The comments libsndfile leaves out: fields outside its ten, and every one after the
    /// first of a field. `ENCODER` says how the input was encoded, which the output is not:
    /// it is neither copied nor missed.
    private static func foreignComments(_ entries: [String]) -> [String] {
        var seen: Set<String> = []
        return entries.filter { entry in
            let field = field(entry).lowercased()
            return field != "encoder" && (!libraryFields.contains(field) || !seen.insert(field).inserted)
        }
    }

    /// A comment's field name (before `=`).
    static func field(_ comment: String) -> String {
        String(comment.prefix { $0 != "=" })
    }

    /// A Vorbis comment list: the vendor string and the entries, from `skip` bytes in.
    static func parseComments(_ bytes: [UInt8], skip: Int) -> (vendor: [UInt8], entries: [String])? {
        var at = skip
        func le32() -> Int? {
            guard at + 4 <= bytes.count else { return nil }
            defer { at += 4 }
            return (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        guard let vendorLength = le32(), vendorLength <= bytes.count - at else { return nil }
        let vendor = Array(bytes[at..<at + vendorLength])
        at += vendorLength
        guard let count = le32() else { return nil }
        var entries: [String] = []
        for _ in 0..<count {
            guard let length = le32(), length <= bytes.count - at else { return nil }
            entries.append(String(decoding: bytes[at..<at + length], as: UTF8.self))
            at += length
        }
        return (vendor, entries)
    }

    /// The comment list of an Ogg Vorbis or Opus file: the stream's second packet.
    private static func oggComments(_ descriptor: Int32) -> [String]? {
        var packets: [[UInt8]] = [[]]
        var offset: Int64 = 0
        var serial: [UInt8]?
        // The comment packet comes in the first pages; a page is at most 65 307 bytes.
        while packets.count < 3, offset < 4 << 20 {
            guard let head = DescriptorIO.bytes(descriptor, at: offset, count: 27), head.starts(with: Array("OggS".utf8)),
                  let lacing = DescriptorIO.bytes(descriptor, at: offset + 27, count: Int(head[26])) else { return nil }
            let size = lacing.reduce(0) { $0 + Int($1) }
            guard let body = DescriptorIO.bytes(descriptor, at: offset + 27 + Int64(lacing.count), count: size) else { return nil }
            offset += 27 + Int64(lacing.count) + Int64(size)
            if serial == nil { serial = Array(head[14..<18]) }
            guard Array(head[14..<18]) == serial else { continue }
            var at = 0
            for value in lacing {
                packets[packets.count - 1] += body[at..<at + Int(value)]
                at += Int(value)
                if value < 255 { packets.append([]) }
            }
        }
        guard packets.count >= 3 else { return nil }
        let packet = packets[1]
        if packet.starts(with: [3] + Array("vorbis".utf8)) { return parseComments(packet, skip: 7)?.entries }
        if packet.starts(with: Array("OpusTags".utf8)) { return parseComments(packet, skip: 8)?.entries }
        return nil
    }

    /// A FLAC file's metadata blocks and where its audio frames start.
    static func flacBlocks(_ descriptor: Int32) -> (blocks: [Block], end: Int64)? {
        var offset: Int64 = 0
        guard var magic = DescriptorIO.bytes(descriptor, at: 0, count: 10) else { return nil }
        if magic.starts(with: Array("ID3".utf8)) {
            // An ID3v2 tag before the stream: a 10-byte head, a syncsafe size, a footer if flagged.
            let size = magic[6..<10].reduce(0) { $0 << 7 | Int64($1 & 0x7F) }
            offset = 10 + size + (magic[5] & 0x10 != 0 ? 10 : 0)
            guard let next = DescriptorIO.bytes(descriptor, at: offset, count: 4) else { return nil }
            magic = next
        }
        guard magic.starts(with: Array("fLaC".utf8)) else { return nil }
        offset += 4
        var blocks: [Block] = []
        var total = 0
        while true {
            guard let head = DescriptorIO.bytes(descriptor, at: offset, count: 4) else { return nil }
            let length = Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
            // A damaged file whose blocks never say they are the last is not read whole.
            total += length
            guard total <= mostBytes else { return nil }
            guard let body = DescriptorIO.bytes(descriptor, at: offset + 4, count: length) else { return nil }
            blocks.append(Block(type: head[0] & 0x7F, body: body))
            offset += 4 + Int64(length)
            if head[0] & 0x80 != 0 { return (blocks, offset) }
        }
    }

    // MARK: Writing

    /// Puts what the finished output on `descriptor` can hold into it.
    ///
    /// - Parameters:
    ///   - container: the output's container.
    ///   - canRewrite: false for a pipe or socket, which cannot be gone back over.
    ///   - frames: the frames the output holds.
    /// - Returns: the names of what was kept and of what the output has no place for.
    /// - Throws: the system's reason when reading or writing the output failed.
    func write(to descriptor: Int32, container: Container?, canRewrite: Bool, frames: Int64) throws(SystemCallError)
        -> (kept: [String], lost: [String]) {
        guard canRewrite else { return ([], names) }
        switch container {
        case .wav, .wavex, .rf64:
            guard !chunks.isEmpty else { return ([], names) }
            let kept = try appendChunks(to: descriptor) ? chunks.map(Self.name) : []
            return (kept, names.filter { !kept.contains($0) })
        case .flac:
            // A cue sheet's lead-out is the stream's length: it fits only an output as long as the input.
            let fitting = blocks.filter { $0.type != 5 || frames == inputFrames }
            guard !fitting.isEmpty || !comments.isEmpty else { return ([], names) }
            try addBlocks(fitting, to: descriptor)
            let kept = fitting.map(Self.name) + comments.map { "tag:" + Self.field($0) }
            return (names.filter { kept.contains($0) }, names.filter { !kept.contains($0) })
        default:
            return ([], names)
        }
    }

    /// Appends the chunks after the audio and grows the RIFF (or RF64) size; false, with
    /// nothing written, when a plain RIFF would pass its 4 GiB.
    private func appendChunks(to descriptor: Int32) throws(SystemCallError) -> Bool {
        let end = try DescriptorIO.size(descriptor)
        guard let head = DescriptorIO.bytes(descriptor, at: 0, count: 12) else { throw SystemCallError("pread", .ioError) }
        var bytes: [UInt8] = end % 2 == 1 ? [0] : []
        for chunk in chunks {
            bytes += chunk.id + Self.le32(chunk.body.count) + chunk.body
            if chunk.body.count % 2 == 1 { bytes.append(0) }
        }
        let riffSize = end + Int64(bytes.count) - 8
        if head.starts(with: Array("RIFF".utf8)) {
            guard riffSize <= Int64(UInt32.max) else { return false }
            try Self.writeBytes(bytes, to: descriptor, at: end)
            try Self.writeBytes(Self.le32(Int(riffSize)), to: descriptor, at: 4)
        } else if head.starts(with: Array("RF64".utf8)) {
            // The real size is the ds64 chunk's first field.
            try Self.writeBytes(bytes, to: descriptor, at: end)
            try Self.writeBytes(Self.le32(Int(riffSize & 0xFFFF_FFFF)) + Self.le32(Int(riffSize >> 32)), to: descriptor, at: 20)
        } else {
            return false
        }
        return true
    }

    /// Rebuilds a FLAC output's metadata: the comment block with the foreign comments
    /// added, then `added`; the audio frames move by the difference in size.
    private func addBlocks(_ added: [Block], to descriptor: Int32) throws(SystemCallError) {
        guard let (existing, audioStart) = Self.flacBlocks(descriptor) else { throw SystemCallError("pread", .ioError) }
        var blocks = existing.filter { $0.type != 1 }
        if !comments.isEmpty {
            let vendor = Array("Detent".utf8)
            if let index = blocks.firstIndex(where: { $0.type == 4 }) {
                let parsed = Self.parseComments(blocks[index].body, skip: 0) ?? (vendor, [])
                blocks[index].body = Self.commentBody(vendor: parsed.vendor, entries: parsed.entries + comments)
            } else {
                blocks.insert(Block(type: 4, body: Self.commentBody(vendor: vendor, entries: comments)), at: min(1, blocks.count))
            }
        }
        blocks += added
        blocks = blocks.filter { $0.body.count < 1 << 24 }
        var header = Array("fLaC".utf8)
        for (index, block) in blocks.enumerated() {
            let last: UInt8 = index == blocks.count - 1 ? 0x80 : 0
            let n = block.body.count
            header += [last | block.type, UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + block.body
        }
        let size = try DescriptorIO.size(descriptor)
        try Self.move(descriptor, from: audioStart, to: Int64(header.count), end: size)
        try Self.writeBytes(header, to: descriptor, at: 0)
        if Int64(header.count) < audioStart {
            try DescriptorIO.truncate(descriptor, to: size - audioStart + Int64(header.count))
        }
    }

    /// Moves the bytes from `from` to the file's `end` so they start at `to`, a stretch at a
    /// time, in the order that never overwrites what is still to be moved.
    private static func move(_ descriptor: Int32, from: Int64, to: Int64, end: Int64) throws(SystemCallError) {
        guard from != to else { return }
        let stretch = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: stretch, alignment: 16)
        defer { buffer.deallocate() }
        let length = end - from
        var done: Int64 = 0
        while done < length {
            let n = Int(min(Int64(stretch), length - done))
            // Up: from the end backwards; down: from the start forwards.
            let at = to > from ? length - done - Int64(n) : done
            let got = try DescriptorIO.read(descriptor, into: UnsafeMutableRawBufferPointer(start: buffer, count: n), at: from + at)
            guard got == n else { throw SystemCallError("pread", .ioError) }
            try writeBytes(UnsafeRawBufferPointer(start: buffer, count: n), to: descriptor, at: to + at)
            done += Int64(n)
        }
    }

    private static func commentBody(vendor: [UInt8], entries: [String]) -> [UInt8] {
        var body = le32(vendor.count) + vendor + le32(entries.count)
        for entry in entries { body += le32(entry.utf8.count) + Array(entry.utf8) }
        return body
    }

    private static func name(_ chunk: Chunk) -> String {
        var id = String(decoding: chunk.id, as: UTF8.self)
        while id.hasSuffix(" ") { id.removeLast() }
        if id == "LIST", chunk.body.count >= 4 { return "chunk:LIST/" + String(decoding: chunk.body[0..<4], as: UTF8.self) }
        return "chunk:" + id
    }

    private static func name(_ block: Block) -> String {
        switch block.type {
        case 2: "application"
        case 5: "cuesheet"
        case 6: "picture"
        default: "flac-block:\(block.type)"
        }
    }

    private static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    private static func writeBytes(_ bytes: [UInt8], to descriptor: Int32, at offset: Int64) throws(SystemCallError) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        defer { copy.deallocate() }
        copy.copyBytes(from: bytes)
        try writeBytes(UnsafeRawBufferPointer(copy), to: descriptor, at: offset)
    }

    private static func writeBytes(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: Int64) throws(SystemCallError) {
        try DescriptorIO.writeAll(descriptor, bytes, at: offset)
    }
}
