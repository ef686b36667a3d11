import CSndfile
import Platform

/// A FLAC stream on a pipe given to libsndfile as a file it can seek in,
/// within the last ``window`` bytes read.
///
/// libsndfile reads a pipe directly only for formats whose parsers never look back: it reads
/// the first bytes to recognise the format, and a FLAC decoder then starts reading where
/// those bytes ended ("flac decoder lost sync"). Through libsndfile's virtual I/O it reads
/// this object instead, which keeps what it read, so seeking back to the start works; seeking
/// forward reads and keeps. Memory is at most twice the window, whatever the stream's length.
final class StreamInput {
    /// Bytes that stay available behind the reading position.
    static let window = 1 << 20

    private let descriptor: Int32
    /// Bytes from stream offset `base` on.
    private var kept: [UInt8] = []
    private var base: Int64 = 0
    private var position: Int64 = 0
    private var ended = false
    /// The system's reason when reading the stream failed.
    private(set) var failure: SystemCallError?

    /// Takes ownership of `descriptor` (closed on deinit).
    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { try? DescriptorIO.close(descriptor) }

    /// True when `descriptor` is a pipe whose stream starts as FLAC does. Only FLAC needs
    /// this: libsndfile reads other formats from a pipe directly, and for them a file it can
    /// seek in would be worse — its WAV parser, for one, seeks past the audio to look for
    /// chunks after it, which on a stream means reading all of it first.
    static func isFLACStream(_ descriptor: Int32) -> Bool {
        guard !DescriptorIO.canSeek(descriptor) else { return false }
        return PipePeek.bytes(descriptor, count: 4) == Array("fLaC".utf8)
    }

    /// Reads more of the stream into `kept` until it reaches `offset` or ends; false at the end.
    private func fill(to offset: Int64) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while base + Int64(kept.count) < offset && !ended {
            let n: Int
            do { n = try DescriptorIO.read(descriptor, into: &chunk) } catch {
                failure = error
                ended = true
                break
            }
            if n == 0 { ended = true } else { kept += chunk[..<n] }
        }
        // Forget what lies more than a window behind the reading position.
        let drop = Int(max(0, position - base - Int64(Self.window)))
        if drop > Self.window {
            kept.removeFirst(drop)
            base += Int64(drop)
        }
        return base + Int64(kept.count) >= offset
    }

    fileprivate func read(_ into: UnsafeMutableRawPointer, _ count: Int) -> Int {
        _ = fill(to: position + Int64(count))
        let start = Int(position - base)
        let n = max(0, min(count, kept.count - start))
        if n > 0 {
            kept.withUnsafeBytes { into.copyMemory(from: $0.baseAddress! + start, byteCount: n) }
            position += Int64(n)
        }
        return n
    }

    fileprivate func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        let target: Int64
        switch whence {
        case SEEK_SET: target = offset
        case SEEK_CUR: target = position + offset
        default: return -1  // the end of a stream is not known
        }
        guard target >= base else { return -1 }
        if target > base + Int64(kept.count) && !fill(to: target) { return -1 }
        position = target
        return position
    }

    fileprivate var tell: Int64 { position }

    /// The callbacks libsndfile calls, with this object as their `user_data`. The length is
    /// unknown: it is given as the largest a file can be, so that no header is taken for a
    /// truncated one (the reader checks the end itself).
    static var callbacks: SF_VIRTUAL_IO {
        SF_VIRTUAL_IO(
            get_filelen: { _ in Int64.max / 4 },
            seek: { offset, whence, user in StreamInput.stream(user).seek(offset, whence) },
            read: { pointer, count, user in Int64(StreamInput.stream(user).read(pointer!, Int(count))) },
            write: { _, _, _ in 0 },
            tell: { user in StreamInput.stream(user).tell })
    }

    private static func stream(_ user: UnsafeMutableRawPointer?) -> StreamInput {
        Unmanaged<StreamInput>.fromOpaque(user!).takeUnretainedValue()
    }
}
