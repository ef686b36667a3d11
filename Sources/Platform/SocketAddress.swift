import Glibc

/// An IPv4 or IPv6 address and UDP port, or a Unix socket's path: a datagram's sender, kept
/// to answer it, or where to send. Two are the same when address and port (or path) are.
package final class SocketAddress: @unchecked Sendable, Hashable {
    private let storage: sockaddr_storage
    private let length: socklen_t

    /// `host:port` in numbers (`127.0.0.1:9000`, `::1:9000`), `unix:PATH` (`unix:` for a
    /// sender whose socket has no name), or `?`.
    package let name: String

    /// The user whose process sent the datagram, as the kernel vouches for it (a Unix socket
    /// that passes credentials); nil where no one vouches (UDP).
    package let sender: UserID?

    init(_ storage: sockaddr_storage, length: socklen_t, sender: UserID? = nil) {
        self.storage = storage
        self.length = length
        self.sender = sender
        if Int32(storage.ss_family) == AF_UNIX {
            name = "unix:" + Self.unixPath(storage, length: length)
            return
        }
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST)), service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        var copy = storage
        let named = withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &host, socklen_t(host.count), &service, socklen_t(service.count), NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        func text(_ field: [CChar]) -> String {
            String(decoding: field.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        name = named == 0 ? "\(text(host)):\(text(service))" : "?"
    }

    func withAddress<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var copy = storage
        return withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }

    /// The port.
    package var port: Int { Self.port(of: storage) }

    /// The address of the Unix socket at `path`, or nil when the path is too long for one.
    package convenience init?(unixPath path: String) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, !bytes.contains(0), bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            withUnsafeBytes(of: address) { target.copyMemory(from: $0) }
        }
        self.init(storage, length: socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + 1))
    }

    /// The path of a Unix socket address; empty for an unnamed socket.
    static func unixPath(_ storage: sockaddr_storage, length: socklen_t) -> String {
        let room = Int(length) - MemoryLayout<sa_family_t>.size
        guard room > 0 else { return "" }
        return withUnsafeBytes(of: storage) { bytes in
            let path = bytes[MemoryLayout<sa_family_t>.size..<MemoryLayout<sa_family_t>.size + room]
            return String(decoding: path.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// The port of an IPv4 or IPv6 socket address.
    static func port(of storage: sockaddr_storage) -> Int {
        var copy = storage
        return withUnsafePointer(to: &copy) { pointer in
            Int(UInt16(bigEndian: Int32(storage.ss_family) == AF_INET6
                ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port }
                : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }))
        }
    }

    /// The address of `host` (a name, or numbers when `numeric`; the wildcard address for an
    /// empty host) and `port`, or nil when it cannot be resolved.
    package convenience init?(host: String, port: Int, numeric: Bool = false) {
        guard let (storage, length) = Self.resolve(host, port: port, numeric: numeric) else { return nil }
        self.init(storage, length: length)
    }

    /// The first UDP socket address of `host` and `port` (numbers only when `numeric`; the
    /// wildcard address for an empty host).
    static func resolve(_ host: String, port: Int, numeric: Bool) -> (sockaddr_storage, socklen_t)? {
        var hints = addrinfo()
        hints.ai_flags = (numeric ? AI_NUMERICHOST : 0) | AI_NUMERICSERV | AI_PASSIVE
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let info = found else { return nil }
        defer { freeaddrinfo(found) }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) {
            $0.copyMemory(from: UnsafeRawBufferPointer(start: info.pointee.ai_addr, count: Int(info.pointee.ai_addrlen)))
        }
        return (storage, info.pointee.ai_addrlen)
    }

    /// The address family (`AF_INET`, `AF_INET6`), for the socket that uses it.
    var family: Int32 { Int32(storage.ss_family) }

    /// True for an IPv6 address.
    package var isIPv6: Bool { Int32(storage.ss_family) == AF_INET6 }

    /// True when the address is this machine's (an IPv4 or IPv6 loopback address).
    package var isLoopback: Bool {
        name.hasPrefix("127.") || name.hasPrefix("::1:") || name.hasPrefix("::ffff:127.")
    }

    /// True for a Unix socket's address.
    package var isUnix: Bool { family == AF_UNIX }

    package static func == (a: SocketAddress, b: SocketAddress) -> Bool { a.name == b.name }
    package func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

