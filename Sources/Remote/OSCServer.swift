import Glibc
import Parameters

/// The knob server: an ``OSCSocket`` on a UDP port (bound to the loopback unless another
/// address is given on purpose: anyone who can reach the port can turn the knobs) whose
/// messages — alone or in bundles, in order — are routed (``OSCRouter``, told whether the
/// sender is on this machine) and handed to `handle` with their sender and the server (to
/// answer); bad ones (unknown addresses, wrong arguments, a preset path from another machine,
/// and what the socket refuses) are logged, at most one line a second, and change nothing.
public final class OSCServer: @unchecked Sendable {
    private let table: ParameterTable
    private var socket: OSCSocket!

    /// - Throws: ``OSCServerError`` when the address is not one, or cannot be bound.
    public init(port: Int, bind: String = "127.0.0.1", table: ParameterTable,
                log: @escaping @Sendable (String) -> Void,
                handle: @escaping @Sendable (OSCRequest, OSCPeer, OSCServer) -> Void) throws(OSCServerError) {
        self.table = table
        let server = Unowned()
        socket = try OSCSocket(port: port, bind: bind, log: log) { message, peer in
            guard let self = server.value else { return }
            switch OSCRouter.route(message.path, message.arguments, table: table, fromLoopback: peer.isLoopback) {
            case .success(let request): handle(request, peer, self)
            case .failure(let rejection): self.socket.log.line("OSC from \(peer.name): \(rejection.description); ignored")
            }
        }
        server.value = self
    }

    /// The UDP port listened on.
    public var port: Int { socket.port }

    /// True for an IPv4 or IPv6 address written as numbers (what `bind` takes).
    public static func isAddress(_ text: String) -> Bool { OSCSocket.isAddress(text) }

    /// Stops listening and closes the socket (once; then the server is inert).
    public func stop() { socket.stop() }

    /// Logs a refusal the router cannot see (a verb the host lacks), like the server's own: at
    /// most one line a second.
    public func refuse(_ line: String) { socket.log.line(line) }

    /// Sends one message to `peer` (an answer: `/detent/status s`, `/detent/midi/learn s i`).
    public func send(_ message: OSCMessage, to peer: OSCPeer) {
        socket.send(message, to: peer)
    }

    /// Sends `/detent/param/<id> f value` for each value to `peer`.
    public func send(_ values: [(ParameterIndex, Double)], to peer: OSCPeer) {
        for (index, value) in values {
            socket.send(OSCMessage(OSCRouter.address(of: index, in: table), [.float(Float(value))]), to: peer)
        }
    }
}

/// The server as its socket's handler sees it: set once the server exists, never retained.
private final class Unowned: @unchecked Sendable {
    weak var value: OSCServer?
}
