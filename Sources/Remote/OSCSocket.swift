import CLo
import Glibc
import Platform
import Synchronization

/// One OSC message: an address and its arguments.
public struct OSCMessage: Sendable, Equatable {
    public var path: String
    public var arguments: [OSCArgument]

    public init(_ path: String, _ arguments: [OSCArgument] = []) {
        self.path = path
        self.arguments = arguments
    }
}

/// A UDP socket that speaks OSC: bound to one address (its own socket, since liblo's server
/// threads listen on every interface whatever address they are given), read by a thread of
/// its own, with liblo encoding and decoding the messages. Each message reaches `receive` with
/// its sender; bad packets (malformed, oversized, bundles) are logged, at most one line a
/// second. Both the knob server (``OSCServer``) and the session client (``NSMClient``) use it.
public final class OSCSocket: @unchecked Sendable {
    public let port: Int
    private let socket: Int32
    private let receive: @Sendable (OSCMessage, OSCPeer) -> Void
    let log: RateLimitedLog
    private let running = Atomic(true)
    private var reader: NamedThread?

    /// The largest datagram read whole; longer ones are refused.
    static let largestPacket = 65_536

    /// - Parameter what: how messages name the socket's use (`--osc-bind`, `NSM`).
    /// - Throws: ``OSCServerError`` when the address is not one, or cannot be bound.
    public init(port: Int, bind: String, what: String = "--osc-bind", log: @escaping @Sendable (String) -> Void,
                receive: @escaping @Sendable (OSCMessage, OSCPeer) -> Void) throws(OSCServerError) {
        // liblo is opened when OSC is first used, not at start-up (see DetentLibrary.h).
        if let problem = detent_lo_load() {
            throw OSCServerError(description: "OSC needs liblo, which cannot be loaded (\(String(cString: problem))); install liblo7")
        }
        self.receive = receive
        self.log = RateLimitedLog(log)
        guard let (socketAddress, length) = Self.socketAddress(bind, port: port) else {
            throw OSCServerError(description: "\(what) '\(bind)': not an IP address")
        }
        var address = socketAddress
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
            reader = try NamedThread(name: "osc-socket") { [self] in readPackets() }
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
        OSCPeer.resolve(text, port: port, numeric: true)
    }

    /// Stops listening and closes the socket (once; then the socket is inert).
    public func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        if let reader, !reader.isCurrent { reader.join() }
        close(socket)
    }

    /// Sends one message to `peer` (never blocks; a full socket buffer drops it, as UDP may).
    public func send(_ message: OSCMessage, to peer: OSCPeer) {
        guard running.load(ordering: .acquiring) else { return }
        let encoded = lo_message_new()
        defer { lo_message_free(encoded) }
        for argument in message.arguments {
            switch argument {
            case .float(let v): lo_message_add_float(encoded, v)
            case .double(let v): lo_message_add_double(encoded, v)
            case .int32(let v): lo_message_add_int32(encoded, v)
            case .string(let v): lo_message_add_string(encoded, v)
            case .other: continue
            }
        }
        var size = 0
        guard let bytes = lo_message_serialise(encoded, message.path, nil, &size) else { return }
        defer { free(bytes) }
        peer.withAddress { _ = sendto(socket, bytes, size, Int32(MSG_DONTWAIT), $0, $1) }
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
            if let message = decode(buffer, count: n, from: peer) { receive(message, peer) }
        }
    }

    private func decode(_ data: UnsafeMutableRawPointer, count: Int, from peer: OSCPeer) -> OSCMessage? {
        if data.load(as: UInt8.self) == UInt8(ascii: "#") {
            log.line("OSC from \(peer.name): bundles are not taken; send messages; ignored")
            return nil
        }
        var result: Int32 = 0
        guard let message = lo_message_deserialise(data, count, &result), let pathText = lo_get_path(data, count) else {
            log.line("OSC from \(peer.name): a malformed packet (\(count) bytes); ignored")
            return nil
        }
        defer { lo_message_free(message) }
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
        return OSCMessage(String(cString: pathText), arguments)
    }
}
