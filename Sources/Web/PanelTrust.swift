import Platform
import WebBridge

/// Whether a page may change the rig — add a plug-in (which loads code), point a file
/// parameter at a path — and not only turn its knobs: the rule OSC's `/detent/chain` follows.
///
/// - With a token, every request carried it (``WebAccess`` refused the others): the page was
///   opened from the start-up URL, by whoever Detent gave it to.
/// - Without one (loopback only), the page's connection must be this user's: its client
///   socket, found in `/proc/net/tcp`, owned by the user Detent runs as. Another user of this
///   machine reaches the loopback too, and may turn knobs, but loads nothing.
enum PanelTrust {
    /// Nil when the page may edit; else why not, as the page is told.
    static func refusal(token: String?, peerAddress: String?, peerPort: Int?, serverPort: Int?) -> String? {
        if token != nil { return nil }
        guard let peerPort, let serverPort, isLoopback(peerAddress) else {
            return "this page is not this user's: changing the rig needs a token (detent live --http-token)"
        }
        guard LocalSender.isThisUser(tcpPeerPort: peerPort, serverPort: serverPort) else {
            return "this page was opened by another user of this machine: changing the rig needs a token (detent live --http-token)"
        }
        return nil
    }

    /// 127.x.x.x, ::1, or ::ffff:127.x.x.x.
    static func isLoopback(_ address: String?) -> Bool {
        guard let address else { return false }
        let plain = address.lowercased().hasPrefix("::ffff:") ? String(address.dropFirst(7)) : address
        return WebAccess.isLoopbackAddress(plain)
    }
}
