import Parameters
import Platform
import TextFormats
import Synchronization

/// The knob server: an ``OSCSocket`` on a UDP port (bound to the loopback unless another
/// address is given on purpose: anyone who can reach the port can turn the knobs) whose
/// messages — alone or in bundles, in order — are routed (``OSCRouter``, told whether the
/// sender is on this machine) and handed to `handle` with their sender and the server (to
/// answer); bad ones (unknown addresses, wrong arguments, a preset path from another machine,
/// and what the socket refuses) are logged, at most one line a second, and change nothing.
package final class OSCServer: @unchecked Sendable {
    /// The parameters addresses name, and which of the host's tables that is (a live chain
    /// edit makes a new one: ``retable(_:generation:)``).
    package struct Routing: Sendable {
        package let table: ParameterTable
        package let generation: Int
        /// The ids of the processor's file parameters (an impulse response, a sample), which
        /// `/detent/param/<id> s PATH` sets.
        package let files: [String]

        package init(table: ParameterTable, generation: Int, files: [String] = []) {
            self.table = table
            self.generation = generation
            self.files = files
        }
    }

    private let routing: Mutex<Routing>
    private var socket: OSCSocket!
    /// The Unix socket beside the UDP port, when asked for: the way a client that sends and
    /// exits (`oscsend osc.unix:///…`) edits the chain, its user vouched for by the kernel.
    private var unixSocket: OSCSocket?

    /// - Throws: ``OSCServerError`` when the address is not one, or cannot be bound.
    package convenience init(port: Int, bind: String = "127.0.0.1", unixSocket: Bool = false, table: ParameterTable,
                            log: @escaping @Sendable (String) -> Void,
                            handle: @escaping @Sendable (OSCRequest, OSCPeer, OSCServer) -> Void) throws(OSCServerError) {
        try self.init(port: port, bind: bind, unixSocket: unixSocket, routing: Routing(table: table, generation: 0), log: log) { request, peer, server, _ in
            handle(request, peer, server)
        }
    }

    /// A server whose handler is also told the routing each request was read with: a
    /// parameter index means a row of that table only. With `unixSocket`, it also listens on
    /// a Unix datagram socket (``unixPath(port:)``; only this user may send to it).
    package init(port: Int, bind: String = "127.0.0.1", unixSocket: Bool = false, routing: Routing,
                log: @escaping @Sendable (String) -> Void,
                handle: @escaping @Sendable (OSCRequest, OSCPeer, OSCServer, Routing) -> Void) throws(OSCServerError) {
        self.routing = Mutex(routing)
        let server = Unowned()
        let receive: @Sendable (OSCMessage, OSCPeer) -> Void = { message, peer in
            guard let self = server.value else { return }
            let routing = self.routing.withLock { $0 }
            switch OSCRouter.route(message.path, message.arguments, table: routing.table, files: routing.files,
                                 fromThisUser: LocalSender.isThisUser(peer)) {
            case .success(let request): handle(request, peer, self, routing)
            case .failure(let rejection):
                // Shortened: an unknown address may be thousands of bytes.
                self.socket.log.line("OSC from \(peer.name): \(TerminalText.printable(rejection.description, limit: 200)); ignored")
            }
        }
        socket = try OSCSocket(port: port, bind: bind, log: log, receive: receive)
        if unixSocket {
            // Without it UDP still serves, and this user's clients that keep their socket open
            // may still edit: said once, not a reason to give up OSC.
            do { self.unixSocket = try OSCSocket(unixPath: Self.unixPath(port: socket.port), log: log, receive: receive) } catch {
                log("\(error); chain edits and preset files come only over UDP, from a client of this user that keeps its socket open")
            }
        }
        server.value = self
    }

    /// The Unix socket's path, when the server listens on one.
    package var unixPath: String? { unixSocket?.path }

    /// Where the Unix socket of the server on UDP `port` is: in the user's runtime folder
    /// (`$XDG_RUNTIME_DIR/detent-osc-PORT`, a folder only the user may enter), else in /tmp
    /// with the user's id in its name. Either way the kernel's word on each sender's user is
    /// what is trusted, not the folder.
    package static func unixPath(port: Int) -> String {
        if let runtime = Environment.value("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") {
            return runtime + "/detent-osc-\(port)"
        }
        return "/tmp/detent-osc-\(ThisProcess.userID)-\(port)"
    }

    /// Routes addresses through `table` from now on (the host's chain changed).
    package func retable(_ table: ParameterTable, generation: Int, files: [String] = []) {
        routing.withLock { $0 = Routing(table: table, generation: generation, files: files) }
    }

    /// The UDP port listened on.
    package var port: Int { socket.port }

    /// True for an IPv4 or IPv6 address written as numbers (what `bind` takes).
    package static func isAddress(_ text: String) -> Bool { OSCSocket.isAddress(text) }

    /// Stops listening and closes the socket (once; then the server is inert).
    package func stop() {
        socket.stop()
        unixSocket?.stop()
    }

    /// Logs a refusal the router cannot see (a verb the host lacks), like the server's own: at
    /// most one line a second.
    package func refuse(_ line: String) { socket.log.line(line) }

    /// Sends one message to `peer` (an answer: `/detent/status s`, `/detent/midi/learn s i`).
    package func send(_ message: OSCMessage, to peer: OSCPeer) {
        (peer.isUnix ? unixSocket : socket)?.send(message, to: peer)
    }

    /// Sends `/detent/param/<id> f value` for each value (rows of `table`, else of the
    /// current routing's) to `peer`.
    package func send(_ values: [(ParameterIndex, Double)], in table: ParameterTable? = nil, to peer: OSCPeer) {
        let table = table ?? routing.withLock { $0.table }
        for (index, value) in values where index.rawValue < table.count {
            send(OSCMessage(OSCRouter.address(of: index, in: table), [.float(Float(value))]), to: peer)
        }
    }
}

/// The server as its socket's handler sees it: set once the server exists, never retained.
private final class Unowned: @unchecked Sendable {
    weak var value: OSCServer?
}
