import Foundation

/// OSC messages as bytes (OSC 1.0: padded strings, big-endian float32).
public enum OSCBytes {
    public static func padded(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8) + [0]
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }

    public static func message(_ path: String, float: Float? = nil) -> [UInt8] {
        var bytes = padded(path) + padded(float == nil ? "," : ",f")
        if let float { withUnsafeBytes(of: float.bitPattern.bigEndian) { bytes += $0 } }
        return bytes
    }
}

/// A UDP socket on the loopback that sends to a port and waits (at most 10 s) for datagrams:
/// an OSC client of the tests' own, for answers, which liblo's `oscsend` does not wait for.
public final class UDPClient {
    let fd: Int32
    var target = sockaddr_in()

    public init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &target.sin_addr)
    }

    public func send(_ bytes: [UInt8]) {
        _ = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    public func receive() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 1500)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n > 0 ? Array(buffer[..<n]) : nil
    }

    /// The next datagram, waiting at most `timeoutMilliseconds` (then the 10 s wait again).
    public func receive(timeoutMilliseconds: Int) -> [UInt8]? {
        func wait(_ milliseconds: Int) {
            var timeout = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        wait(timeoutMilliseconds)
        defer { wait(10_000) }
        return receive()
    }

    public func close() { Glibc.close(fd) }
}
