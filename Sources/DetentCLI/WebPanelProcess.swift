import CPlatform
import Platform
import Synchronization
import WebBridge

/// `--http`: the browser panel's server, `detent-web`, started beside this process and
/// answered over a socket pair (``WebBridge``) by a thread of its own, from `host` — so
/// `detent` links no network code, and none of it slows the start of every other command.
///
/// When `detent-web` ends on its own, one warning says so and the session goes on without
/// the browser panel; `stop` ends it with the session.
final class WebPanelProcess: Sendable {
    /// What to open in a browser: the address, and the token when one is required.
    let url: String

    private let pid: pid_t
    private let thread: NamedThread
    private let shared: Shared

    private final class Shared: Sendable {
        let stopping = Atomic(false)
        let reaped = Atomic(false)
        let started = Semaphore(0)
        let outcome = Mutex<Result<String, WebServerError>?>(nil)
    }

    /// Where `detent-web` is: beside this program (its folder through /proc/self/exe), else
    /// the first on `PATH`; nil when there is none.
    static func programPath() -> String? {
        var folders: [String] = []
        if let own = PathString.resolved("/proc/self/exe"), let slash = own.lastIndex(of: "/") {
            folders.append(String(own[..<slash]))
        }
        folders += (Environment.value("PATH") ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
        return folders.lazy.map { $0 + "/" + WebBridge.program }.first { PathString.isExecutable($0) }
    }

    /// Starts `program` and waits until it listens; throws its one line when it cannot.
    init(program: String, start: WebBridge.Start, host: any WebPanelHost,
         log: @escaping @Sendable (String) -> Void) throws(WebServerError) {
        let socket: LineSocket, childEnd: Int32
        do {
            (socket, childEnd) = try LineSocket.pair()
        } catch {
            throw WebServerError("--http: cannot make a socket pair for \(WebBridge.program) (\(error))")
        }
        let null = (try? DescriptorIO.open("/dev/null", .readWrite)) ?? -1
        defer { if null >= 0 { try? DescriptorIO.close(null) } }
        let child: pid_t
        do {
            child = try Spawn.start(program, ["\(ThisProcess.id)"], descriptors: [null, null, 2, childEnd])
        } catch {
            try? DescriptorIO.close(childEnd)
            throw WebServerError("--http: cannot start \(program) (\(error))")
        }
        try? DescriptorIO.close(childEnd)
        let shared = Shared()
        guard socket.send(start.line) else {
            Signals.send(Signals.kill, to: child)
            _ = Spawn.wait(child)
            throw WebServerError("--http: \(program) ended as it started")
        }
        let thread: NamedThread
        do {
            thread = try NamedThread(name: "web-bridge") {
                Self.serve(socket: socket, host: host, pid: child, shared: shared, log: log)
            }
        } catch {
            Signals.send(Signals.kill, to: child)
            _ = Spawn.wait(child)
            throw WebServerError("--http: cannot start the web bridge thread (\(error))")
        }
        _ = shared.started.wait(timeout: .seconds(60))
        let outcome = shared.outcome.withLock { $0 }
        guard case .success(let url)? = outcome else {
            Self.end(pid: child, thread: thread, shared: shared)
            if case .failure(let error)? = outcome { throw error }
            throw WebServerError("--http: \(WebBridge.program) did not start listening within 60 s")
        }
        self.url = url
        self.pid = child
        self.thread = thread
        self.shared = shared
    }

    /// Answers every question until the program ends or ``stop()`` is called.
    private static func serve(socket: LineSocket, host: any WebPanelHost, pid: pid_t, shared: Shared,
                              log: @Sendable (String) -> Void) {
        var ready = false
        func settle(_ outcome: Result<String, WebServerError>) {
            guard !ready else { return }
            ready = true
            shared.outcome.withLock { $0 = outcome }
            shared.started.signal()
        }
        reading: while !shared.stopping.load(ordering: .relaxed) {
            switch socket.receive(waiting: 100) {
            case .nothing:
                continue
            case .line(let line):
                switch WebBridge.handle(line, host: host) {
                case .answer(let answer)?: socket.send(answer)
                case .notice(.ready(let url))?: settle(.success(url))
                case .notice(.failed(let message))?: settle(.failure(WebServerError(message)))
                case .notice(.log(let text))?: log(text)
                case nil: break
                }
            case .end:
                guard !shared.stopping.load(ordering: .relaxed) else { break reading }
                let status = Spawn.wait(pid)
                shared.reaped.store(true, ordering: .relaxed)
                let how = switch status {
                case .exited(let code): "exited with status \(code)"
                case .signaled(let signal): "was killed by signal \(signal)"
                }
                if ready {
                    log("the web panel's server (\(WebBridge.program)) \(how); the session goes on without the web panel")
                } else {
                    settle(.failure(WebServerError("--http: \(WebBridge.program) \(how) before it listened")))
                }
                break reading
            }
        }
        socket.close()
    }

    /// Closes every page and ends the program. Safe to call more than once.
    func stop() { Self.end(pid: pid, thread: thread, shared: shared) }

    private static func end(pid: pid_t, thread: NamedThread, shared: Shared) {
        guard !shared.stopping.exchange(true, ordering: .relaxed) else { return }
        thread.join()
        guard !shared.reaped.load(ordering: .relaxed) else { return }
        Signals.send(Signals.terminate, to: pid)
        _ = Spawn.wait(pid)
    }
}
