import Foundation
import Glibc
import Testing
import TestSupport

/// A TCP connection to a port on this machine, with every read bounded in time.
final class TCPConnection {
    let fd: Int32
    private var buffer: [UInt8] = []

    struct Failure: Error, CustomStringConvertible { let description: String }

    init(port: Int, timeout: Int = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw Failure(description: "connect to port \(port): errno \(errno)")
        }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// Reads more into the buffer; false at the end of the stream, an error or the timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return false }
        buffer += chunk[..<n]
        return true
    }

    /// Exactly `count` bytes, or nil when the stream ends first.
    func read(_ count: Int) -> [UInt8]? {
        while buffer.count < count { guard fill() else { return nil } }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    /// Up to and including `delimiter`, or nil.
    func read(through delimiter: [UInt8]) -> [UInt8]? {
        var searched = 0
        while true {
            if buffer.count >= delimiter.count {
                for start in searched...(buffer.count - delimiter.count) where Array(buffer[start..<start + delimiter.count]) == delimiter {
                    let end = start + delimiter.count
                    defer { buffer.removeFirst(end) }
                    return Array(buffer[..<end])
                }
                searched = buffer.count - delimiter.count + 1
            }
            guard fill() else { return nil }
        }
    }

    /// Everything until the peer closes.
    func readToEnd() -> [UInt8] {
        while fill() {}
        defer { buffer = [] }
        return buffer
    }
}

/// An HTTP answer: status, headers (names lower-cased) and body.
struct HTTPAnswer {
    let status: Int
    let headers: [String: String]
    let body: String
}

/// `GET target` over a new connection, as curl or a browser sends it.
func httpGet(port: Int, _ target: String, headers: [String: String] = [:], host: String? = nil) throws -> HTTPAnswer {
    let connection = try TCPConnection(port: port)
    var request = "GET \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
    for (name, value) in headers { request += "\(name): \(value)\r\n" }
    connection.send(Array((request + "\r\n").utf8))
    let text = String(decoding: connection.readToEnd(), as: UTF8.self)
    guard let split = text.range(of: "\r\n\r\n") else { throw TCPConnection.Failure(description: "no HTTP answer: \(text)") }
    let head = text[..<split.lowerBound].split(separator: "\r\n")
    let status = Int(head.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
    var fields: [String: String] = [:]
    for line in head.dropFirst() {
        let parts = line.split(separator: ":", maxSplits: 1)
        if parts.count == 2 { fields[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
    }
    return HTTPAnswer(status: status, headers: fields, body: String(text[split.upperBound...]))
}

/// A WebSocket client that sends frames as a browser does (masked, one frame per message)
/// and, when asked, as none should (oversized, binary, not JSON).
final class PanelSocket {
    let connection: TCPConnection
    /// Why the server closed the socket: its close code, once a close frame has been read.
    private(set) var closeCode: Int?

    struct Refused: Error, CustomStringConvertible { let status: Int; var description: String { "upgrade refused: \(status)" } }

    init(port: Int, path: String = "/ws", query: String = "", headers: [String: String] = [:]) throws {
        connection = try TCPConnection(port: port)
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        var request = "GET \(path)\(query) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        connection.send(Array((request + "\r\n").utf8))
        guard let head = connection.read(through: Array("\r\n\r\n".utf8)) else { throw Refused(status: 0) }
        let status = Int(String(decoding: head, as: UTF8.self).split(separator: " ").dropFirst().first ?? "") ?? 0
        guard status == 101 else { throw Refused(status: status) }
    }

    /// One frame, masked as a client's must be.
    func sendFrame(opcode: UInt8, _ payload: [UInt8], fin: Bool = true) {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        switch payload.count {
        case ..<126: frame.append(0x80 | UInt8(payload.count))
        case ..<65_536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: frame += [0x80 | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        connection.send(frame)
    }

    func send(_ text: String) { sendFrame(opcode: 1, Array(text.utf8)) }

    /// The next text message, answering pings on the way; nil once the socket is closed (its
    /// close code in ``closeCode``) or nothing came in time.
    func receive() -> String? {
        while let (opcode, payload) = receiveMessage() {
            if opcode == 1 { return String(decoding: payload, as: UTF8.self) }
        }
        return nil
    }

    /// The next text (1) or binary (2) message with its opcode, answering pings on the way;
    /// nil once the socket is closed or nothing came in time.
    func receiveMessage() -> (opcode: UInt8, payload: [UInt8])? {
        while let head = connection.read(2) {
            var length = Int(head[1] & 0x7F)
            if length == 126, let more = connection.read(2) { length = Int(more[0]) << 8 | Int(more[1]) }
            else if length == 127, let more = connection.read(8) { length = more.reduce(0) { $0 << 8 | Int($1) } }
            guard let payload = connection.read(length) else { return nil }
            switch head[0] & 0x0F {
            case 1, 2: return (head[0] & 0x0F, payload)
            case 8:
                closeCode = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : 1005
                sendFrame(opcode: 8, Array(payload.prefix(2)))   // the closing handshake's answer
                return nil
            case 9: sendFrame(opcode: 10, payload)
            default: continue
            }
        }
        return nil
    }

    /// The next message of `type` for which `matches` holds, skipping others.
    func next(_ type: String, timeout: Double = 10, where matches: ([String: Any]) -> Bool = { _ in true },
              sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard let text = receive() else { break }
            let message = try jsonObject(text, sourceLocation: sourceLocation)
            if message["type"] as? String == type && matches(message) { return message }
        }
        Issue.record("no '\(type)' message came (closed: \(closeCode.map(String.init) ?? "no"))", sourceLocation: sourceLocation)
        throw TCPConnection.Failure(description: "no '\(type)' message")
    }

    /// Reads until the server closes the socket; its close code, or nil if it did not.
    func closedCode() -> Int? {
        while receive() != nil {}
        return closeCode
    }
}

/// A `values` or `layout` message's entry for parameter `id`.
func entry(_ id: String, in message: [String: Any]) -> [String: Any]? {
    if let values = message["values"] as? [[String: Any]] { return values.first { $0["id"] as? String == id } }
    let sections = message["sections"] as? [[String: Any]] ?? []
    for section in sections {
        if let bypass = section["bypass"] as? [String: Any], bypass["id"] as? String == id { return bypass }
        if let found = (section["parameters"] as? [[String: Any]])?.first(where: { $0["id"] as? String == id }) { return found }
    }
    return nil
}

extension LiveProgram {
    /// The web panel's port, from its start-up line.
    func webPort() throws -> Int {
        try waitForMessage("web panel at http://")
        let line = try #require(messages.first { $0.contains("web panel at http://") })
        let address = try #require(line.split(separator: "http://").last)
        let hostPort = try #require(address.split(separator: "/").first)
        return try #require(Int(hostPort.split(separator: ":").last ?? ""))
    }

    /// The start-up URL's token, if it has one.
    func webToken() throws -> String? {
        try waitForMessage("web panel at http://")
        let line = try #require(messages.first { $0.contains("web panel at http://") })
        return line.components(separatedBy: "?token=").dropFirst().first
    }
}
