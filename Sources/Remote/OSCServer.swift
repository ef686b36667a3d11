import CLo
import Glibc
import Parameters
import Platform
import Synchronization

/// An OSC server on a UDP port: its own socket, bound to one address (the loopback unless
/// another is given on purpose: anyone who can reach the port can turn the knobs), read by a
/// thread of its own; liblo encodes and decodes the messages. Each message is routed
/// (``OSCRouter``) and handed to `handle` with its sender and the server (to answer); bad
/// ones (malformed, oversized, bundles, unknown addresses, wrong arguments) are logged, at
/// most one line a second, and change nothing.
///
/// liblo's own server threads listen on every interface whatever address they are given,
/// so the socket is Detent's.
public final class OSCServer: @unchecked Sendable {
    public let port: Int
    private let socket: Int32
    private let table: ParameterTable
    private let handle: @Sendable (OSCRequest, OSCPeer, OSCServer) -> Void
    private let log: RateLimitedLog
    private let running = Atomic(true)
    private var reader: NamedThread?

    /// The largest datagram read whole; longer ones are refused.
    static let largestPacket = 65_536

    /// - Throws: ``OSCServerError`` when the address is not one, or cannot be bound.
    public init(port: Int, bind: String = "127.0.0.1", table: ParameterTable,
                log: @escaping @Sendable (String) -> Void,
                handle: @escaping @Sendable (OSCRequest, OSCPeer, OSCServer) -> Void) throws(OSCServerError) {
        self.table = table
        self.handle = handle
        self.log = RateLimitedLog(log)
        guard var (address, length) = Self.socketAddress(bind, port: port) else {
            throw OSCServerError(description: "--osc-bind '\(bind)': not an IP address")
        }
        let fd = Glibc.socket(Int32(address.ss_family), Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw OSCServerError(description: "cannot open a UDP socket for OSC: \(Errno.last)") }
        // The reader wakes every 100 ms to see whether it should stop.
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, length) }
        }
        guard bound == 0 else {
            let error = Errno.last
            close(fd)
            throw OSCServerError(description: "cannot listen for OSC on UDP \(bind):\(port): \(error)")
        }
        var actual = sockaddr_storage(), actualLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actualLength) }
        }
        socket = fd
        self.port = OSCPeer.port(of: actual)
        do {
            reader = try NamedThread(name: "osc-server") { [self] in readPackets() }
        } catch {
            close(fd)
            throw OSCServerError(description: "cannot start the OSC thread: \(error)")
        }
    }

    deinit { stop() }

    /// True for an IPv4 or IPv6 address written as numbers (what `bind` takes).
    public static func isAddress(_ text: String) -> Bool { socketAddress(text, port: 0) != nil }

    /// The socket address of a numeric IPv4 or IPv6 address and a port, or nil.
    static func socketAddress(_ text: String, port: Int) -> (sockaddr_storage, socklen_t)? {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(text, String(port), &hints, &found) == 0, let info = found else { return nil }
        defer { freeaddrinfo(found) }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: info.pointee.ai_addr, count: Int(info.pointee.ai_addrlen))) }
        return (storage, info.pointee.ai_addrlen)
    }

    /// Stops listening and closes the socket (once; then the server is inert).
    public func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        if let reader, !reader.isCurrent { reader.join() }
        close(socket)
    }

    private func readPackets() {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: Self.largestPacket, alignment: 8)
        defer { buffer.deallocate() }
        while running.load(ordering: .acquiring) {
            var source = sockaddr_storage(), sourceLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let n = withUnsafeMutablePointer(to: &source) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(socket, buffer, Self.largestPacket, Int32(MSG_TRUNC), $0, &sourceLength)
                }
            }
            guard n > 0 else { continue }  // the timeout, an interrupt, or an empty datagram
            let peer = OSCPeer(source, length: sourceLength)
            guard n <= Self.largestPacket else {
                log.line("OSC from \(peer.name): a packet of \(n) bytes is too large; ignored")
                continue
            }
            received(buffer, count: n, from: peer)
        }
    }

    private func received(_ data: UnsafeMutableRawPointer, count: Int, from peer: OSCPeer) {
        if data.load(as: UInt8.self) == UInt8(ascii: "#") {
            return log.line("OSC from \(peer.name): bundles are not taken; send messages; ignored")
        }
        var result: Int32 = 0
        guard let message = lo_message_deserialise(data, count, &result), let pathText = lo_get_path(data, count) else {
            return log.line("OSC from \(peer.name): a malformed packet (\(count) bytes); ignored")
        }
        defer { lo_message_free(message) }
        let path = String(cString: pathText)
        let types = lo_message_get_types(message).map { String(cString: $0) } ?? ""
        let argv = lo_message_get_argv(message)
        let count = Int(lo_message_get_argc(message))
        var arguments: [OSCArgument] = []
        for (i, tag) in types.enumerated() where i < count {
            guard let arg = argv?[i] else { continue }
            switch tag {
            case "f": arguments.append(.float(arg.pointee.f))
            case "d": arguments.append(.double(arg.pointee.d))
            case "i": arguments.append(.int32(arg.pointee.i))
            case "s", "S": arguments.append(.string(String(cString: UnsafeRawPointer(arg).assumingMemoryBound(to: CChar.self))))
            default: arguments.append(.other(tag))
            }
        }
        switch OSCRouter.route(path, arguments, table: table) {
        case .success(let request): handle(request, peer, self)
        case .failure(let rejection): log.line("OSC from \(peer.name): \(rejection.description); ignored")
        }
    }

    /// Sends `/detent/param/<id> f value` for each value to `peer`.
    public func send(_ values: [(ParameterIndex, Double)], to peer: OSCPeer) {
        guard running.load(ordering: .acquiring) else { return }
        for (index, value) in values {
            let message = lo_message_new()
            defer { lo_message_free(message) }
            lo_message_add_float(message, Float(value))
            var size = 0
            guard let bytes = lo_message_serialise(message, OSCRouter.address(of: index, in: table), nil, &size) else { continue }
            defer { free(bytes) }
            peer.withAddress { _ = sendto(socket, bytes, size, Int32(MSG_DONTWAIT), $0, $1) }
        }
    }
}

/// The sender of a message, kept to answer it and to send it feedback. Two peers are the
/// same when address and port are.
public final class OSCPeer: @unchecked Sendable, Hashable {
    private let storage: sockaddr_storage
    private let length: socklen_t
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
        name = named == 0 ? "\(String(cString: host)):\(String(cString: service))" : "?"
    }

    func withAddress<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var copy = storage
        return withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
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

    public static func == (a: OSCPeer, b: OSCPeer) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

public struct OSCServerError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// One line at most per second; lines dropped in between are counted in the next.
final class RateLimitedLog: Sendable {
    private let write: @Sendable (String) -> Void
    private let state = Mutex<(last: ContinuousClock.Instant?, dropped: Int)>((nil, 0))

    init(_ write: @escaping @Sendable (String) -> Void) { self.write = write }

    func line(_ text: String) {
        let now = ContinuousClock.now
        let out: String? = state.withLock { s in
            if let last = s.last, now - last < .seconds(1) {
                s.dropped += 1
                return nil
            }
            let dropped = s.dropped
            s = (now, 0)
            return dropped > 0 ? "\(text) (and \(dropped) more since)" : text
        }
        if let out { write(out) }
    }
}
