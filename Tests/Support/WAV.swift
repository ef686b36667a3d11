/// WAV files built byte by byte, so a test controls every header field — and can break any
/// of them. Shared by the library's tests and the command line's, which feed the same files.
public enum WAV {
    /// The `fmt ` chunk's format tag of integer PCM.
    public static let pcm: UInt16 = 1
    /// The `fmt ` chunk's format tag of IEEE floating point.
    public static let ieeeFloat: UInt16 = 3

    /// A canonical RIFF/WAVE file: a 16-byte `fmt ` chunk, then a `data` chunk holding `data`.
    ///
    /// The derived fields (block align, byte rate, chunk sizes) follow from the arguments with
    /// wrapping arithmetic, so nonsense arguments give a nonsense header rather than a trap.
    /// `declaredDataBytes` replaces the size the `data` chunk claims (and with it the RIFF
    /// chunk's), for files cut short or streamed with a placeholder size.
    public static func bytes(formatTag: UInt16 = ieeeFloat, channels: UInt16, sampleRate: UInt32 = 48_000,
                             bitsPerSample: UInt16 = 32, data: [UInt8], declaredDataBytes: UInt32? = nil) -> [UInt8] {
        let blockAlign = channels &* (bitsPerSample / 8)
        let dataSize = declaredDataBytes ?? UInt32(data.count)
        var out: [UInt8] = Array("RIFF".utf8) + le32(36 &+ dataSize) + Array("WAVE".utf8)
        out += Array("fmt ".utf8) + le32(16) + le16(formatTag) + le16(channels) + le32(sampleRate)
        out += le32(sampleRate &* UInt32(blockAlign)) + le16(blockAlign) + le16(bitsPerSample)
        out += Array("data".utf8) + le32(dataSize) + data
        return out
    }

    /// A 32-bit float file of `channels` (one array per channel, all as long as the first),
    /// interleaved.
    public static func float(_ channels: [[Float]], sampleRate: UInt32 = 48_000) -> [UInt8] {
        var data: [UInt8] = []
        data.reserveCapacity(channels[0].count * channels.count * 4)
        for i in channels[0].indices {
            for c in channels.indices { data += le32(channels[c][i].bitPattern) }
        }
        return bytes(formatTag: ieeeFloat, channels: UInt16(channels.count), sampleRate: sampleRate,
                     bitsPerSample: 32, data: data)
    }

    /// A 16-bit integer PCM file of `channels` (one array per channel), interleaved.
    public static func pcm16(_ channels: [[Int16]], sampleRate: UInt32 = 48_000) -> [UInt8] {
        var data: [UInt8] = []
        data.reserveCapacity(channels[0].count * channels.count * 2)
        for i in channels[0].indices {
            for c in channels.indices { data += le16(UInt16(bitPattern: channels[c][i])) }
        }
        return bytes(formatTag: pcm, channels: UInt16(channels.count), sampleRate: sampleRate,
                     bitsPerSample: 16, data: data)
    }

    private static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
}
