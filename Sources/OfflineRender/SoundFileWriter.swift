import CSndfile
import Platform

/// Writes interleaved audio through libsndfile to an open file descriptor.
///
/// Integer PCM is handed over as left-justified 32-bit integers that ``Quantizer`` made (so
/// rounding, clipping and dither are Detent's, and counted); every other encoding takes
/// floats, which libsndfile converts.
public final class SoundFileWriter {
    public let path: String
    public let format: AudioFormat
    public let channels: Int
    private var file: OpaquePointer?
    /// Where the bytes go; it outlives `file`, whose virtual I/O calls it.
    private let sink: OutputSink
    private let frameLimit: Int64?
    /// What of the input's metadata is put in after libsndfile closed the file.
    private var foreign: ForeignMetadata?
    /// What of the input's metadata the output holds (`title`, …, `bext`, `cue`, `instrument`).
    public private(set) var keptMetadata: [String] = []
    /// What of it the output's container has no place for.
    public private(set) var lostMetadata: [String] = []
    /// Frames written so far.
    public private(set) var framesWritten: Int64 = 0

    /// Starts a file of `format` on `descriptor`; `path` names it in messages.
    ///
    /// The writer works on its own duplicate of `descriptor` (``OutputSink``), closed when the
    /// file is finished or dropped. libsndfile's last act on closing is writing the header, so
    /// it must never share a descriptor number that its owner may close first (and the system
    /// may hand to another file meanwhile).
    ///
    /// - Throws: ``AudioFileError/formatNotWritable(path:reason:)`` when libsndfile refuses the
    ///   combination (e.g. Opus at 44.1 kHz).
    /// - Parameters:
    ///   - channelMap: the speaker of each channel, written where the container holds it.
    ///   - autoDowngrade: an RF64 file that stays under 4 GiB is written as WAV.
    ///   - frameLimit: writing more frames fails (a container whose header cannot count them).
    ///   - metadata: tags and chunks to copy, where the container has a place for them.
    ///   - encoder: settings for the encoder (``EncoderSettings/commands(for:sampleRate:channels:)``).
    public init(
        descriptor: Int32, path: String, format: AudioFormat, sampleRate: Int, channels: Int,
        channelMap: [Int32]? = nil, autoDowngrade: Bool = false, frameLimit: Int64? = nil, metadata: Metadata? = nil,
        encoder: [EncoderSettings.Command] = []
    ) throws(AudioFileError) {
        self.path = path
        self.frameLimit = frameLimit
        self.format = format
        self.channels = channels
        var info = SF_INFO()
        info.format = format.code
        info.samplerate = Int32(clamping: sampleRate)
        info.channels = Int32(clamping: channels)
        let sink: OutputSink
        do { sink = try OutputSink(duplicating: descriptor) } catch { throw .writeFailed(path: path, reason: error.errno.description) }
        self.sink = sink
        // The sink's address and descriptor, as numbers that may cross into the lock's closure.
        let (sinkAddress, stream, descriptor) = (Int(bitPattern: Unmanaged.passUnretained(sink).toOpaque()), sink.isStream, sink.descriptor)
        let opened: Result<OpaquePointer, AudioFileError> = SoundFileReader.openLock.withLock { _ in
            if stream {
                // A descriptor of its own, which libsndfile closes (on a failed open too).
                let own: Int32
                do throws(SystemCallError) { own = try DescriptorIO.duplicate(descriptor) } catch { return .failure(.writeFailed(path: path, reason: error.errno.description)) }
                if let f = sf_open_fd(own, Int32(SFM_WRITE), &info, 1) { return .success(f) }
            } else {
                var callbacks = OutputSink.callbacks
                if let f = sf_open_virtual(&callbacks, Int32(SFM_WRITE), &info, UnsafeMutableRawPointer(bitPattern: sinkAddress)) {
                    return .success(f)
                }
            }
            // sf_open fails before it writes anything for format problems; a header that
            // cannot be written (a full disk) fails in the sink or as SF_ERR_SYSTEM.
            let code = sf_error(nil)
            let message = SoundFileReader.clean(String(cString: sf_strerror(nil)))
            if Int(code) == SF_ERR_SYSTEM { return .failure(.writeFailed(path: path, reason: message)) }
            return .failure(.formatNotWritable(path: path, reason: "\(format) at \(sampleRate) Hz, \(channels) channels: \(message)"))
        }
        if case .failure = opened, let failure = sink.failure { throw .writeFailed(path: path, reason: failure.errno.description) }
        let f = try opened.get()
        file = f
        // First of all: the encoders take their settings only until they start (Vorbis and
        // FLAC at the first write, LAME when it first encodes).
        if let refused = EncoderSettings.send(encoder, to: f) {
            throw .formatNotWritable(path: path, reason: "libsndfile refused \(refused) for \(format)")
        }
        // libsndfile otherwise wraps floats beyond ±1 around when it converts them to
        // integers (for encodings such as µ-law that Detent does not quantise itself).
        sf_command(f, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        // The PEAK chunk of float files carries the time of writing: without it, the same
        // render gives the same bytes every time.
        sf_command(f, Int32(SFC_SET_ADD_PEAK_CHUNK), nil, Int32(SF_FALSE))
        if autoDowngrade { sf_command(f, Int32(SFC_RF64_AUTO_DOWNGRADE), nil, Int32(SF_TRUE)) }
        // Containers without a place for it decline; the header is completed on closing.
        keptMetadata = metadata?.write(to: f) ?? []
        lostMetadata = (metadata?.libraryNames ?? []).filter { !keptMetadata.contains($0) }
        foreign = metadata?.foreign
        if var map = channelMap, map.count == channels {
            sf_command(f, Int32(SFC_SET_CHANNEL_MAP_INFO), &map, Int32(map.count * MemoryLayout<Int32>.size))
        }
    }

    deinit { if let file { sf_close(file) } }

    /// Writes `frames` frames of interleaved floats.
    public func write(_ samples: UnsafePointer<Float>, frames: Int) throws(AudioFileError) {
        guard let file else { return }
        try count(frames)
        let n = sf_writef_float(file, samples, Int64(frames))
        try check(written: n, of: frames)
    }

    /// Writes `frames` frames of interleaved left-justified 32-bit integers.
    public func write(_ samples: UnsafePointer<Int32>, frames: Int) throws(AudioFileError) {
        guard let file else { return }
        try count(frames)
        let n = sf_writef_int(file, samples, Int64(frames))
        try check(written: n, of: frames)
    }

    /// Completes the header, flushes the encoder, syncs the file to the disk and closes it.
    ///
    /// - Throws: ``AudioFileError/writeFailed(path:reason:)`` when any of it failed, with the
    ///   system's reason: the encoders' last writes and the header are checked here.
    public func finish() throws(AudioFileError) {
        guard let f = file else { return }
        file = nil
        // `sf_close` returns -1 with `errno` when closing libsndfile's descriptor fails (a
        // stream); writes through the sink are counted in the sink.
        let closed = sf_close(f) == 0 ? nil : SystemCallError.last("close")
        do throws(SystemCallError) {
            if sink.streamBroken { throw SystemCallError("write", .brokenPipe) }
            if let foreign, !foreign.isEmpty {
                let (kept, lost) = closed != nil || sink.failure != nil ? ([], foreign.names)
                    : try foreign.write(to: sink.descriptor, container: format.container, canRewrite: !sink.isStream,
                                        frames: framesWritten)
                keptMetadata += kept
                lostMetadata += lost
            }
            try sink.close()
            if let closed { throw closed }
        } catch {
            throw .writeFailed(path: path, reason: error.errno.description)
        }
    }

    /// Counts frames about to be written; past the frame limit the render fails rather than
    /// write a header that wraps around.
    private func count(_ frames: Int) throws(AudioFileError) {
        framesWritten += Int64(frames)
        if let frameLimit, framesWritten > frameLimit {
            throw .formatNotWritable(path: path, reason: "\(format.containerName) holds at most 4 GiB of audio; "
                + "use --format rf64, w64 or caf")
        }
    }

    /// Fails when libsndfile wrote fewer frames than it was given, reported an error, or
    /// made a write that failed (which libsndfile's MP3 encoder does not report).
    private func check(written n: Int64, of frames: Int) throws(AudioFileError) {
        if let failure = sink.failure { throw .writeFailed(path: path, reason: failure.errno.description) }
        guard let file, n != Int64(frames) || sf_error(file) != 0 else { return }
        throw .writeFailed(path: path, reason: SoundFileReader.clean(String(cString: sf_strerror(file))))
    }
}
