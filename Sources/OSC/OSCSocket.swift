import CLo
import Glibc
import Platform
import Synchronization

/// The sender of an OSC message, kept to answer it and to send it feedback.
package typealias OSCPeer = SocketAddress

/// One OSC message: an address and its arguments.
package struct OSCMessage: Sendable, Equatable {
    package var path: String
    package var arguments: [OSCArgument]

    package init(_ path: String, _ arguments: [OSCArgument] = []) {
        self.path = path
        self.arguments = arguments
    }
}

/// A UDP socket that speaks OSC: bound to one address (its own socket, since liblo's server
/// threads listen on every interface whatever address they are given), read by a thread of
/// its own, with liblo encoding and decoding the messages. Each message reaches `receive` with
/// its sender, a bundle's messages one after another in the bundle's order (nested bundles
/// depth-first); bad packets (malformed, oversized) are logged, at most one line a second.
/// Both the knob server (``OSCServer``) and the session client (``NSMClient``) use it.
///
/// A bundle's time tag is not honoured: every bundle is treated as "immediately", its messages
/// handled as soon as it arrives (as a tablet that sends only bundles, TouchOSC or Open Stage
/// Control, expects; nothing here schedules changes for later). A bundle is taken whole or not
/// at all: one malformed element, or nesting deeper than ``deepestBundle``, ignores all of it.
package final class OSCSocket: @unchecked Sendable {
    package let port: Int
    private let socket: DatagramSocket
    /// The path of a Unix socket; nil for UDP.
    package var path: String? { socket.address.isUnix ? String(socket.address.name.dropFirst("unix:".count)) : nil }
    private let receive: @Sendable (OSCMessage, OSCPeer) -> Void
    let log: RateLimitedLog
    private let running = Atomic(true)
    private var reader: NamedThread?

    /// The largest datagram read whole; longer ones are refused.
    static let largestPacket = 65_536

    /// The longest string argument or address taken, in bytes (a message with a longer one is
    /// refused): no parameter id, preset name, path or chain edit is near it, and nothing
    /// later has to bound what it looks up.
    package static let longestString = 4096

    /// How deep bundles may nest in bundles (a packet nested deeper is refused).
    package static let deepestBundle = 8

    /// What an OSC bundle starts with, before its time tag.
    static let bundleTag = Array("#bundle".utf8) + [0]

    /// - Parameter what: how messages name the socket's use (`--osc-bind`, `NSM`).
    /// - Throws: ``OSCServerError`` when the address is not one, or cannot be bound.
    package convenience init(port: Int, bind: String, what: String = "--osc-bind", log: @escaping @Sendable (String) -> Void,
                            receive: @escaping @Sendable (OSCMessage, OSCPeer) -> Void) throws(OSCServerError) {
        try Self.loadLibrary()
        guard let address = SocketAddress(host: bind, port: port, numeric: true) else {
            throw OSCServerError(description: "\(what) '\(bind)': not an IP address")
        }
        // The reader waits for datagrams only; `stop` wakes it.
        let socket: DatagramSocket
        do { socket = try DatagramSocket(binding: address, readTimeoutMilliseconds: nil) } catch {
            throw error.call == "socket" ? OSCServerError(description: "cannot open a UDP socket for OSC: \(error.errno)")
                : OSCServerError(description: "cannot listen for OSC on UDP \(bind):\(port): \(error.errno)")
        }
        try self.init(socket: socket, port: socket.address.port, log: log, receive: receive)
    }

    /// A socket on the Unix datagram socket `path` (`osc.unix://PATH`), which only this user
    /// may send to, each datagram's sender vouched for by the kernel (``LocalSender``).
    ///
    /// - Throws: ``OSCServerError`` when the socket cannot be made at `path`.
    package convenience init(unixPath path: String, log: @escaping @Sendable (String) -> Void,
                            receive: @escaping @Sendable (OSCMessage, OSCPeer) -> Void) throws(OSCServerError) {
        try Self.loadLibrary()
        let socket: DatagramSocket
        do { socket = try DatagramSocket(bindingUnix: path) } catch {
            throw OSCServerError(description: "cannot listen for OSC on the Unix socket '\(path)': \(error.errno)")
        }
        try self.init(socket: socket, port: 0, log: log, receive: receive)
    }

    private init(socket: DatagramSocket, port: Int, log: @escaping @Sendable (String) -> Void,
                 receive: @escaping @Sendable (OSCMessage, OSCPeer) -> Void) throws(OSCServerError) {
        self.socket = socket
        self.port = port
        self.receive = receive
        self.log = RateLimitedLog(log)
        do {
            reader = try NamedThread(name: "osc-socket") { [self] in readPackets() }
        } catch {
            socket.close()
            throw OSCServerError(description: "cannot start the OSC thread: \(error)")
        }
    }

    /// liblo is opened when OSC is first used, not at start-up (see DetentLibrary.h).
    private static func loadLibrary() throws(OSCServerError) {
        if let problem = detent_lo_load() {
            throw OSCServerError(description: "OSC needs liblo, which cannot be loaded (\(String(cString: problem))); install liblo7")
        }
    }

    deinit { stop() }

    /// True for an IPv4 or IPv6 address written as numbers (what `bind` takes).
    package static func isAddress(_ text: String) -> Bool { SocketAddress(host: text, port: 0, numeric: true) != nil }

    /// Stops listening and closes the socket (once; then the socket is inert).
    package func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        socket.wakeReader()
        if let reader, !reader.isCurrent { reader.join() }
        socket.close()
    }

    /// Sends one message to `peer` (never blocks; a full socket buffer drops it, as UDP may).
    package func send(_ message: OSCMessage, to peer: OSCPeer) {
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
        socket.send(UnsafeRawBufferPointer(start: bytes, count: size), to: peer)
    }

    private func readPackets() {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: Self.largestPacket, alignment: 8)
        defer { buffer.deallocate() }
        while running.load(ordering: .acquiring) {
            // nil: the timeout, an interrupt, or an empty datagram.
            guard let (n, peer) = socket.receive(into: UnsafeMutableRawBufferPointer(start: buffer, count: Self.largestPacket)) else {
                continue
            }
            guard n <= Self.largestPacket else {
                log.line("OSC from \(peer.name): a packet of \(n) bytes is too large; ignored")
                continue
            }
            for message in decode(buffer, count: n, from: peer) { receive(message, peer) }
        }
    }

    /// The packet's messages: itself, or a bundle's in order; none (logged) when it is bad.
    private func decode(_ data: UnsafeMutableRawPointer, count: Int, from peer: OSCPeer) -> [OSCMessage] {
        let packet = UnsafeRawBufferPointer(start: data, count: count)
        var ranges: [Range<Int>] = []
        if let problem = Self.messageRanges(packet, 0..<count, depth: 0, into: &ranges) {
            log.line("OSC from \(peer.name): \(problem); ignored")
            return []
        }
        var messages: [OSCMessage] = []
        for range in ranges {
            let element = UnsafeRawBufferPointer(rebasing: packet[range])
            if let long = Self.longestRun(element), long > Self.longestString {
                log.line("OSC from \(peer.name): a string of \(long) bytes (at most \(Self.longestString)); ignored")
                return []
            }
            guard let message = decodeMessage(data + range.lowerBound, count: range.count) else {
                log.line("OSC from \(peer.name): a malformed " + (ranges == [0..<count] ? "packet (\(count) bytes)" : "message in a bundle (\(range.count) bytes)") + "; ignored")
                return []
            }
            messages.append(message)
        }
        return messages
    }

    /// The longest run of bytes without a NUL in a message (its address, type tags or a string
    /// argument, or a blob's bytes, which never exceed a string's bound in practice), when
    /// longer than ``longestString``; nil otherwise. One pass, before liblo reads anything.
    static func longestRun(_ message: UnsafeRawBufferPointer) -> Int? {
        var longest = 0, run = 0
        for byte in message {
            run = byte == 0 ? 0 : run + 1
            longest = max(longest, run)
        }
        return longest > longestString ? longest : nil
    }

    /// Finds the messages of the packet element at `range` (a message, or a bundle: `#bundle`,
    /// an 8-byte time tag, then elements each preceded by its size as a big-endian int32) and
    /// appends their byte ranges in order. Returns why the element is malformed, or nil.
    static func messageRanges(_ packet: UnsafeRawBufferPointer, _ range: Range<Int>, depth: Int,
                              into found: inout [Range<Int>]) -> String? {
        guard let first = range.first, packet[first] == UInt8(ascii: "#") else {
            found.append(range)
            return nil
        }
        let malformed = "a malformed bundle (\(range.count) bytes)"
        guard range.count >= 16, packet[first..<first + 8].elementsEqual(bundleTag) else { return malformed }
        guard depth < deepestBundle else { return "bundles nested deeper than \(deepestBundle)" }
        var at = first + 16  // the time tag is not read: every bundle is "immediately"
        while at < range.upperBound {
            guard range.upperBound - at >= 4 else { return malformed }
            let size = packet[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            at += 4
            guard size > 0, size % 4 == 0, size <= range.upperBound - at else { return malformed }
            if let problem = messageRanges(packet, at..<at + size, depth: depth + 1, into: &found) { return problem }
            at += size
        }
        return nil
    }

    private func decodeMessage(_ data: UnsafeMutableRawPointer, count: Int) -> OSCMessage? {
        var result: Int32 = 0
        guard let message = lo_message_deserialise(data, count, &result), let pathText = lo_get_path(data, count) else {
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
