import Glibc

/// An IPv4 or IPv6 address and UDP port: a datagram's sender, kept to answer it, or where to
/// send. Two are the same when address and port are.
public final class SocketAddress: @unchecked Sendable, Hashable {
    private let storage: sockaddr_storage
    private let length: socklen_t

    /// `host:port` in numbers (`127.0.0.1:9000`, `::1:9000`), or `?`.
    public let name: String

    init(_ storage: sockaddr_storage, length: socklen_t) {
        self.storage = storage
        self.length = length
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
    public var port: Int { Self.port(of: storage) }

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
    public convenience init?(host: String, port: Int, numeric: Bool = false) {
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
    public var isIPv6: Bool { Int32(storage.ss_family) == AF_INET6 }

    /// True when the address is this machine's (an IPv4 or IPv6 loopback address).
    public var isLoopback: Bool {
        name.hasPrefix("127.") || name.hasPrefix("::1:") || name.hasPrefix("::ffff:127.")
    }

    public static func == (a: SocketAddress, b: SocketAddress) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

