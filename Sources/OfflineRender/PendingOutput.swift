import Platform

/// An output file that appears under its name only when it is complete.
///
/// The data goes to a hidden temporary file in the output's own folder (so the final rename
/// stays on one file system and is atomic); ``commit(overwrite:)`` gives it its name, and
/// ``discard()`` — or dropping it uncommitted — removes it. A reader of the folder therefore
/// sees either no output or a whole one, never a half-written file.
///
/// ```swift
/// let pending = try PendingOutput(path: "out.wav")
/// … write to pending.descriptor …
/// try pending.commit(overwrite: false)
/// ```
public final class PendingOutput {
    /// Where the file will appear.
    public let path: String
    /// The temporary file's path, in the same folder.
    public let temporaryPath: String
    /// The open temporary file (closed by `commit`/`discard`).
    public private(set) var descriptor: Int32
    private var finished = false {
        didSet { if finished, let registration { UnfinishedFiles.remove(slot: registration) } }
    }
    /// The slot in ``UnfinishedFiles`` while the temporary file exists.
    private var registration: Int?

    /// The permissions a new file gets (0666 less the process's umask).
    private static let newFileMode = FilePermissions(rawValue: 0o666 & ~ThisProcess.creationMask.rawValue)

    /// True for a special file (a device, a FIFO, `/dev/stdout`): written to directly, as a
    /// stream, because replacing it would put a regular file where the device was.
    public let isStream: Bool

    /// Creates the temporary file beside `path`, or opens `path` itself when it is a special
    /// file (``PathString/isSpecial(_:)``).
    ///
    /// - Throws: ``AudioFileError/outputFolderMissing(path:)`` when the folder does not exist,
    ///   ``AudioFileError/writeFailed(path:reason:)`` when the file cannot be created there.
    public init(path: String) throws(AudioFileError) {
        self.path = path
        isStream = PathString.isSpecial(path)
        if isStream {
            do { descriptor = try DescriptorIO.open(path, .writeOnly) } catch {
                throw .writeFailed(path: path, reason: error.errno.description)
            }
            temporaryPath = path
            return
        }
        let folder = PathString.folder(of: path)
        guard PathString.isFolder(folder) else { throw .outputFolderMissing(path: folder) }
        let fd: Int32
        do {
            (temporaryPath, fd) = try TemporaryFile.create(prefix: PathString.join(folder, "." + PathString.name(of: path) + ".detent-"))
        } catch {
            throw .writeFailed(path: path, reason: error.errno.description)
        }
        // Held until the file is renamed or removed, and dropped by the kernel when the
        // process dies however it dies: a batch started again removes only the temporary
        // files no running render holds (`--skip-existing`).
        _ = DescriptorIO.lockExclusively(fd)
        descriptor = fd
        registration = UnfinishedFiles.register(temporaryPath)
    }

    deinit { discard() }

    /// Gives the finished file its name. Without `overwrite`, an existing file at `path` (even
    /// one created while rendering) is left alone and the render fails.
    public func commit(overwrite: Bool) throws(AudioFileError) {
        guard !finished else { return }
        if isStream {
            finished = true
            defer { descriptor = -1 }
            do { try DescriptorIO.close(descriptor) } catch { throw .writeFailed(path: path, reason: error.errno.description) }
            return
        }
        var failure: SystemCallError?
        do { try DescriptorIO.setMode(descriptor, Self.newFileMode) } catch { failure = error }
        // A second descriptor of the same open file keeps its lock until the file has its name:
        // closed first (a network file system reports a failed write there), the lock would drop
        // and another run cleaning up abandoned files could take the finished file for one.
        let keeper = try? DescriptorIO.duplicate(descriptor)
        defer { if let keeper { try? DescriptorIO.close(keeper) } }
        do { try DescriptorIO.close(descriptor) } catch { failure = failure ?? error }
        descriptor = -1
        if let failure {
            discard()
            throw .writeFailed(path: path, reason: failure.errno.description)
        }
        finished = true
        try Self.name(temporary: temporaryPath, as: path, overwrite: overwrite)
    }

    /// Makes the file ready for another process to name (``name(temporary:as:overwrite:)``):
    /// its permissions are set, and it stays open and locked until ``release()``, so that no
    /// batch cleaning up abandoned files (``flock``) takes it for one in the meantime.
    /// A stream is committed (closed) here, having no name to give.
    public func seal() throws(AudioFileError) {
        guard !finished else { return }
        if isStream { return try commit(overwrite: true) }
        do { try DescriptorIO.setMode(descriptor, Self.newFileMode) } catch {
            discard()
            throw .writeFailed(path: path, reason: error.errno.description)
        }
    }

    /// Closes a sealed file without removing it: another process has given it its name, or
    /// will remove it.
    public func release() {
        guard !finished else { return }
        finished = true
        if descriptor >= 0 { try? DescriptorIO.close(descriptor) }
        descriptor = -1
    }

    /// Gives the finished temporary file `temporary` the name `path`, as ``commit(overwrite:)``
    /// does; on failure the temporary file is removed.
    public static func name(temporary: String, as path: String, overwrite: Bool) throws(AudioFileError) {
        do {
            try FileNaming.name(temporary, as: path, replacing: overwrite)
        } catch {
            PathString.remove(temporary)
            switch error {
            case .exists: throw .outputExists(path: path)
            case .failed(_, let code): throw .writeFailed(path: path, reason: code.description)
            }
        }
    }

    /// Removes the temporary file. Safe to call more than once.
    public func discard() {
        guard !finished else { return }
        finished = true
        if descriptor >= 0 { try? DescriptorIO.close(descriptor) }
        descriptor = -1
        if !isStream { PathString.remove(temporaryPath) }
    }
}
