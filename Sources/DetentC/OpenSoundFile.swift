import OfflineRender
import Platform
import Synchronization
import TextFormats

/// A sound file opened for a caller in another language (Python's `detent.io.AudioFile`), read
/// or written in chunks through the reader and writer `detent render` uses: every container and
/// encoding a render reads or writes, its metadata, and its way of writing — a temporary file
/// beside the output, named only when whole (``PendingOutput``).
///
/// The caller's samples are planar (`channels` rows of `stride` floats); the file's are
/// interleaved, converted through a buffer of ``chunkFrames`` frames.
final class OpenSoundFile: @unchecked Sendable {
    /// Frames converted at a time between the caller's rows and the file's frames.
    static let chunkFrames = 4096

    /// A file being written, and how it is to be finished.
    struct Writing {
        let pending: PendingOutput
        let encoder: SampleEncoder
        /// The format asked for: a WAV file is written as RF64 only if it outgrows 4 GiB.
        let format: AudioFormat
        let sampleRate: Int
        let overwrite: Bool
    }

    enum Role {
        case reading(SoundFileReader)
        case writing(Writing)
    }

    let path: String
    let channels: Int
    /// nil once closed.
    private var role: Role?
    private let scratch: UnsafeMutablePointer<Float>
    private let inUse = Atomic<Bool>(false)

    /// Opens `path` for reading.
    init(reading path: String) throws(AudioFileError) {
        let reader = try SoundFileReader(path: path)
        self.path = path
        channels = reader.channels
        role = .reading(reader)
        scratch = .allocate(capacity: Self.chunkFrames * channels)
    }

    /// Starts writing `path` as `request` asks: a temporary file beside it, named by ``close()``.
    init(writing path: String, request: FileWriteRequest) throws {
        let (format, plan) = try request.format(for: path)
        let encoder: [EncoderSettings.Command]
        do { encoder = try request.encoder.commands(for: format, sampleRate: request.sampleRate, channels: request.channels) } catch {
            throw AudioFileError.encoderSetting(path: path, reason: error.reason)
        }
        if PathString.isFolder(path) { throw AudioFileError.writeFailed(path: path, reason: "is a folder") }
        if PathString.exists(path) && !request.force && !PathString.isSpecial(path) {
            throw CallFailure(.badValue, "\(path): already exists (give force=True to overwrite it)")
        }
        let pending = try PendingOutput(path: path)
        do {
            let writer = try SoundFileWriter(
                descriptor: pending.descriptor, path: path, format: plan.format, sampleRate: request.sampleRate,
                channels: request.channels, autoDowngrade: plan.autoDowngrade, frameLimit: plan.frameLimit,
                metadata: request.metadata, encoder: encoder)
            let sampleEncoder = SampleEncoder(writer: writer, dither: request.dither, sampleRate: request.sampleRate,
                                              capacity: Self.chunkFrames)
            role = .writing(Writing(pending: pending, encoder: sampleEncoder, format: format, sampleRate: request.sampleRate,
                                    overwrite: request.force))
        } catch {
            pending.discard()
            throw error
        }
        self.path = path
        channels = request.channels
        scratch = .allocate(capacity: Self.chunkFrames * channels)
    }

    /// An unfinished written file is removed: nothing appears under its name.
    deinit {
        abandon()
        scratch.deallocate()
    }

    /// Runs `body` as this thread's call, or refuses when another thread is in one.
    func exclusive<T>(_ body: () throws -> T) throws -> T {
        guard inUse.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            throw CallFailure(.busy, "\(path): this file is in use by another thread: use one file per thread")
        }
        defer { inUse.store(false, ordering: .releasing) }
        return try body()
    }

    private func reader() throws -> SoundFileReader {
        switch role {
        case .reading(let reader): return reader
        case .writing: throw CallFailure(.failed, "\(path): is open for writing, not reading")
        case nil: throw CallFailure(.failed, "\(path): the file is closed")
        }
    }

    private func writing() throws -> Writing {
        switch role {
        case .writing(let writing): return writing
        case .reading: throw CallFailure(.failed, "\(path): is open for reading, not writing")
        case nil: throw CallFailure(.failed, "\(path): the file is closed")
        }
    }

    /// Reads up to `frames` frames into `channels` rows `stride` floats apart; returns how
    /// many were read: fewer only at the end of the file.
    func read(into rows: UnsafeMutablePointer<Float>, stride: Int, frames wanted: Int) throws -> Int {
        let reader = try reader()
        var done = 0
        while done < wanted {
            let n = try reader.read(into: scratch, frames: min(Self.chunkFrames, wanted - done))
            if n == 0 { break }
            for c in 0..<channels {
                let row = rows + c * stride + done
                for i in 0..<n { row[i] = scratch[i * channels + c] }
            }
            done += n
        }
        return done
    }

    /// Goes to frame `frame`, where the next read starts.
    func seek(to frame: Int64) throws { try reader().seek(to: frame) }

    /// Writes `frames` frames from `channels` rows `stride` floats apart.
    func write(from rows: UnsafePointer<Float>, stride: Int, frames: Int) throws {
        let encoder = try writing().encoder
        var done = 0
        while done < frames {
            let n = min(Self.chunkFrames, frames - done)
            for c in 0..<channels {
                let row = rows + c * stride + done
                for i in 0..<n { scratch[i * channels + c] = row[i] }
            }
            try encoder.write(scratch, frames: n)
            done += n
        }
    }

    /// Finishes a written file and gives it its name (on failure nothing appears); a read
    /// file is let go. Later calls refuse: the file is closed.
    func close() throws {
        guard case .writing(let writing) = role else {
            role = nil
            return
        }
        role = nil
        do {
            try writing.encoder.writer.finish()
            try writing.pending.commit(overwrite: writing.overwrite)
        } catch {
            writing.pending.discard()
            throw error
        }
    }

    /// Removes an unfinished written file; lets a read file go.
    func abandon() {
        if case .writing(let writing) = role { writing.pending.discard() }
        role = nil
    }

    /// What the file is, as a JSON object: `mode` (`r`, `w`, or `closed`), `path`,
    /// `sampleRate`, `channels`, `frames` (the header's count, null for a stream of unknown
    /// length; written so far), `position`, `container`, `subtype`, `format` (`wav pcm16`),
    /// `seekable`; when reading, `metadata` (the text tags by name) and `otherMetadata` (the
    /// names of what else it holds: `bext`, `cue`, …); when writing, `metadataKept` and
    /// `metadataLost` (tags the container has no place for), `clipped` and `dither`.
    func info() -> JSONValue {
        var members = [JSONMember("path", .string(path)), JSONMember("channels", .number(channels))]
        switch role {
        case .reading(let reader):
            let tags = reader.metadata.tags
            members += [
                JSONMember("mode", .string("r")), JSONMember("sampleRate", .number(reader.sampleRate)),
                JSONMember("frames", reader.frames.map { .number($0) } ?? .null), JSONMember("position", .number(reader.framesRead)),
                JSONMember("seekable", .bool(reader.isSeekable)),
            ] + Self.describe(reader.format) + [
                JSONMember("metadata", .object(tags.map { JSONMember($0.name, .string($0.value)) })),
                JSONMember("otherMetadata", .array(reader.metadata.names.filter { name in !tags.contains { $0.name == name } }.map { .string($0) })),
            ]
        case .writing(let writing):
            let writer = writing.encoder.writer
            members += [
                JSONMember("mode", .string("w")), JSONMember("sampleRate", .number(writing.sampleRate)),
                JSONMember("frames", .number(writer.framesWritten)), JSONMember("position", .number(writer.framesWritten)),
                JSONMember("seekable", .bool(false)),
            ] + Self.describe(writing.format) + [
                JSONMember("metadataKept", .array(writer.keptMetadata.map { .string($0) })),
                JSONMember("metadataLost", .array(writer.lostMetadata.map { .string($0) })),
                JSONMember("clipped", .number(writing.encoder.clipped)),
                JSONMember("dither", .string(writing.encoder.dither?.rawValue)),
            ]
        case nil:
            members.append(JSONMember("mode", .string("closed")))
        }
        return .object(members)
    }

    private static func describe(_ format: AudioFormat) -> [JSONMember] {
        [JSONMember("container", .string(format.containerName)), JSONMember("subtype", .string(format.subtypeName)),
         JSONMember("format", .string(format.description))]
    }
}

/// What a file to be written is to be, from the JSON object `detent_file_open_write` takes:
/// `sampleRate` and `channels` (whole numbers), and optionally `format` (a container by the
/// name `--format` takes; otherwise the path's extension says), `subtype` (`--subtype`'s names),
/// `quality`, `bitrate`, `compression` (as `--quality`, `--bitrate`, `--compression`),
/// `dither` (`none`, the default, `tpdf` or `shaped`), `metadata` (an object of text tags by
/// name: `title`, `artist`, …) and `force` (replace an existing file).
struct FileWriteRequest {
    var sampleRate = 0
    var channels = 0
    var container: Container?
    var subtype: Subtype?
    var encoder = EncoderSettings()
    var dither = Dither.none
    var metadata: Metadata?
    var force = false

    init(json text: String) throws(CallFailure) {
        guard case .object(let members)? = try? JSONParser.parse(Array(text.utf8)) else {
            throw CallFailure(.badValue, "write: the request is not a JSON object")
        }
        for member in members {
            let value = member.value
            if case .null = value { continue }
            switch member.key {
            case "sampleRate": sampleRate = try Self.whole(value, "samplerate", in: SoundFileReader.sampleRates)
            case "channels": channels = try Self.whole(value, "num_channels", in: 1...1024)
            case "format": container = try Self.named(value, "format", Container.self)
            case "subtype": subtype = try Self.named(value, "subtype", Subtype.self)
            case "dither": dither = try Self.named(value, "dither", Dither.self)
            case "quality":
                guard let q = value.doubleValue, EncoderSettings.qualities.contains(q) else {
                    throw CallFailure(.badValue, "quality: expected a number from 0 to 1")
                }
                encoder.quality = q
            case "bitrate": encoder.bitrate = try Self.whole(value, "bitrate", in: 1...100_000)
            case "compression": encoder.compression = try Self.whole(value, "compression", in: EncoderSettings.compressionLevels)
            case "force":
                guard case .bool(let flag) = value else { throw CallFailure(.badValue, "force: expected True or False") }
                force = flag
            case "metadata":
                guard case .object(let tags) = value else { throw CallFailure(.badValue, "metadata: expected a dict of tag to text") }
                var pairs: [(name: String, value: String)] = []
                for tag in tags {
                    guard case .string(let text) = tag.value else {
                        throw CallFailure(.badValue, "metadata '\(tag.key)': expected text, not \(tag.value.kindDescription)")
                    }
                    pairs.append((tag.key, text))
                }
                guard let made = Metadata(tags: pairs) else {
                    let unknown = pairs.first { !Metadata.tagNames.contains($0.name) }?.name ?? ""
                    throw CallFailure(.badValue, "metadata: no tag '\(unknown)' (tags: \(Metadata.tagNames.joined(separator: ", ")))")
                }
                metadata = made
            default: throw CallFailure(.badValue, "write: unknown option '\(member.key)'")
            }
        }
        if sampleRate == 0 { throw CallFailure(.badValue, "samplerate: give the sample rate of the file to write") }
        if channels == 0 { throw CallFailure(.badValue, "num_channels: give the channel count of the file to write") }
    }

    /// The format of `path`, chosen as a render chooses its output's: the container `format`
    /// names or the extension says, holding the samples as floats where it can and its own
    /// encoding where it cannot (FLAC 24-bit, Ogg Vorbis), unless `subtype` says; and the
    /// plan that writes a WAV file of unknown length past 4 GiB.
    func format(for path: String) throws -> (AudioFormat, SizeLimit.Plan) {
        let job = try OutputPlanner.plan(inputs: [path], output: path, outputFolder: nil, format: container)[0]
        guard let chosen = job.container else {
            throw CallFailure(.badValue, "\(path): no extension names a container; name the file .wav, .flac, .ogg, … or give format=")
        }
        do {
            let format = try AudioFormat.output(for: AudioFormat(.wav, .float), container: chosen, subtype: subtype ?? job.subtype,
                                                channels: channels, sampleRate: sampleRate)
            return (format, try SizeLimit.plan(format, frames: nil, channels: channels))
        } catch {
            throw AudioFileError.formatNotWritable(path: path, reason: error.reason)
        }
    }

    private static func whole(_ value: JSONValue, _ name: String, in range: ClosedRange<Int>) throws(CallFailure) -> Int {
        guard let number = value.doubleValue, number == number.rounded(), Double(range.lowerBound) <= number,
              number <= Double(range.upperBound) else {
            throw CallFailure(.badValue, "\(name): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(number)
    }

    private static func named<Named: RawRepresentable & CaseIterable>(_ value: JSONValue, _ name: String,
                                                                      _: Named.Type) throws(CallFailure) -> Named
    where Named.RawValue == String {
        guard case .string(let text) = value, let found = Named(rawValue: text.lowercased()) else {
            let names = Named.allCases.map(\.rawValue).joined(separator: ", ")
            throw CallFailure(.badValue, "\(name) \(value.compactText): expected one of \(names)")
        }
        return found
    }
}
