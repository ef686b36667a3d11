#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// jackd2's machine-wide registry of servers, read from its shared memory segment
/// (`/dev/shm/jack-shm-registry`, laid out as `jack_shm_header_t` in jack2's `shm.h`): eight
/// entries, each the server's process id and its name as `jack-UID:NAME:`.
///
/// A server that dies without shutting down (killed, or crashed on its way out) keeps its
/// entry: jackd frees a dead entry only when a server of the same name starts. Tests read
/// the registry to find such entries, so that a crash of one run's server cannot fill the
/// registry for every later test on the machine.
enum JackRegistry {
    static let path = "/dev/shm/jack-shm-registry"
    /// `JACK_SERVER_NAME_SIZE` + 1 bytes of name after a 4-byte process id, padded to 4.
    private static let entrySize = 264
    private static let firstEntry = 24
    private static let entries = 8

    /// Every entry in use, as `pid name` (dead ones marked), for a failure to quote.
    static func describe() -> String {
        guard let data = FileManager.default.contents(atPath: path),
              data.count >= firstEntry + entries * entrySize else { return "unreadable" }
        return (0..<entries).compactMap { i -> String? in
            let (pid, name) = entry(i, in: data)
            guard pid > 0 else { return nil }
            return "\(pid) \(name)" + (kill(pid, 0) != 0 && errno == ESRCH ? " (dead)" : "")
        }.joined(separator: ", ")
    }

    private static func entry(_ i: Int, in data: Data) -> (pid: Int32, name: String) {
        let offset = firstEntry + i * entrySize
        let pid = data[offset..<offset + 4].withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }
        let bytes = data[(offset + 4)..<(offset + entrySize)].prefix { $0 != 0 }
        return (pid, String(decoding: bytes, as: UTF8.self))
    }

    /// The servers (their `-n` names) of this user whose entries are held by processes
    /// that no longer run.
    static func deadEntries() -> [String] {
        guard let data = FileManager.default.contents(atPath: path),
              data.count >= firstEntry + entries * entrySize else { return [] }
        let prefix = "jack-\(getuid()):"
        return (0..<entries).compactMap { i -> String? in
            let (pid, text) = entry(i, in: data)
            guard pid > 0, text.hasPrefix(prefix), text.hasSuffix(":"), kill(pid, 0) != 0, errno == ESRCH else { return nil }
            return String(text.dropFirst(prefix.count).dropLast())
        }
    }
}
