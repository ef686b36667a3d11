import SystemPackage

/// Reads a small file whole, refusing one larger than a limit without reading it all: a path
/// that points at a huge file or at a device (`/dev/zero`) costs at most the limit and one
/// chunk, never the memory or the time of reading it.
package enum BoundedFileReader {
    /// Why a file could not be read.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        /// Opening or reading failed (a folder fails to read with `EISDIR`).
        case system(Errno)
        /// The file holds more than `limit` bytes.
        case tooLarge(limit: Int)

        /// As messages put it after "cannot be read": the system's reason, or the limit.
        package var description: String {
            switch self {
            case .system(let code): code.description
            case .tooLarge(let limit): "larger than " + BoundedFileReader.size(limit)
            }
        }
    }

    /// Why a file that must be a regular file could not be read.
    package enum RegularFileFailure: Error, Equatable, CustomStringConvertible {
        /// A folder, FIFO, device or socket.
        case notRegular(FileStatus.Kind)
        case failed(Failure)

        package var description: String {
            switch self {
            case .notRegular(.folder): "is a folder, not a file"
            case .notRegular(.pipe): "is a FIFO, not a regular file"
            case .notRegular(.characterDevice), .notRegular(.blockDevice): "is a device, not a regular file"
            case .notRegular(.socket): "is a socket, not a regular file"
            case .notRegular: "is not a regular file"
            case .failed(let failure): "cannot be read (\(failure))"
            }
        }
    }

    /// The bytes of the file at `path` (a plain string: it is opened exactly as given, where a
    /// `FilePath` would drop a trailing `/`).
    package static func read(path: String, limit: Int) throws(Failure) -> [UInt8] {
        let file = try open(path, options: .closeOnExec)
        defer { try? file.close() }
        return try readAll(file, limit: limit)
    }

    /// The bytes of the file at `path`, which must be a regular file: for a small file read
    /// whole that nothing but a file can hold (a graph). It is opened without waiting, so that
    /// a FIFO no one writes to is refused at once instead of blocking forever, and a device or
    /// FIFO is refused rather than read (what it gives is no file's content).
    package static func readRegularFile(path: String, limit: Int) throws(RegularFileFailure) -> [UInt8] {
        let file: FileDescriptor
        do { file = try open(path, options: [.closeOnExec, .nonBlocking]) } catch { throw .failed(error) }
        defer { try? file.close() }
        let kind: FileStatus.Kind
        do { kind = try FileStatus(descriptor: file.rawValue).kind } catch { throw .failed(.system(error.errno)) }
        guard kind == .regular else { throw .notRegular(kind) }
        // A regular file's reads never wait: the flag changes nothing from here on.
        do { return try readAll(file, limit: limit) } catch { throw .failed(error) }
    }

    private static func open(_ path: String, options: FileDescriptor.OpenOptions) throws(Failure) -> FileDescriptor {
        do {
            return try path.withCString {
                try FileDescriptor.open($0, .readOnly, options: options, retryOnInterrupt: true)
            }
        } catch {
            throw .system(error as? Errno ?? .ioError)
        }
    }

    private static func readAll(_ file: FileDescriptor, limit: Int) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try file.read(into: $0, retryOnInterrupt: true) }
            } catch {
                throw .system(error as? Errno ?? .ioError)
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            if bytes.count > limit { throw .tooLarge(limit: limit) }
        }
    }

    /// `bytes` as a limit is told: `1 MB`, `64 KB`, or in bytes.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
        return "\(bytes) bytes"
    }
}
