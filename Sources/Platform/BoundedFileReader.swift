import SystemPackage

/// Reads a small file whole, refusing one larger than a limit without reading it all: a path
/// that points at a huge file or at a device (`/dev/zero`) costs at most the limit and one
/// chunk, never the memory or the time of reading it.
public enum BoundedFileReader {
    /// Why a file could not be read.
    public enum Failure: Error, Equatable {
        /// Opening or reading failed (a folder fails to read with `EISDIR`).
        case system(Errno)
        /// The file holds more than `limit` bytes.
        case tooLarge(limit: Int)
    }

    /// The bytes of the file at `path` (a plain string: it is opened exactly as given, where a
    /// `FilePath` would drop a trailing `/`).
    public static func read(path: String, limit: Int) throws(Failure) -> [UInt8] {
        let file: FileDescriptor
        do {
            file = try path.withCString {
                try FileDescriptor.open($0, .readOnly, options: .closeOnExec, retryOnInterrupt: true)
            }
        } catch {
            throw .system(error as? Errno ?? .ioError)
        }
        defer { try? file.close() }
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
}
