import AudioEngine
import CSndfile
import Glibc
import Synchronization
import Platform

/// Reads an audio file in any format libsndfile knows, block by block, as interleaved
/// 32-bit floats (integer PCM scaled by 1/2^(bits−1), so a sample read and written back at the
/// same bit depth is unchanged).
///
/// Opening checks everything a header can get wrong, so a render never starts on a file it
/// cannot finish: folders, non-audio, unsupported encodings, impossible sample rates, and
/// headers that promise more data than the file holds (libsndfile silently shortens those).
///
/// ```swift
/// let reader = try SoundFileReader(path: "take.flac")
/// let n = try reader.read(into: buffer, frames: 4096)   // 0 at the end
/// ```
public final class SoundFileReader {
    public let path: String
    /// Frames the header declares; nil when the length is unknown (a stream from a pipe).
    public let frames: Int64?
    public let sampleRate: Int
    /// The channels it delivers: the file's, or those ``fold(to:)`` chose.
    public private(set) var channels: Int
    /// The file's own channels.
    public let fileChannels: Int
    public let format: AudioFormat
    /// The file being read (for refusing to write over it).
    package let identity: FileIdentity?
    /// The speaker of each channel (libsndfile's `SF_CHANNEL_MAP_*`), when the file names
    /// them (a WAVE_FORMAT_EXTENSIBLE channel mask, a CAF layout); nil otherwise.
    public private(set) var channelMap: [Int32]?
    /// Tags, broadcast extension and cue points, as read when opening.
    public let metadata: Metadata
    /// Frames delivered so far.
    public private(set) var framesRead: Int64 = 0

    /// nil for ``init(silenceAt:channels:name:)``, which reads nothing.
    private let file: OpaquePointer?
    /// True for a reader of no file: an instrument's render from MIDI alone, whose input is
    /// the silence its padding gives.
    public let isSilence: Bool
    /// The stream libsndfile reads through, for an input that cannot seek.
    private let stream: StreamInput?
    /// The rest of a WAV stream past the length its header's placeholder gives (see
    /// ``beyondPlaceholder``), opened when libsndfile's count runs out.
    private var rest: OpaquePointer?
    /// The raw format of a WAV stream's samples, when its header's length is a placeholder
    /// and the stream may go on past it; nil otherwise.
    private let beyondPlaceholder: Int32?
    /// The frames libsndfile delivers from `file` (from a placeholder length: a count it stops at).
    private let libraryFrames: Int64
    /// The input's descriptor, libsndfile's while `file` is open.
    private let descriptor: Int32
    /// Whether ``seek(to:)`` can go anywhere in the file: a file (not a stream) of known length.
    public let isSeekable: Bool

    /// Sample rates Detent accepts; anything outside is a damaged header, not audio.
    public static let sampleRates = 1_000...1_536_000

    /// libsndfile reports the outcome of a failed open through process-wide state, so opens
    /// (for reading and for writing) from parallel renders take turns to read their own message.
    static let openLock = Mutex(())

    /// Whether `path` holds sound: an error saying why not (not an audio file, no frames,
    /// cannot be opened), or nil. How a file read beside the input — a side-chain key, a
    /// graph's named input, a file parameter's impulse response or sample — is checked before
    /// it is read.
    ///
    /// Such a file is opened here and again to be read, so it must be a regular file: a FIFO,
    /// device or socket is refused without being opened (a FIFO no one writes to would block
    /// for ever, and one that is written to would lose what this look took). The main input
    /// is not checked here: it is opened once, and may be a stream.
    public static func audioProblem(at path: String) -> AudioFileError? {
        if let kind = FileStatus(path: path)?.kind, kind != .regular, kind != .folder { return .notRegularFile(path: path) }
        do {
            let reader = try SoundFileReader(path: path)
            return reader.frames == 0 ? .empty(path: path) : nil
        } catch {
            return error
        }
    }

    /// libsndfile's open of `fd` (through `stream`, when there is one), under the open lock.
    private static func open(_ fd: Int32, stream: StreamInput?, info: inout SF_INFO, path: String) -> Result<OpaquePointer, AudioFileError> {
        // The stream's address, as a number that may cross into the lock's closure.
        let streamAddress = stream.map { Int(bitPattern: Unmanaged.passUnretained($0).toOpaque()) }
        var read = info
        defer { info = read }
        return openLock.withLock { _ in
            if let streamAddress {
                var callbacks = StreamInput.callbacks
                if let f = sf_open_virtual(&callbacks, Int32(SFM_READ), &read, UnsafeMutableRawPointer(bitPattern: streamAddress)) {
                    return .success(f)
                }
            } else if let f = sf_open_fd(fd, Int32(SFM_READ), &read, 1) {
                return .success(f)
            }
            return .failure(openError(path: path, code: sf_error(nil), message: String(cString: sf_strerror(nil))))
        }
    }

    public init(path: String) throws(AudioFileError) {
        self.path = path
        let fd: Int32
        do { fd = try DescriptorIO.open(path, .readOnly) } catch { throw .cannotOpen(path: path, reason: error.errno.description) }
        let status = try? FileStatus(descriptor: fd)
        if status?.kind == .folder {
            try? DescriptorIO.close(fd)
            throw .isDirectory(path: path)
        }
        // A stream is read through `StreamInput`, which owns the descriptor. Otherwise, from
        // here on the descriptor is libsndfile's: `sf_close` closes it, and so does a failed
        // open, whatever `close_desc` says (libsndfile honours the flag only once an open has
        // succeeded). Closing it again after a failure would close whatever another thread
        // had been given that number meanwhile.
        let stream = StreamInput.isFLACStream(fd) ? StreamInput(descriptor: fd) : nil
        // Looked at before libsndfile owns the descriptor (`pread` leaves its offset alone).
        let ogg = status.flatMap { $0.kind == .regular ? Self.oggEnding(fd, size: $0.size) : nil }
        self.stream = stream
        var info = SF_INFO()
        let opened = Self.open(fd, stream: stream, info: &info, path: path)
        if case .failure = opened, let failure = stream?.failure { throw .cannotOpen(path: path, reason: failure.errno.description) }
        // A cut inside an Ogg file's header pages leaves libsndfile a "malformed" file.
        if case .failure(.unreadable) = opened, ogg == .brokenOff {
            throw .truncated(path: path, reason: Self.oggBrokenOff)
        }
        let file = try opened.get()
        self.file = file
        isSilence = false
        identity = status?.identity
        sampleRate = Int(info.samplerate)
        channels = Int(info.channels)
        fileChannels = Int(info.channels)
        format = AudioFormat(code: info.format)
        // From here on `deinit` closes the file, on success and on the throws below.
        let log = Self.logText(file)
        // libsndfile uses SF_COUNT_MAX for "unknown"; a stream through a pipe whose header
        // says "length unknown" (0xFFFFFFFF, as streaming writers put it) gets that
        // placeholder turned into a length, which is not one.
        let unknown = info.frames >= Int64.max / 2
            || ((info.seekable == 0 || stream != nil)
                && (Self.declaresUnknownLength(log: log) || (format.container == .flac && info.frames == 0)))
        frames = unknown ? nil : info.frames
        libraryFrames = info.frames
        descriptor = fd
        isSeekable = stream == nil && info.seekable != 0 && !unknown
        beyondPlaceholder = stream == nil && info.seekable == 0 && Self.declaresUnknownLength(log: log)
            ? Self.rawFormat(of: format, channels: Int(info.channels), sampleRate: Int(info.samplerate)) : nil
        var map = [Int32](repeating: 0, count: max(1, channels))
        let named = sf_command(file, Int32(SFC_GET_CHANNEL_MAP_INFO), &map, Int32(map.count * MemoryLayout<Int32>.size))
        var metadata = Metadata(reading: file)
        // Read from the file's own bytes: only a file that can be gone back over.
        if stream == nil, info.seekable != 0, status?.kind == .regular {
            metadata.foreign = ForeignMetadata.read(descriptor: fd, format: format, frames: unknown ? nil : info.frames)
        }
        self.metadata = metadata
        channelMap = named == SF_TRUE && map.contains(where: { $0 != 0 }) ? map : nil
        guard Self.sampleRates.contains(sampleRate) else {
            throw .unreadable(path: path, reason: "impossible sample rate \(info.samplerate) Hz in the header "
                + "(accepted: \(Self.sampleRates.lowerBound) … \(Self.sampleRates.upperBound) Hz)")
        }
        guard channels > 0 else { throw .unreadable(path: path, reason: "the header declares no channels") }
        if let shortfall = Self.headerShortfall(log: log) {
            throw .truncated(path: path, reason:
                "the header promises \(shortfall.declared) bytes of audio but the file holds \(shortfall.actual)")
        }
        if ogg == .brokenOff && format.majorCode == Int32(SF_FORMAT_OGG) {
            throw .truncated(path: path, reason: Self.oggBrokenOff)
        }
    }

    deinit {
        if let rest { sf_close(rest) }
        if let file { sf_close(file) }
    }

    /// A reader of no frames at `sampleRate` and `channels`, named `name` in messages: the
    /// input of an instrument rendered from MIDI alone, which the render pads with silence for
    /// as long as the MIDI file and the tail last. Its encoding, which the output keeps unless
    /// told otherwise, is 24-bit PCM: enough for any instrument, undithered.
    public init(silenceAt sampleRate: Int, channels: Int, name: String) {
        path = name
        frames = 0
        self.sampleRate = sampleRate
        self.channels = channels
        self.fileChannels = channels
        format = AudioFormat(.wav, .pcm24)
        identity = nil
        channelMap = nil
        metadata = Metadata()
        file = nil
        isSilence = true
        stream = nil
        beyondPlaceholder = nil
        libraryFrames = 0
        descriptor = -1
        isSeekable = false
    }

    /// Goes to frame `frame` (0 … ``frames``), where the next ``read(into:frames:)`` starts:
    /// the samples read from there are those a read from the start gives there.
    ///
    /// libsndfile lands on the frame itself in every encoding but two: in Vorbis its seek can
    /// land hundreds of frames off (after some pages, by a whole packet), and in MP3 the
    /// decoder starts without the frames before it, so the first thousand or so samples
    /// differ. Those are decoded up to the frame instead: from where the reader is when the
    /// frame is ahead, from the start when it is behind.
    ///
    /// - Throws: ``AudioFileError/unreadable(path:reason:)`` for a stream, which is read once,
    ///   in order, or a frame outside the file; ``AudioFileError/corrupt(path:afterFrames:reason:)``
    ///   when the decoder cannot get there.
    public func seek(to frame: Int64) throws(AudioFileError) {
        guard let file, isSeekable, let frames else {
            throw .unreadable(path: path, reason: "a stream is read once, in order: it cannot seek")
        }
        guard (0...frames).contains(frame) else {
            throw .unreadable(path: path, reason: "cannot seek to frame \(frame): the file holds frames 0 … \(frames)")
        }
        let decodes = [SF_FORMAT_VORBIS, SF_FORMAT_MPEG_LAYER_I, SF_FORMAT_MPEG_LAYER_II, SF_FORMAT_MPEG_LAYER_III]
            .contains(Int(format.subtypeCode))
        let target = decodes && frame >= framesRead ? framesRead : decodes ? 0 : frame
        if target != framesRead {
            let at = sf_seek(file, target, SEEK_SET)
            guard at == target else {
                throw .corrupt(path: path, afterFrames: framesRead, reason: "cannot seek to frame \(frame): "
                    + Self.clean(String(cString: sf_strerror(file))))
            }
            framesRead = at
        }
        try skip(frame - framesRead)
    }

    /// Reads `count` frames and lets them go.
    private func skip(_ count: Int64) throws(AudioFileError) {
        guard count > 0 else { return }
        let chunk = 4096
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: chunk * channels)
        defer { buffer.deallocate() }
        var left = count
        while left > 0 {
            let n = try read(into: buffer, frames: Int(min(left, Int64(chunk))))
            if n == 0 { break }
            left -= Int64(n)
        }
    }

    /// Reads up to `frames` frames of interleaved samples into `buffer` (which holds at least
    /// `frames × channels` floats). Returns the number read: fewer only at the end, 0 after it.
    ///
    /// - Throws: ``AudioFileError/corrupt(path:afterFrames:reason:)`` when decoding fails and
    ///   ``AudioFileError/truncated(path:reason:)`` when the data ends before the header's length.
    public func read(into buffer: UnsafeMutablePointer<Float>, frames wanted: Int) throws(AudioFileError) -> Int {
        guard channels != fileChannels else { return try readFile(into: buffer, frames: wanted) }
        if folding.count < wanted * fileChannels { folding = [Float](repeating: 0, count: wanted * fileChannels) }
        return try folding.withUnsafeMutableBufferPointer { scratch throws(AudioFileError) -> Int in
            let n = try readFile(into: scratch.baseAddress!, frames: wanted)
            ChannelFold.fold(scratch.baseAddress!, .interleaved(fileChannels), into: buffer, .interleaved(channels), frames: n)
            return n
        }
    }

    /// Delivers `count` channels from now on: the file's folded to them as a plug-in's main
    /// inputs are (a mono file feeds every channel; stereo into four gives L R L R; more into
    /// fewer, the mean of those that fall on each) — `render --channels`, an ambisonic encoder's
    /// outputs from a stereo file. The file's speaker names no longer apply.
    public func fold(to count: Int) {
        guard count != channels else { return }
        channels = count
        channelMap = nil
    }

    /// The file's frames as it holds them, for ``read(into:frames:)``.
    private var folding: [Float] = []

    private func readFile(into buffer: UnsafeMutablePointer<Float>, frames wanted: Int) throws(AudioFileError) -> Int {
        var want = Int64(wanted)
        if let frames { want = min(want, frames - framesRead) }
        guard want > 0 else { return 0 }
        if rest == nil, let beyondPlaceholder {
            // libsndfile stops at the placeholder's count and reads whole requests from the
            // pipe even when it returns fewer frames: ask for no more than it delivers.
            if framesRead < libraryFrames { want = min(want, libraryFrames - framesRead) } else { rest = try openRest(beyondPlaceholder) }
        }
        guard let source = rest ?? file else { return 0 }
        let n = sf_readf_float(source, buffer, want)
        let code = sf_error(source)
        if code != 0 {
            throw .corrupt(path: path, afterFrames: framesRead + max(0, n), reason: Self.clean(String(cString: sf_strerror(source))))
        }
        framesRead += max(0, n)
        if n < want, let frames {
            throw .truncated(path: path, reason: "the header promises \(frames) frames but the data ends after \(framesRead)")
        }
        return Int(max(0, n))
    }

    /// A WAV stream's length is not known when it is written (ffmpeg, sox and most writers
    /// on a pipe put a placeholder in the header: 0xFFFFFFFF or 0x7FFFF000), but libsndfile
    /// takes the placeholder as the length and stops there, at 4 or 2 GiB, as if the stream
    /// had ended. The samples after that point are read as what they are, raw samples of the
    /// header's encoding, from where libsndfile stopped (a pipe is read in order, and
    /// libsndfile reads exactly the bytes of the frames it delivers), to the stream's end.
    /// nil for an encoding libsndfile cannot read raw (ADPCM and other block encodings).
    static func rawFormat(of format: AudioFormat, channels: Int, sampleRate: Int) -> Int32? {
        guard format.majorCode == Int32(SF_FORMAT_WAV) || format.majorCode == Int32(SF_FORMAT_WAVEX) else { return nil }
        let raw = Int32(SF_FORMAT_RAW) | format.subtypeCode | Int32(SF_ENDIAN_LITTLE)
        return AudioFormat.check(raw, channels: channels, sampleRate: sampleRate) ? raw : nil
    }

    /// Opens the rest of a stream past libsndfile's count, as raw samples of `raw`.
    private func openRest(_ raw: Int32) throws(AudioFileError) -> OpaquePointer {
        var info = SF_INFO()
        info.format = raw
        info.channels = Int32(fileChannels)
        info.samplerate = Int32(sampleRate)
        let own: Int32
        do { own = try DescriptorIO.duplicate(descriptor) } catch {
            throw .corrupt(path: path, afterFrames: framesRead, reason: error.errno.description)
        }
        // With close_desc set, libsndfile closes `own`, on a failed open too.
        let opened: OpaquePointer? = Self.openLock.withLock { _ in sf_open_fd(own, Int32(SFM_READ), &info, 1) }
        guard let opened else {
            throw .corrupt(path: path, afterFrames: framesRead, reason: Self.clean(String(cString: sf_strerror(nil))))
        }
        return opened
    }

    /// How an Ogg file ends.
    enum OggEnding: Equatable {
        /// Its last page is whole and ends the stream (the end-of-stream flag).
        case complete
        /// Its last page is cut short, or whole but not the stream's end: the file stops where
        /// its writer did not.
        case brokenOff
    }

    /// Ogg has no header that declares its length: libsndfile counts an Ogg file's frames up
    /// to the last whole page it finds and quietly stops reading there, so a cut-off file
    /// reads as a shorter one, or as one that holds no audio at all. Only its last page tells:
    /// a whole page that carries the end-of-stream flag (0x04), which every writer puts on its
    /// last page. nil when the file does not start with an Ogg page (`OggS`).
    ///
    /// Looks at the last 65 307 bytes (the largest page: a 27-byte head, 255 lacing values
    /// and 255 × 255 bytes of data) for the last page head; anything after a whole
    /// end-of-stream page (a stray tag) is left alone.
    static func oggEnding(_ fd: Int32, size: Int64) -> OggEnding? {
        guard DescriptorIO.bytes(fd, at: 0, count: 4) == Array("OggS".utf8) else { return nil }
        let count = Int(min(size, 27 + 255 + 255 * 255))
        guard let tail = DescriptorIO.bytes(fd, at: size - Int64(count), count: count) else { return nil }
        for start in stride(from: count - 27, through: 0, by: -1)
        where tail[start] == 0x4F && tail[start + 1] == 0x67 && tail[start + 2] == 0x67 && tail[start + 3] == 0x53
            && tail[start + 4] == 0 {
            let segments = Int(tail[start + 26])
            guard start + 27 + segments <= count else { return .brokenOff }
            let end = start + 27 + segments + tail[start + 27 ..< start + 27 + segments].reduce(0) { $0 + Int($1) }
            return end <= count && tail[start + 5] & 0x04 != 0 ? .complete : .brokenOff
        }
        return .brokenOff
    }

    /// Why an Ogg file that ``oggEnding(_:size:)`` finds cut off is refused.
    static let oggBrokenOff = "the Ogg stream breaks off before its end-of-stream page"

    /// libsndfile's log of the header it parsed.
    private static func logText(_ file: OpaquePointer) -> String {
        var log = [CChar](repeating: 0, count: 16_384)
        sf_command(file, Int32(SFC_GET_LOG_INFO), &log, Int32(log.count))
        return log.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// True when the chunk that holds the audio declares a streaming placeholder length:
    /// `data : 4294967295` (0xFFFFFFFF, ffmpeg and most writers) or `data : 2147479552`
    /// (0x7FFFF000, what sox writes when it cannot seek back to fill in the length).
    static func declaresUnknownLength(log: String) -> Bool {
        log.split(separator: "\n").contains { line in
            let parts = line.split(separator: " ")
            return parts.count >= 3 && (parts[0] == "data" || parts[0] == "SSND") && parts[1] == ":"
                && Self.placeholderLengths.contains(parts[2])
        }
    }

    /// The data lengths streaming writers put in a header they cannot go back to.
    static let placeholderLengths: Set<Substring> = ["4294967295", "2147479552"]

    /// The size a header declares for its audio and what the file really holds, when the
    /// first is larger. libsndfile shortens such files silently and only logs the fact, as
    /// `data : 192000 (should be 99956)` for the chunk that holds the audio (WAV, RF64 `data`,
    /// AIFF `SSND`, the whole `riff` of W64; AU logs `Data Size   : 192000 (should be 99956)`),
    /// so the log is the one place it can be learnt. Streamed files that do not know their
    /// length write 0 or 0xFFFFFFFF there, which is not a truncation.
    static func headerShortfall(log: String) -> (declared: Int64, actual: Int64)? {
        // Most logs hold no such line: looked for as bytes first, since splitting every
        // file's log into words cost a batch of short files more than their headers' reading.
        guard log.withCString({ strstr($0, "(should be ") }) != nil else { return nil }
        let markers: Set<String> = ["data", "SSND", "riff", "Data Size"]
        for line in log.split(separator: "\n") {
            // <marker> : <declared> (should be <actual>)
            guard let colon = line.firstIndex(of: ":") else { continue }
            let marker = line[..<colon].split(separator: " ").joined(separator: " ")
            let parts = line[line.index(after: colon)...].split(separator: " ")
            guard markers.contains(marker), parts.count == 4, parts[1] == "(should", parts[2] == "be",
                  let declared = Int64(parts[0]), parts[3].hasSuffix(")"),
                  let actual = Int64(parts[3].dropLast()) else { continue }
            if declared > actual && declared != 0xFFFF_FFFF && declared != 0xFFFF_FFFF - 8 { return (declared, actual) }
        }
        return nil
    }

    /// The error for a failed open, from libsndfile's code and message.
    private static func openError(path: String, code: Int32, message: String) -> AudioFileError {
        switch Int(code) {
        case SF_ERR_UNRECOGNISED_FORMAT: return .notAudio(path: path)
        case SF_ERR_SYSTEM: return .cannotOpen(path: path, reason: clean(message))
        default:
            // This message stands for impossible SF_INFO values taken from the header.
            // libsndfile's words for an MPEG file whose decoder found no frame at all.
            if message.contains("possibly a pipe") {
                return .unreadable(path: path, reason: "no audio stream found")
            }
            if message.contains("SF_INFO struct incomplete") {
                return .unreadable(path: path, reason: "impossible sample rate or channel count in the header")
            }
            return .unreadable(path: path, reason: clean(message))
        }
    }

    /// A libsndfile message as part of one line: no trailing period, no "Error : " or
    /// "System error : " prefix (the system's own message follows it).
    static func clean(_ message: String) -> String {
        var text = Substring(message)
        for prefix in ["System error : ", "Error : ", "Error: "] where text.hasPrefix(prefix) { text = text.dropFirst(prefix.count) }
        while text.last == "." || text.last == "\n" { text = text.dropLast() }
        return String(text)
    }
}
