import Glibc

/// A UDP socket bound to one address: the one place the package makes, reads and writes one
/// (OSC, NSM).
public final class DatagramSocket: @unchecked Sendable {
    public let descriptor: Int32
    /// The address it is bound to, with the port the system chose for port 0.
    public let address: SocketAddress

    /// Binds a new socket to `address`. A read waits at most `readTimeoutMilliseconds` (nil:
    /// until a datagram comes or ``wakeReader()`` is called).
    public init(binding address: SocketAddress, readTimeoutMilliseconds: Int?) throws(SystemCallError) {
        let fd = try systemCall("socket") { socket(address.family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        if let readTimeoutMilliseconds {
            var timeout = timeval(tv_sec: readTimeoutMilliseconds / 1000, tv_usec: (readTimeoutMilliseconds % 1000) * 1000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        do {
            try systemCall("bind") { address.withAddress { Glibc.bind(fd, $0, $1) } }
        } catch {
            Glibc.close(fd)
            throw error
        }
        var actual = sockaddr_storage(), actualLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actualLength) }
        }
        descriptor = fd
        self.address = SocketAddress(actual, length: actualLength)
    }

    /// Sends one datagram to `peer`, never waiting: a full socket buffer drops it, as UDP may.
    public func send(_ bytes: UnsafeRawBufferPointer, to peer: SocketAddress) {
        peer.withAddress { _ = sendto(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT), $0, $1) }
    }

    /// The next datagram, read into `buffer`: its whole size (more than the buffer holds when
    /// it was cut) and its sender; nil after the read timeout, an interrupt or an empty one.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) -> (size: Int, from: SocketAddress)? {
        var source = sockaddr_storage(), sourceLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let n = withUnsafeMutablePointer(to: &source) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                recvfrom(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_TRUNC), $0, &sourceLength)
            }
        }
        guard n > 0 else { return nil }
        return (n, SocketAddress(source, length: sourceLength))
    }

    /// Ends reading: a thread waiting in ``receive(into:)`` returns nil at once, and so does
    /// every later read. (Linux wakes the readers of a datagram socket shut down for reading,
    /// connected or not, though the call itself answers `ENOTCONN` for an unconnected one.)
    public func wakeReader() {
        _ = Glibc.shutdown(descriptor, Int32(SHUT_RD))
    }

    /// Closes the socket; call once, when no thread reads it any more.
    public func close() {
        Glibc.close(descriptor)
    }
}
