import CPlatform
import Glibc

/// A user's id, as the kernel names the owner of a process or a socket.
package typealias UserID = uid_t

/// A UDP socket bound to one address, or a Unix datagram socket bound to a path: the one place
/// the package makes, reads and writes one (OSC, NSM).
package final class DatagramSocket: @unchecked Sendable {
    package let descriptor: Int32
    /// The address it is bound to, with the port the system chose for port 0.
    package let address: SocketAddress
    /// The file a Unix socket is bound at, removed when it closes.
    private var unixPath: String?

    /// Binds a new socket to `address`. A read waits at most `readTimeoutMilliseconds` (nil:
    /// until a datagram comes or ``wakeReader()`` is called).
    package init(binding address: SocketAddress, readTimeoutMilliseconds: Int?) throws(SystemCallError) {
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

    /// Binds a new Unix datagram socket at `path`, readable and writable by this user alone
    /// (mode 0600), whose every datagram carries its sender's user, vouched for by the kernel
    /// (``SocketAddress/sender``). A socket file left at `path` by a process that is gone
    /// (nothing answers on it) is replaced; one something still listens on is not.
    package init(bindingUnix path: String) throws(SystemCallError) {
        guard let address = SocketAddress(unixPath: path) else { throw SystemCallError("bind", Errno(rawValue: ENAMETOOLONG)) }
        let fd = try systemCall("socket") { socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        do throws(SystemCallError) {
            try systemCall("setsockopt") { detent_pass_credentials(fd) }
            Self.removeStale(address, path: path)
            try systemCall("bind") { address.withAddress { Glibc.bind(fd, $0, $1) } }
            // Closed to everyone else. (Not with the umask, which is the whole process's: a
            // file another thread makes meanwhile would get the wrong mode. The moment before
            // this gives nothing away: each datagram's sender is checked, not the mode.)
            do { try systemCall("chmod") { chmod(path, 0o600) } } catch {
                unlink(path)
                throw error
            }
        } catch {
            Glibc.close(fd)
            throw error
        }
        descriptor = fd
        self.address = address
        unixPath = path
    }

    /// Removes the socket file at `path` when nothing listens on it (a crashed process's).
    private static func removeStale(_ address: SocketAddress, path: String) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return }
        let probe = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return }
        defer { Glibc.close(probe) }
        let connected = address.withAddress { Glibc.connect(probe, $0, $1) }
        if connected != 0 && Glibc.errno == ECONNREFUSED { unlink(path) }
    }

    /// Sends one datagram to `peer`, never waiting: a full socket buffer drops it, as UDP may.
    package func send(_ bytes: UnsafeRawBufferPointer, to peer: SocketAddress) {
        peer.withAddress { _ = sendto(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT), $0, $1) }
    }

    /// The next datagram, read into `buffer`: its whole size (more than the buffer holds when
    /// it was cut) and its sender (with the sender's user on a Unix socket); nil after the
    /// read timeout, an interrupt or an empty one.
    package func receive(into buffer: UnsafeMutableRawBufferPointer) -> (size: Int, from: SocketAddress)? {
        var source = sockaddr_storage(), sourceLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var user: UInt32 = .max
        let n = detent_receive_from(descriptor, buffer.baseAddress, UInt(buffer.count), &source, &sourceLength, &user)
        guard n > 0 else { return nil }
        return (n, SocketAddress(source, length: sourceLength, sender: user == .max ? nil : user))
    }

    /// Ends reading: a thread waiting in ``receive(into:)`` returns nil at once, and so does
    /// every later read. (Linux wakes the readers of a datagram socket shut down for reading,
    /// connected or not, though the call itself answers `ENOTCONN` for an unconnected one.)
    package func wakeReader() {
        _ = Glibc.shutdown(descriptor, Int32(SHUT_RD))
    }

    /// Closes the socket (and removes a Unix socket's file); call once, when no thread reads
    /// it any more.
    package func close() {
        if let unixPath { unlink(unixPath) }
        Glibc.close(descriptor)
    }
}
