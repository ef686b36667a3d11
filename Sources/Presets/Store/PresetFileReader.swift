import Parameters

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a preset file's bytes, refusing anything larger than ``PresetCodec/maximumFileSize``
/// without reading it all (a preset path pointing at a huge file or a device costs nothing).
enum PresetFileReader {
    static func contents(of path: String) throws(PresetError) -> [UInt8] {
        let limit = PresetCodec.maximumFileSize
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError.failure("cannot read", code: errno, path: path) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemError.failure("cannot read", code: errno, path: path)
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            if bytes.count > limit {
                throw PresetError(.tooLarge(limit: limit), source: path)
            }
        }
    }
}
