import Glibc

/// Whether a datagram came from the user this process runs as, on this machine.
///
/// "From the loopback" only says "from this machine": any local user can send to a port on
/// 127.0.0.1. What loads code or names files must come from the user Detent runs as. On a
/// Unix socket the kernel vouches for the sender's user with every datagram
/// (``SocketAddress/sender``); that is the sure way, and the one a client that sends and
/// exits (`oscsend osc.unix:///…`) must take. A UDP datagram carries no credentials, so its
/// source port is looked up among this machine's UDP sockets (`/proc/net/udp`, `udp6`): the
/// sender counts as this user only when every socket bound to that port (on a loopback or
/// wildcard address) is this user's — a client that keeps its socket open (an OSC app, a
/// test's client) passes; one whose socket is gone by the time it is looked up is no one's,
/// and refused. Two sockets of different users cannot share a port (`SO_REUSEPORT` requires
/// the same user), so the owner found is the sender's.
package enum LocalSender {
    /// True when `address` sent as the user this process runs as (its effective uid).
    package static func isThisUser(_ address: SocketAddress) -> Bool {
        if let sender = address.sender { return sender == ThisProcess.userID }
        guard address.isLoopback else { return false }
        return owners(ofPort: address.port) == [ThisProcess.userID]
    }

    /// The uids of the UDP sockets bound to `port` on a loopback or wildcard address.
    static func owners(ofPort port: Int) -> Set<uid_t> {
        var owners = Set<uid_t>()
        for table in ["/proc/net/udp", "/proc/net/udp6"] {
            guard let bytes = try? BoundedFileReader.read(path: table, limit: 1 << 24) else { continue }
            owners.formUnion(Self.owners(ofPort: port, table: String(decoding: bytes, as: UTF8.self)))
        }
        return owners
    }

    /// The uids in a `/proc/net/udp` or `udp6` text of the sockets bound to `port` on a
    /// loopback or wildcard address. A row: `sl local_address rem_address st tx:rx tr:when
    /// retrnsmt uid timeout inode …`, addresses as hexadecimal `ADDRESS:PORT` (the address in
    /// the kernel's byte order).
    static func owners(ofPort port: Int, table: String) -> Set<uid_t> {
        var owners = Set<uid_t>()
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 7 else { continue }
            let local = fields[1].split(separator: ":")
            guard local.count == 2, Int(local[1], radix: 16) == port, isLocal(local[0]),
                  let uid = uid_t(fields[7]) else { continue }
            owners.insert(uid)
        }
        return owners
    }

    /// True when the TCP connection from this machine's port `peerPort` to this process's
    /// `serverPort` is the user's this process runs as: the client's end of it, found in
    /// `/proc/net/tcp` and `tcp6` by its two ports (on a loopback address, established), is
    /// owned by that uid. Unlike a datagram's sender, a connection's client socket lives as
    /// long as the connection, so it is there to be looked up: the rule a page served over
    /// loopback is held to before it may name files or load code, as OSC is.
    package static func isThisUser(tcpPeerPort peerPort: Int, serverPort: Int) -> Bool {
        var owners = Set<uid_t>()
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let bytes = try? BoundedFileReader.read(path: table, limit: 1 << 24) else { continue }
            owners.formUnion(Self.owners(ofTCPPort: peerPort, connectedTo: serverPort, table: String(decoding: bytes, as: UTF8.self)))
        }
        return owners == [ThisProcess.userID]
    }

    /// The uids in a `/proc/net/tcp` or `tcp6` text of the established sockets on a loopback
    /// address whose own port is `port` and whose far end's port is `remote`. A row: `sl
    /// local_address rem_address st …` with `st` 01 for established, the uid the eighth field.
    static func owners(ofTCPPort port: Int, connectedTo remote: Int, table: String) -> Set<uid_t> {
        var owners = Set<uid_t>()
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 7, fields[3] == "01" else { continue }
            let local = fields[1].split(separator: ":"), far = fields[2].split(separator: ":")
            guard local.count == 2, far.count == 2, Int(local[1], radix: 16) == port, Int(far[1], radix: 16) == remote,
                  isLocal(local[0]), let uid = uid_t(fields[7]) else { continue }
            owners.insert(uid)
        }
        return owners
    }

    /// True for a hexadecimal address of `/proc/net/udp(6)` that is a wildcard or loopback
    /// address: IPv4 `127.x.x.x`, IPv6 `::`, `::1` or `::ffff:127.x.x.x`. The kernel prints
    /// each 32-bit word of an address as the number it holds in memory, so read back as a
    /// number in this machine's order, the word's bytes are the address's, in network order.
    static func isLocal(_ hex: Substring) -> Bool {
        guard hex.count == 8 || hex.count == 32 else { return false }
        let words = stride(from: 0, to: hex.count, by: 8).map { i -> UInt32 in
            UInt32(bigEndian: UInt32(hex.dropFirst(i).prefix(8), radix: 16) ?? 0xFFFF_FFFF)
        }
        if words.allSatisfy({ $0 == 0 }) { return true }
        if words.count == 1 { return words[0] >> 24 == 0x7F }
        guard words[0] == 0, words[1] == 0 else { return false }
        return (words[2] == 0 && words[3] == 1) || (words[2] == 0xFFFF && words[3] >> 24 == 0x7F)
    }
}
