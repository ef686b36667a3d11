import CPlatform
import Glibc

/// Messages between two processes over a pair of connected Unix sockets that keep each
/// message whole and in order (`SOCK_SEQPACKET`), with a descriptor passed along when one is
/// given (`SCM_RIGHTS`): how a host hands a sandbox's process the shared memory of each slot
/// it adds, and hears back from it, without a line of one slot's ever mixing with another's.
package enum PacketChannel {
    /// The most bytes a message may hold: what a socket's default send buffer takes whole
    /// (a larger one is refused by `sendmsg` with EMSGSIZE).
    package static let largest = 200 * 1024

    /// Two connected ends, close-on-exec.
    package static func pair() throws(SystemCallError) -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        try systemCall("socketpair") { detent_packet_pair(&ends) }
        return (ends[0], ends[1])
    }

    /// Sends `text` as one message on `socket`, with `descriptor` passed along when not negative.
    package static func send(_ text: String, on socket: Int32, passing descriptor: Int32 = -1) throws(SystemCallError) {
        var bytes = Array(text.utf8)
        if bytes.isEmpty { bytes = [0x20] }  // an empty message reads as the end: a space instead
        _ = try systemCall("sendmsg") { detent_send_with_descriptor(socket, bytes, UInt(bytes.count), descriptor) }
    }

    /// The next message on `socket` and the descriptor that came with it (-1: none, the
    /// caller's to close otherwise); nil once the other end has closed.
    package static func receive(on socket: Int32) throws(SystemCallError) -> (text: String, descriptor: Int32)? {
        var buffer = [UInt8](repeating: 0, count: largest)
        var descriptor: Int32 = -1
        let count = try systemCall("recvmsg") { detent_receive_with_descriptor(socket, &buffer, UInt(buffer.count), &descriptor) }
        guard count > 0 else { return nil }
        return (String(decoding: buffer[..<count], as: UTF8.self), descriptor)
    }
}
