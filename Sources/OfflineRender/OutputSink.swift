import CSndfile
import Platform

/// The descriptor an output is written through, which remembers the first write that failed.
///
/// libsndfile does not report every failed write: its MP3 encoder logs a short write and goes
/// on, every encoder's flush on closing (the last MP3 frames and the LAME tag, the last Ogg
/// pages, the WAV header) ignores the outcome of its writes, and `sf_close` returns only the
/// result of `close` (as -1, which is no libsndfile error number). So an output on a full disk
/// could end as a short file reported as written. Through libsndfile's virtual I/O every byte
/// passes here, and the first failure, with the system's reason (`No space left on device`),
/// is kept for ``SoundFileWriter`` to check after each write and after closing.
///
/// A pipe or socket is the exception: libsndfile knows a stream only by its descriptor (for a
/// virtual file it assumes it can seek, and would write a header again at the end), so a
/// stream is given to libsndfile as a descriptor, and its failures are learnt from
/// libsndfile's error state after each write and from the pipe itself after closing
/// (``streamBroken``).
final class OutputSink {
    /// This object's own duplicate of the output's descriptor (closed by ``close()``).
    private(set) var descriptor: Int32
    /// True for a pipe or a socket.
    let isStream: Bool
    /// The first write, seek or size query that failed, with the system's reason.
    private(set) var failure: SystemCallError?
    /// Where the next write goes, and how far the disk has been asked to catch up.
    private var position: Int64 = 0
    private var writtenBack: Int64 = 0
    /// Write-back starts every time this much more has been written: the final `fsync` then
    /// waits for the last stretch only, not the whole file, and a render to a disk costs
    /// about what it costs to memory (the disk writes while the engine works).
    static let writeBackStretch: Int64 = 8 << 20
    /// Asks for the write-back, off the writing thread; made at the first stretch (a short
    /// file never needs one).
    private var writeBack: WriteBackThread?

    /// Duplicates `descriptor`, so that this object owns what it closes.
    init(duplicating descriptor: Int32) throws(SystemCallError) {
        let own = try DescriptorIO.duplicate(descriptor)
        self.descriptor = own
        isStream = DescriptorIO.isStream(own)
    }

    deinit {
        writeBack?.finish()
        if descriptor >= 0 { try? DescriptorIO.close(descriptor) }
    }

    /// Flushes what was written to the disk and closes the descriptor; the first failure
    /// (a write that failed earlier included) is thrown. Kinds of files that cannot be synced
    /// (a device, a pipe) are not a failure.
    func close() throws(SystemCallError) {
        defer { descriptor = -1 }
        writeBack?.finish()
        writeBack = nil
        if let failure {
            try? DescriptorIO.close(descriptor)
            throw failure
        }
        do {
            try DescriptorIO.sync(descriptor)
        } catch {
            try? DescriptorIO.close(descriptor)
            throw error
        }
        try DescriptorIO.close(descriptor)
    }

    /// True when the reader of a pipe or socket output has gone, so that what was written
    /// last (an encoder's flush on closing, whose writes libsndfile does not check) was lost.
    var streamBroken: Bool { isStream && DescriptorIO.readerGone(descriptor) }

    private func record(_ error: SystemCallError) {
        if failure == nil { failure = error }
    }

    private func write(_ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        var done = 0
        do {
            try DescriptorIO.writeAll(descriptor, UnsafeRawBufferPointer(start: bytes, count: count), written: &done)
        } catch {
            record(error)
        }
        position += Int64(done)
        if !isStream, position - writtenBack >= Self.writeBackStretch {
            if writeBack == nil { writeBack = try? WriteBackThread(descriptor: descriptor) }
            if let writeBack {
                writeBack.request(upTo: position)
            } else {
                startWriteBack(descriptor: descriptor, offset: writtenBack, count: position - writtenBack)
            }
            writtenBack = position
        }
        return done
    }

    private func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        do {
            position = try DescriptorIO.seek(descriptor, to: offset, from: whence)
            return position
        } catch {
            record(error)
            return -1
        }
    }

    private func read(_ into: UnsafeMutableRawPointer, _ count: Int) -> Int {
        (try? DescriptorIO.read(descriptor, into: UnsafeMutableRawBufferPointer(start: into, count: count))) ?? 0
    }

    private var length: Int64 {
        do { return try DescriptorIO.size(descriptor) } catch {
            record(error)
            return 0
        }
    }

    /// The callbacks libsndfile calls, with this object as their `user_data`.
    static var callbacks: SF_VIRTUAL_IO {
        SF_VIRTUAL_IO(
            get_filelen: { user in OutputSink.sink(user).length },
            seek: { offset, whence, user in OutputSink.sink(user).seek(offset, whence) },
            read: { pointer, count, user in Int64(OutputSink.sink(user).read(pointer!, Int(count))) },
            write: { pointer, count, user in Int64(OutputSink.sink(user).write(pointer!, Int(count))) },
            tell: { user in OutputSink.sink(user).seek(0, SEEK_CUR) })
    }

    private static func sink(_ user: UnsafeMutableRawPointer?) -> OutputSink {
        Unmanaged<OutputSink>.fromOpaque(user!).takeUnretainedValue()
    }
}
