import TextFormats
import AudioEngine
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import Parameters
import Platform
import Synchronization
import WebBridge

/// `--http PORT`: the browser panel, its WebSocket and OSCQuery, on a thread pool of its own.
///
/// Every change from the page goes through the host's verbs (``WebPanelHost``), as typed
/// commands, MIDI and OSC do; the feedback thread, woken by the host's change feed (at most
/// 30 times a second), marks what changed on every open page, whose one writer sends the values current then.
/// Nothing here runs on, waits for or allocates on the audio thread.
package final class WebServer: Sendable {
    /// The port it listens on (the one chosen when asked for 0).
    package let port: Int
    /// What to open in a browser: the address, and the token when one is required.
    package let url: String

    /// The largest message a page may send, in bytes (a request is under 200).
    package static let maximumMessage = 4096
    /// The largest frame read whole. A longer message than ``maximumMessage`` (up to this) is
    /// read to its end and answered with a close, 1009, message too large: a socket closed with
    /// unread data in it would end in a TCP reset, which a browser reports as a network error.
    static let maximumFrame = 1 << 20
    /// Pages open at once, at most: each costs a socket and a writer, and every change is sent
    /// to each; a page beyond is closed at once, saying why (policy violation, 1008).
    package static let maximumPages = 64
    /// The page rate: the feedback thread looks at the host at most this often (30 a second).
    /// It sleeps on the host's change feed in between, and looks on a timer only while a
    /// page is open on a processor with outputs (meters move with the audio, not with changes).
    package static let interval = Duration.milliseconds(33)

    private let shared: Shared
    private let host: any WebPanelHost
    private let feedback: NamedThread
    private let task: Task<Void, Never>
    private let announcer: ServiceAnnouncer?

    struct Sockets {
        var pages: [ObjectIdentifier: PanelConnection] = [:]
        var listeners: [ObjectIdentifier: OSCQueryListener] = [:]
        var count: Int { pages.count + listeners.count }
    }

    /// What the server's tasks, the feedback thread and `stop` share.
    private final class Shared: Sendable {
        /// The open sockets: pages, and OSCQuery clients (`LISTEN`), counted together against
        /// ``maximumPages``.
        let sockets = Mutex(Sockets())
        let running = Atomic(true)
        /// A page began a MIDI learn: the feedback thread asks the host whether it is done.
        let learning = Atomic(false)
        let finished = Semaphore(0)
        /// Rig edits, files and the catalogue, which load code or read the disk and take from
        /// milliseconds to seconds: one at a time, off the server's threads, at most
        /// ``SerialWorker/limit`` waiting (a page that sends more is told so).
        let slow: SerialWorker?

        init() { slow = try? SerialWorker(name: "web-edits", limit: 8) }
    }

    /// Starts listening; throws one line when the address cannot be had. `log` takes a line
    /// about a page that sent what is not the panel's.
    package init(settings: WebSettings, host: any WebPanelHost, title: String, oscPort: Int?, oscAddress: String?,
                log: @escaping @Sendable (String) -> Void) throws(WebServerError) {
        if let problem = settings.problem { throw WebServerError(problem) }
        // What pages do wrong is logged at most once a second: a page cannot flood stderr.
        // (The few lines mDNS may say are not pages' doing: they go out as they come.)
        let announcerLog = log
        let log = RateLimitedLog(log).line
        let token = settings.resolvedToken()
        let access = WebAccess(token: token)
        let shared = Shared()
        self.shared = shared
        self.host = host

        let router = Self.pageRouter(access: access, host: host, title: title, oscPort: oscPort, oscAddress: oscAddress)
        let sockets = Self.socketRouter(access: access, host: host, title: title, shared: shared, log: log)
        let bind = settings.bind, requested = settings.port
        let (port, task) = try Self.start(router: router, sockets: sockets, bind: bind, requested: requested, shared: shared)
        self.port = port
        self.task = task
        // Listening on every address: the machine's name is what a phone on the network opens.
        let wildcard = bind == "0.0.0.0" || bind == "::"
        let shownHost = wildcard ? (Environment.hostName ?? bind) : bind.contains(":") ? "[\(bind)]" : bind
        url = "http://\(shownHost):\(port)/" + (token.map { "?token=" + $0 } ?? "")

        do {
            feedback = try NamedThread(name: "web-feedback") { Self.feedbackLoop(host: host, shared: shared) }
        } catch {
            task.cancel()
            throw WebServerError("--http: cannot start the feedback thread (\(error))")
        }
        var services = [ServiceAnnouncer.Service(type: "_oscjson._tcp", port: port, bind: bind)]
        if let oscPort, let oscAddress { services.append(.init(type: "_osc._udp", port: oscPort, bind: oscAddress)) }
        announcer = ServiceAnnouncer(name: title, services: services, log: announcerLog)
    }

    /// The HTTP routes, behind the access check: the page, and the OSCQuery tree (its
    /// `HOST_INFO` too) at `/` for a client that does not ask for HTML.
    private static func pageRouter(access: WebAccess, host: any WebPanelHost, title: String, oscPort: Int?,
                                   oscAddress: String?) -> Router<PanelRequestContext> {
        let router = Router(context: PanelRequestContext.self)
        router.add(middleware: AccessCheck(access: access))
        let page = PanelPage.html
        router.get("/") { request, _ -> Response in
            let query = WebAccess.queryItems(request.uri.query ?? "")
            if query.contains(where: { $0.0 == "HOST_INFO" }) {
                return Self.json(OSCQueryNamespace.hostInfo(name: host.webSnapshot().title ?? title, oscPort: oscPort,
                                                            oscAddress: oscAddress))
            }
            let wantsPage = request.headers[.accept]?.contains("text/html") == true
            if wantsPage && Self.attribute(in: query) == nil { return Self.page(page) }
            return Self.oscQuery(request.uri.path, query: query, host: host)
        }
        router.get("/panel") { _, _ in Self.page(page) }
        router.get("/detent") { request, _ in
            Self.oscQuery(request.uri.path, query: WebAccess.queryItems(request.uri.query ?? ""), host: host)
        }
        router.get("/detent/**") { request, _ in
            Self.oscQuery(request.uri.path, query: WebAccess.queryItems(request.uri.query ?? ""), host: host)
        }
        return router
    }

    /// The WebSockets: the page's at /ws, an OSCQuery client's at / (where it read the tree).
    /// Only upgrade requests reach this router; the same access rules hold.
    private static func socketRouter(access: WebAccess, host: any WebPanelHost, title: String, shared: Shared,
                                     log: @escaping @Sendable (String) -> Void) -> Router<PanelRequestContext> {
        let sockets = Router(context: PanelRequestContext.self)
        sockets.add(middleware: AccessCheck(access: access))
        sockets.ws("/ws", onUpgrade: { inbound, outbound, context in
            let peer = context.requestContext.remoteAddress
            let refusal = PanelTrust.refusal(token: access.token, peerAddress: peer?.ipAddress, peerPort: peer?.port,
                                             serverPort: context.requestContext.localPort)
            try await Self.serve(inbound: inbound, outbound: outbound, host: host, title: title, editRefusal: refusal,
                                 shared: shared, log: log)
        })
        sockets.ws("/", onUpgrade: { inbound, outbound, _ in
            try await Self.listen(inbound: inbound, outbound: outbound, host: host, shared: shared, log: log)
        })
        return sockets
    }

    /// Runs the application on a task of its own and waits (up to 30 s) until it listens.
    ///
    /// - Returns: the port it listens on, and the task, which ends when the server stops
    ///   (signalling `shared.finished`).
    /// - Throws: one line when it cannot listen, or did not start in time.
    private static func start(router: Router<PanelRequestContext>, sockets: Router<PanelRequestContext>,
                              bind: String, requested: Int, shared: Shared) throws(WebServerError) -> (Int, Task<Void, Never>) {
        let running = Mutex<Result<Int, WebServerError>?>(nil)
        let started = Semaphore(0)
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(webSocketRouter: sockets, configuration: .init(
                http1: .init(idleTimeout: .seconds(60)),
                ws: .init(maxFrameSize: Self.maximumFrame, autoPing: .enabled(timePeriod: .seconds(15))))),
            configuration: .init(address: .hostname(bind, port: requested), serverName: "detent"),
            onServerRunning: { channel in
                running.withLock { $0 = .success(channel.localAddress?.port ?? requested) }
                started.signal()
            },
            logger: Logger(label: "detent.web", factory: { _ in SwiftLogNoOpLogHandler() }))
        let task = Task.detached {
            do {
                try await app.run()
            } catch {
                // The system's reason, not SwiftNIO's description of the call that failed.
                let reason = (error as? IOError).map { SystemCallError.reason(errno: $0.errnoCode) } ?? "\(error)"
                running.withLock { if $0 == nil { $0 = .failure(WebServerError("--http: cannot listen on \(bind):\(requested): \(reason)")) } }
            }
            started.signal()
            shared.finished.signal()
        }
        _ = started.wait(timeout: .seconds(30))
        switch running.withLock({ $0 }) {
        case .success(let port)?:
            return (port, task)
        case .failure(let error)?:
            shared.finished.signal()
            throw error
        case nil:
            task.cancel()
            throw WebServerError("--http: the server on \(bind):\(requested) did not start within 30 s")
        }
    }

    /// The feedback thread's loop: woken by the host's change feed (or, while a page is open
    /// on a processor with outputs, by the page rate's timer), at most once an ``interval``,
    /// it marks on every open page and OSCQuery listener what changed, until `stop`.
    private static func feedbackLoop(host: any WebPanelHost, shared: Shared) {
        var told = Told(seen: host.webSnapshot())
        var lastLook = ContinuousClock.now
        while shared.running.load(ordering: .relaxed) {
            let watched = shared.sockets.withLock { !$0.pages.isEmpty } && !told.seen.layout.outputs.isEmpty
            _ = host.awaitChange(timeout: watched ? Self.interval : nil)
            guard shared.running.load(ordering: .relaxed) else { break }
            // A rate, not a poll: changes closer together than the interval wait for it.
            let since = ContinuousClock.now - lastLook
            if since < Self.interval { ThisThread.sleep(for: Self.interval - since) }
            lastLook = .now
            told.markChanges(host: host, shared: shared)
        }
    }

    /// What the feedback thread last saw of the host, so that each look marks only what
    /// changed since.
    private struct Told {
        var seen: WebSnapshot
        var outputs: [OutputValue] = []
        var faults: [String: String] = [:]

        /// Looks at the host and marks what changed on the open pages and listeners: a new
        /// layout after a chain edit, else the values that moved; a finished MIDI learn; the
        /// outputs; the slots that are down.
        mutating func markChanges(host: any WebPanelHost, shared: Shared) {
            let now = host.webSnapshot()
            let (pages, listeners) = shared.sockets.withLock { (Array($0.pages.values), Array($0.listeners.values)) }
            if now.generation != seen.generation {
                pages.forEach { $0.markLayout() }
                listeners.forEach { $0.markPathsChanged() }
            } else if now.layout.files != seen.layout.files {
                // A file chosen (by any surface): the pages show its path.
                pages.forEach { $0.markLayout() }
            } else {
                let changed = now.targets.filter { seen.targets[$0.key] != $0.value }.map(\.key)
                if !changed.isEmpty {
                    pages.forEach { $0.markChanged(changed) }
                    let ids = changed.map { now.layout.table[$0].id }
                    listeners.forEach { $0.markChanged(ids) }
                }
            }
            seen = now
            if shared.learning.load(ordering: .relaxed), let learnt = host.takeLearnt() {
                shared.learning.store(false, ordering: .relaxed)
                pages.forEach { $0.markLearnt(learnt) }
            }
            let latest = host.outputValues()
            if latest != outputs { pages.forEach { $0.markOutputs(latest) } }
            outputs = latest
            let down = host.faults()
            if down != faults { pages.forEach { $0.markFaults(down) } }
            faults = down
        }
    }

    /// Closes every page and stops listening.
    package func stop() {
        guard shared.running.exchange(false, ordering: .relaxed) else { return }
        host.interruptChangeWait()
        feedback.join()
        shared.sockets.withLock { sockets in
            sockets.pages.values.forEach { $0.finish() }
            sockets.listeners.values.forEach { $0.finish() }
        }
        task.cancel()
        _ = shared.finished.wait(timeout: .seconds(5))
        shared.slow?.stop()
        announcer?.stop()
    }

    /// One page's WebSocket: its writer sends what is pending; its messages are read here,
    /// each a host verb. A message that is not the panel's closes this socket only.
    private static func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, host: any WebPanelHost,
                              title: String, editRefusal: String?, shared: Shared,
                              log: @escaping @Sendable (String) -> Void) async throws {
        let connection = PanelConnection(editRefusal: editRefusal)
        let key = ObjectIdentifier(connection)
        guard await admit(outbound, shared: shared, log: log, as: "a new one", { $0.pages[key] = connection }) else { return }
        let outputs = host.outputValues()
        if !outputs.isEmpty {
            connection.markOutputs(outputs)
            // The feedback thread now looks at the meters at the page rate.
            host.interruptChangeWait()
        }
        connection.markPresets(host.presetNames())
        connection.markFaults(host.faults())
        defer { shared.sockets.withLock { _ = $0.pages.removeValue(forKey: key) } }
        let writer = Task {
            for await _ in connection.wakes {
                let now = host.webSnapshot()
                for text in connection.take(now, title: now.title ?? title) {
                    do { try await outbound.write(.text(text)) } catch { return }
                }
            }
        }
        let ending: (tooLarge: Bool, malformed: String?)
        do {
            ending = try await read(inbound, for: connection, host: host, shared: shared)
        } catch {
            connection.finish()
            await writer.value
            throw error
        }
        connection.finish()
        await writer.value
        if ending.tooLarge {
            log("web panel: a message longer than \(maximumMessage) bytes; that page's connection is closed")
            try? await outbound.close(.messageTooLarge, reason: "messages are at most \(maximumMessage) bytes")
        } else if let malformed = ending.malformed {
            log("web panel: \(malformed); that page's connection is closed")
            try? await outbound.close(.unacceptableData, reason: malformed)
        }
    }

    /// Reads a page's messages until it closes or sends what is not the panel's, doing each
    /// request through the host; more than ``MessageBudget/perSecond`` a second are dropped.
    ///
    /// - Returns: why reading stopped early: a message over ``maximumMessage`` bytes, or the
    ///   reason a message is not the panel's (neither when the page closed).
    private static func read(_ inbound: WebSocketInboundStream, for connection: PanelConnection, host: any WebPanelHost,
                             shared: Shared) async throws -> (tooLarge: Bool, malformed: String?) {
        var budget = MessageBudget()
        for try await message in inbound.messages(maxSize: maximumFrame) {
            guard budget.take(now: .now) else {
                if budget.dropped == 1 { connection.report("more than \(MessageBudget.perSecond) messages a second: the rest are dropped") }
                continue
            }
            guard case .text(let text) = message else {
                return (false, "binary messages are not the panel's")
            }
            guard text.utf8.count <= maximumMessage else {
                return (true, nil)
            }
            guard let shown = connection.shown else { continue }
            switch PanelMessages.read(text, table: shown.layout.table) {
            case .success(let request):
                if !perform(request, shown: shown, for: connection, host: host, shared: shared) {
                    connection.report("the chain changed as the request came; ignored")
                }
            case .failure(.refused(let reason)):
                connection.report(reason)
            case .failure(.malformed(let reason)):
                return (false, reason)
            }
        }
        return (false, nil)
    }

    /// Does a page's request through the host, for the layout the page was shown; a problem
    /// is reported to the page.
    ///
    /// - Returns: false when the chain changed since that layout and the request was dropped.
    private static func perform(_ request: PanelMessages.Request, shown: WebSnapshot, for connection: PanelConnection,
                                host: any WebPanelHost, shared: Shared) -> Bool {
        let table = shown.layout.table
        switch request {
        case .position(let index, let position):
            return host.set([index: table[index].value(atNormalized: position)], ifGeneration: shown.generation)
        case .value(let index, let value):
            return host.set([index: value], ifGeneration: shown.generation)
        case .reset(let index):
            return host.reset(index, ifGeneration: shown.generation)
        case .learn(let index):
            if let problem = host.learn(index, ifGeneration: shown.generation) {
                connection.report(problem)
            } else {
                shared.learning.store(index != nil, ordering: .relaxed)
                host.interruptChangeWait()
            }
            return true
        case .restart(let slot):
            if let problem = host.restart(slot) { connection.report(problem) }
            return true
        case .chain(let edit):
            slowly(for: connection, shared: shared, what: "rig edits") {
                switch host.editRig(edit) {
                case .success(let answer): connection.answer(answer)
                case .failure(let problem): connection.report(problem.description)
                }
            }
            return true
        case .file(let id, let path):
            slowly(for: connection, shared: shared, what: "files") {
                switch host.setFile(id, path: path) {
                case .success(let answer): connection.answer(answer)
                case .failure(let problem): connection.report(problem.description)
                }
            }
            return true
        case .catalogue:
            slowly(for: connection, shared: shared, what: "the catalogue") { connection.markCatalogue(host.catalogue()) }
            return true
        case .presetLoad(let name), .presetSave(let name):
            // Loading and saving are answered with what went wrong, if anything.
            if let problem = host.preset(name, save: request == .presetSave(name)) {
                connection.report(problem)
            } else if request == .presetSave(name) {
                // Every page may offer the new one.
                let names = host.presetNames()
                shared.sockets.withLock { $0.pages.values.forEach { $0.markPresets(names) } }
            }
            return true
        }
    }

    /// Runs `job` on the slow requests' thread, for a page that may change the rig; tells the
    /// page why not when it may not, or when too many wait.
    private static func slowly(for connection: PanelConnection, shared: Shared, what: String,
                               _ job: @escaping @Sendable () -> Void) {
        if let refusal = connection.editRefusal { return connection.report("\(what): \(refusal)") }
        guard let slow = shared.slow else { return connection.report("\(what): the panel could not start its worker thread") }
        if !slow.offer(job) { connection.report("\(what): \(slow.limit) requests wait already; try again") }
    }

    /// Takes a socket in (`add` records it) while fewer than ``maximumPages`` are open; else
    /// closes it, saying why (policy violation, 1008), and logs `who` was turned away.
    private static func admit(_ outbound: WebSocketOutboundWriter, shared: Shared, log: @Sendable (String) -> Void,
                              as who: String, _ add: (inout Sockets) -> Void) async -> Bool {
        let admitted = shared.sockets.withLock { sockets -> Bool in
            guard sockets.count < maximumPages else { return false }
            add(&sockets)
            return true
        }
        if !admitted {
            log("web panel: more than \(maximumPages) pages are open; \(who) was turned away")
            try? await outbound.close(.policyViolation, reason: "more than \(maximumPages) pages are open")
        }
        return admitted
    }

    /// An OSCQuery client's WebSocket: `LISTEN` and `IGNORE` in, the listened parameters'
    /// changes out as OSC messages in binary frames (``OSCQueryListener``). A message that is
    /// no OSCQuery command, or a binary one, closes this socket only; a path that names no
    /// parameter is ignored.
    private static func listen(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, host: any WebPanelHost,
                               shared: Shared, log: @escaping @Sendable (String) -> Void) async throws {
        let listener = OSCQueryListener()
        let key = ObjectIdentifier(listener)
        guard await admit(outbound, shared: shared, log: log, as: "an OSCQuery client", { $0.listeners[key] = listener }) else { return }
        defer { shared.sockets.withLock { _ = $0.listeners.removeValue(forKey: key) } }
        let writer = Task {
            for await _ in listener.wakes {
                for frame in listener.take(host.webSnapshot()) {
                    do {
                        switch frame {
                        case .text(let text): try await outbound.write(.text(text))
                        case .binary(let bytes): try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
                        }
                    } catch { return }
                }
            }
        }
        var budget = MessageBudget()
        var malformed: String?
        var tooLarge = false
        do {
            reading: for try await message in inbound.messages(maxSize: maximumFrame) {
                guard budget.take(now: .now) else { continue }
                if case .text(let text) = message, text.utf8.count > maximumMessage {
                    tooLarge = true
                    break reading
                }
                guard case .text(let text) = message, let command = OSCQueryListener.read(text) else {
                    malformed = "not an OSCQuery command (LISTEN or IGNORE)"
                    break reading
                }
                _ = listener.apply(command, table: host.webSnapshot().layout.table)
            }
        } catch {
            listener.finish()
            await writer.value
            throw error
        }
        listener.finish()
        await writer.value
        if tooLarge {
            log("web panel: an OSCQuery client sent a message longer than \(maximumMessage) bytes; its connection is closed")
            try? await outbound.close(.messageTooLarge, reason: "messages are at most \(maximumMessage) bytes")
        } else if let malformed {
            log("web panel: an OSCQuery client sent \(malformed); its connection is closed")
            try? await outbound.close(.unacceptableData, reason: malformed)
        }
    }

    private static func page(_ html: String) -> Response {
        Response(status: .ok, headers: [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
            .contentSecurityPolicy: "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self' ws: wss:; frame-ancestors 'none'",
        ], body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static func json(_ value: JSONValue) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: value.compactText)))
    }

    /// The attribute an OSCQuery request asks for (`?VALUE`), if any: an upper-case name.
    static func attribute(in query: [(String, String)]) -> String? {
        query.first { item in item.0 != "token" && !item.0.isEmpty && item.0.allSatisfy { $0.isUppercase || $0 == "_" } }?.0
    }

    private static func oscQuery(_ path: String, query: [(String, String)], host: any WebPanelHost) -> Response {
        let now = host.webSnapshot()
        // Each slot's state, as its power switch on the page reads it.
        let down = host.faults()
        let slots = now.layout.sections.filter { !$0.name.isEmpty }.map { section in
            (name: section.name, state: down[section.name] != nil ? "down"
                : (now.targets[section.bypass] ?? 0) >= 0.5 ? "bypassed" : "on")
        }
        guard let node = OSCQueryNamespace.node(at: path, table: now.layout.table, targets: now.targets, slots: slots) else {
            return Response(status: .notFound)
        }
        guard let name = attribute(in: query) else { return json(node) }
        guard let answer = OSCQueryNamespace.attribute(name, of: node) else { return Response(status: .noContent) }
        return json(answer)
    }
}

/// Refuses, with 403 and one line, a request that ``WebAccess`` does not let through, and with
/// 414 one whose target is too long.
struct AccessCheck<Context: RequestContext>: RouterMiddleware {
    let access: WebAccess

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.string.utf8.count <= WebAccess.maximumTargetLength else { return Response(status: .uriTooLong) }
        if let refusal = access.refusal(host: request.head.authority, origin: request.headers[.origin],
                                        query: WebAccess.queryItems(request.uri.query ?? ""),
                                        authorization: request.headers[.authorization]) {
            return Response(status: .forbidden, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: "detent: " + refusal + "\n")))
        }
        return try await next(request, context)
    }
}
