import Platform
import Synchronization

/// The client side of the Non Session Manager's protocol (API 1.2, as New Session Manager
/// speaks it), over an ``OSCSocket``: announce, then answer the server's `open` and `save`
/// with `/reply` or `/error`, and tell it when the state is dirty or clean.
///
/// ```swift
/// let client = try NSMClient(url: "osc.udp://studio:15000/", executable: "detent", log: log) { request in
///     switch request {
///     case .open(let path, _, let id): try open(path, id); return "Opened"
///     case .save: try save(); return "Saved"
///     }
/// }
/// let server = try client.announce(timeout: .seconds(10))   // "New Session Manager"
/// client.setDirty(true)
/// ```
///
/// Requests are answered on the socket's thread, one at a time and in order, so an `open`
/// and a `save` never overlap.
package final class NSMClient: @unchecked Sendable {
    /// What the server asks of the client.
    package enum Request: Sendable, Equatable {
        /// Open (or switch to) the session at `path`, as the client named `clientID` (its JACK
        /// client name); `displayName` is the session's name for people.
        case open(path: String, displayName: String, clientID: String)
        case save
    }

    /// A request that failed: the code the protocol defines and a line for the server's log.
    package struct Failure: Error, Sendable {
        package let code: Int32
        package let message: String

        package init(code: Int32, _ message: String) {
            self.code = code
            self.message = message
        }

        package static let general: Int32 = -1
        package static let launchFailed: Int32 = -4
        package static let noSuchFile: Int32 = -5
        package static let badProject: Int32 = -9
        package static let createFailed: Int32 = -10
    }

    /// Why announcing failed.
    package struct AnnounceError: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// What Detent can do beyond open and save.
    package static let capabilities = ":switch:dirty:message:"
    static let apiMajor: Int32 = 1, apiMinor: Int32 = 2

    private let socket: OSCSocket
    private let server: OSCPeer
    private let executable: String
    private let shared: Shared

    private final class Shared: Sendable {
        /// The announce's answer: the server's name, or why it refused.
        let answer = Mutex<Result<String, AnnounceError>?>(nil)
        let answered = Semaphore(0)
        let dirty = Mutex<Bool?>(nil)
        /// Called after the server was told a save or an open succeeded.
        let afterClean = Mutex<(@Sendable () -> Void)?>(nil)
    }

    /// Calls `action` each time the server has been told that a save or an open succeeded:
    /// the server counts the session clean from then on, so the next ``setDirty(_:)`` is
    /// sent whatever it says (a change made meanwhile must be told again).
    package func whenServerCountsClean(_ action: @escaping @Sendable () -> Void) {
        shared.afterClean.withLock { $0 = action }
    }

    /// - Parameters:
    ///   - url: `NSM_URL` as the server sets it: `osc.udp://HOST:PORT/`.
    ///   - handle: answers a request with a message for the server, or throws ``Failure``.
    /// - Throws: ``AnnounceError`` for a URL that is not one, or a socket that cannot open.
    package init(url: String, executable: String, log: @escaping @Sendable (String) -> Void,
                handle: @escaping @Sendable (Request) throws(Failure) -> String) throws(AnnounceError) {
        guard let (host, port) = Self.parse(url) else {
            throw AnnounceError(description: "NSM_URL '\(url)' is not an OSC URL (osc.udp://HOST:PORT/)")
        }
        guard let server = OSCPeer(host: host, port: port) else {
            throw AnnounceError(description: "NSM_URL '\(url)': cannot find the host '\(host)'")
        }
        self.server = server
        self.executable = executable
        let shared = Shared()
        self.shared = shared
        let box = SocketBox()
        do {
            // The loopback when the server is on this machine, else every interface of the family.
            let bind = server.isIPv6 ? (server.isLoopback ? "::1" : "::") : (server.isLoopback ? "127.0.0.1" : "0.0.0.0")
            socket = try OSCSocket(port: 0, bind: bind, what: "NSM", log: log) { message, peer in
                guard peer == server, let socket = box.socket else { return }
                Self.received(message, socket: socket, server: server, shared: shared, log: log, handle: handle)
            }
        } catch {
            throw AnnounceError(description: "cannot open a socket for the session manager: \(error)")
        }
        box.socket = socket
    }

    deinit { socket.stop() }

    /// `osc.udp://HOST:PORT/` → host and port; nil for anything else.
    static func parse(_ url: String) -> (host: String, port: Int)? {
        let prefix = "osc.udp://"
        guard url.hasPrefix(prefix) else { return nil }
        var rest = Substring(url.dropFirst(prefix.count))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let host: Substring, portText: Substring
        if rest.hasPrefix("[") {  // [::1]:1234
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            guard after.hasPrefix(":") else { return nil }
            portText = after.dropFirst()
        } else {
            guard let colon = rest.lastIndex(of: ":") else { return nil }
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        }
        guard !host.isEmpty, let port = Int(portText), (1...65_535).contains(port) else { return nil }
        return (String(host), port)
    }

    /// Announces the client and waits for the server's answer.
    /// - Returns: the server's name.
    /// - Throws: ``AnnounceError`` when the server refuses or does not answer in time.
    package func announce(name: String = "Detent", timeout: Duration) throws(AnnounceError) -> String {
        socket.send(OSCMessage("/nsm/server/announce", [
            .string(name), .string(Self.capabilities), .string(executable),
            .int32(Self.apiMajor), .int32(Self.apiMinor), .int32(ThisProcess.id),
        ]), to: server)
        guard shared.answered.wait(timeout: timeout), let answer = shared.answer.withLock({ $0 }) else {
            throw AnnounceError(description: "the session manager at \(server.name) did not answer the announce within \(timeout)")
        }
        return try answer.get()
    }

    /// Tells the server whether there are unsaved changes (only when that changes).
    package func setDirty(_ dirty: Bool) {
        let changed = shared.dirty.withLock { known -> Bool in
            defer { known = dirty }
            return known != dirty
        }
        if changed { socket.send(OSCMessage(dirty ? "/nsm/client/is_dirty" : "/nsm/client/is_clean"), to: server) }
    }

    /// A message for the session manager's user (priority 0…3, most urgent 3).
    package func message(_ text: String, priority: Int32 = 1) {
        socket.send(OSCMessage("/nsm/client/message", [.int32(priority), .string(text)]), to: server)
    }

    private static func received(_ message: OSCMessage, socket: OSCSocket, server: OSCPeer, shared: Shared,
                                 log: @Sendable (String) -> Void,
                                 handle: @Sendable (Request) throws(Failure) -> String) {
        let strings = message.arguments.compactMap { argument -> String? in
            if case .string(let s) = argument { return s }
            return nil
        }
        switch message.path {
        case "/reply" where strings.first == "/nsm/server/announce":
            shared.answer.withLock { $0 = .success(strings.count > 2 ? strings[2] : "the session manager") }
            shared.answered.signal()
        case "/error" where strings.first == "/nsm/server/announce":
            let reason = strings.last ?? "refused"
            shared.answer.withLock { $0 = .failure(AnnounceError(description: "the session manager refused Detent: \(reason)")) }
            shared.answered.signal()
        case "/nsm/client/open":
            guard strings.count == 3, message.arguments.count == 3 else {
                return log("the session manager sent /nsm/client/open with unexpected arguments; ignored")
            }
            answer("/nsm/client/open", .open(path: strings[0], displayName: strings[1], clientID: strings[2]))
        case "/nsm/client/save":
            answer("/nsm/client/save", .save)
        case "/nsm/client/session_is_loaded", "/reply", "/error":
            break
        default:
            log("the session manager sent \(message.path), which Detent does not take; ignored")
        }

        func answer(_ path: String, _ request: Request) {
            do throws(Failure) {
                let text = try handle(request)
                socket.send(OSCMessage("/reply", [.string(path), .string(text)]), to: server)
                // The server counts the session clean from this reply on, whatever this
                // client told it before: what it is now is told again, dirty or clean.
                shared.dirty.withLock { $0 = nil }
                shared.afterClean.withLock { $0 }?()
            } catch {
                socket.send(OSCMessage("/error", [.string(path), .int32(error.code), .string(error.message)]), to: server)
            }
        }
    }
}

/// The socket as its own handler sees it: set once the socket exists.
private final class SocketBox: @unchecked Sendable {
    weak var socket: OSCSocket?
}
