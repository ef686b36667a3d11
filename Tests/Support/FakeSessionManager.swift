import Foundation

/// One OSC argument as the tests' own codec reads and writes it.
public enum OSCValue: Equatable, Sendable, CustomStringConvertible {
    case int(Int32)
    case float(Float)
    case string(String)

    public var description: String {
        switch self {
        case .int(let v): "\(v)"
        case .float(let v): "\(v)"
        case .string(let v): "\"\(v)\""
        }
    }
}

/// A session manager of the tests' own: the server side of the Non Session Manager protocol
/// on a loopback UDP socket, with OSC encoded and decoded here (OSC 1.0), independently of
/// liblo and of Detent's code. It learns the client's address from its announce and answers
/// what the test tells it to.
public final class FakeSessionManager: @unchecked Sendable {
    private let fd: Int32
    public let port: Int
    private var client = sockaddr_storage()
    private var clientLength = socklen_t(0)
    /// Every message received, in order (what the test has not asked for yet too).
    public private(set) var received: [(path: String, arguments: [OSCValue])] = []

    public var url: String { "osc.udp://127.0.0.1:\(port)/" }

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        self.fd = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(fd) }

    /// Waits (at most `timeout` seconds) for a message at `path`, skipping others; nil when
    /// none came.
    public func expect(_ path: String, timeout: Double = 20) -> [OSCValue]? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        if let i = pending.firstIndex(where: { $0.path == path }) { return pending.remove(at: i).arguments }
        while Date() < deadline {
            guard let message = receive(until: deadline) else { continue }
            if message.path == path { return message.arguments }
            pending.append(message)
        }
        return nil
    }

    /// Messages received but not yet asked for.
    private var pending: [(path: String, arguments: [OSCValue])] = []

    /// Sends a message to the client (which must have announced itself).
    public func send(_ path: String, _ arguments: [OSCValue]) {
        let bytes = Self.encode(path, arguments)
        _ = withUnsafePointer(to: &client) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, bytes, bytes.count, 0, $0, clientLength) }
        }
    }

    private func receive(until deadline: Date) -> (path: String, arguments: [OSCValue])? {
        let left = max(0.01, deadline.timeIntervalSinceNow)
        var timeout = timeval(tv_sec: Int(left), tv_usec: Int((left - Double(Int(left))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var source = sockaddr_storage(), length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let n = withUnsafeMutablePointer(to: &source) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, &buffer, buffer.count, 0, $0, &length) }
        }
        guard n > 0, let message = Self.decode(Array(buffer[..<n])) else { return nil }
        if message.path == "/nsm/server/announce" {
            client = source
            clientLength = length
        }
        received.append(message)
        return message
    }

    // MARK: OSC 1.0

    public static func encode(_ path: String, _ arguments: [OSCValue]) -> [UInt8] {
        var tags = ","
        var body: [UInt8] = []
        for argument in arguments {
            switch argument {
            case .int(let v):
                tags += "i"
                withUnsafeBytes(of: v.bigEndian) { body += $0 }
            case .float(let v):
                tags += "f"
                withUnsafeBytes(of: v.bitPattern.bigEndian) { body += $0 }
            case .string(let v):
                tags += "s"
                body += OSCBytes.padded(v)
            }
        }
        return OSCBytes.padded(path) + OSCBytes.padded(tags) + body
    }

    public static func decode(_ bytes: [UInt8]) -> (path: String, arguments: [OSCValue])? {
        var at = 0
        func string() -> String? {
            guard let end = bytes[at...].firstIndex(of: 0) else { return nil }
            let text = String(decoding: bytes[at..<end], as: UTF8.self)
            at = (end + 4) & ~3
            return text
        }
        func word() -> UInt32? {
            guard at + 4 <= bytes.count else { return nil }
            defer { at += 4 }
            return bytes[at..<(at + 4)].reduce(0) { $0 << 8 | UInt32($1) }
        }
        guard let path = string(), let tags = string(), tags.hasPrefix(",") else { return nil }
        var arguments: [OSCValue] = []
        for tag in tags.dropFirst() {
            switch tag {
            case "i": guard let w = word() else { return nil }; arguments.append(.int(Int32(bitPattern: w)))
            case "f": guard let w = word() else { return nil }; arguments.append(.float(Float(bitPattern: w)))
            case "s": guard let s = string() else { return nil }; arguments.append(.string(s))
            default: return nil
            }
        }
        return (path, arguments)
    }
}
