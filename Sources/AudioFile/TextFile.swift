import Glibc

/// Reading a small text file whole, with the project's one-line errors.
enum TextFile {
    /// The bytes of the file at `path`, refusing folders and files over `limit` bytes.
    static func read(path: String, limit: Int) throws(AudioFileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(path: path, reason: systemError(errno)) }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory(path: path) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .cannotOpen(path: path, reason: systemError(errno))
            }
            if n == 0 { return bytes }
            bytes += chunk[..<n]
            if bytes.count > limit {
                throw .automation(path: path, line: 1, reason: "larger than \(limit >> 20) MB; not an automation file")
            }
        }
    }
}
