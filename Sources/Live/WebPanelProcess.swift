import CPlatform
import Control
import Platform
import Synchronization
import WebBridge

/// `--http`: the browser panel's server, `detent-web`, started beside this process and
/// answered over a socket pair (``WebBridge``) by a thread of its own, from `host` — so
/// `detent` links no network code, and none of it slows the start of every other command.
/// A second thread relays the host's change feed to it, a byte down a pipe per wake, so its
/// feedback sleeps until something changed.
///
/// When `detent-web` ends on its own, one warning says so and the session goes on without
/// the browser panel; `stop` ends it with the session.
package final class WebPanelProcess: Sendable {
    /// What to open in a browser: the address, and the token when one is required.
    package let url: String

    private let pid: pid_t
    private let thread: NamedThread
    private let relay: NamedThread
    private let shared: Shared

    private final class Shared: Sendable {
        let stopping = Atomic(false)
        let reaped = Atomic(false)
        let started = Semaphore(0)
        let outcome = Mutex<Result<String, WebServerError>?>(nil)
        let socket: LineSocket
        let changes: ChangeFeed<HostChanges>.Subscription
        init(socket: LineSocket, changes: ChangeFeed<HostChanges>.Subscription) {
            self.socket = socket
            self.changes = changes
        }
    }

    /// Where `detent-web` is: beside this program (its folder through /proc/self/exe), else
    /// the first on `PATH`; nil when there is none.
    package static func programPath() -> String? { ProgramSearch.beside(WebBridge.program) }

    /// Starts `program` and waits until it listens; throws its one line when it cannot.
    package init(program: String, start: WebBridge.Start, host: any WebPanelHost, changes: ChangeFeed<HostChanges>,
                log: @escaping @Sendable (String) -> Void) throws(WebServerError) {
        let socket: LineSocket, childEnd: Int32, pipe: WakePipe, childPipe: Int32
        do {
            (socket, childEnd) = try LineSocket.pair()
            (pipe, childPipe) = try WakePipe.toChild()
        } catch {
            throw WebServerError("--http: cannot make a socket pair or a pipe for \(WebBridge.program) (\(error))")
        }
        let null = (try? DescriptorIO.open("/dev/null", .readWrite)) ?? -1
        defer { if null >= 0 { try? DescriptorIO.close(null) } }
        let child: pid_t
        do {
            child = try Spawn.start(program, ["\(ThisProcess.id)"], descriptors: [null, null, 2, childEnd, childPipe])
        } catch {
            try? DescriptorIO.close(childEnd)
            try? DescriptorIO.close(childPipe)
            throw WebServerError("--http: cannot start \(program) (\(error))")
        }
        try? DescriptorIO.close(childEnd)
        try? DescriptorIO.close(childPipe)
        let shared = Shared(socket: socket, changes: changes.subscribe())
        guard socket.send(start.line) else {
            Signals.send(Signals.kill, to: child)
            _ = Spawn.wait(child)
            throw WebServerError("--http: \(program) ended as it started")
        }
        let thread: NamedThread, relay: NamedThread
        do {
            thread = try NamedThread(name: "web-bridge") {
                Self.serve(socket: socket, host: host, pid: child, shared: shared, log: log)
            }
        } catch {
            Signals.send(Signals.kill, to: child)
            _ = Spawn.wait(child)
            throw WebServerError("--http: cannot start the web bridge thread (\(error))")
        }
        do {
            relay = try NamedThread(name: "web-changes") {
                while !shared.stopping.load(ordering: .relaxed) {
                    if !shared.changes.next(timeout: nil).isEmpty { pipe.signal() }
                }
            }
        } catch {
            shared.stopping.store(true, ordering: .relaxed)
            socket.shutdown()
            thread.join()
            Signals.send(Signals.kill, to: child)
            _ = Spawn.wait(child)
            throw WebServerError("--http: cannot start the thread that tells \(WebBridge.program) of changes (\(error))")
        }
        _ = shared.started.wait(timeout: .seconds(60))
        let outcome = shared.outcome.withLock { $0 }
        guard case .success(let url)? = outcome else {
            Self.end(pid: child, threads: [thread, relay], shared: shared)
            if case .failure(let error)? = outcome { throw error }
            throw WebServerError("--http: \(WebBridge.program) did not start listening within 60 s")
        }
        self.url = url
        self.pid = child
        self.thread = thread
        self.relay = relay
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
            switch socket.receive(waiting: -1) {
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
        // The socket is closed by `end`, after this thread: it may shut it down meanwhile.
    }

    /// Closes every page and ends the program. Safe to call more than once.
    package func stop() { Self.end(pid: pid, threads: [thread, relay], shared: shared) }

    private static func end(pid: pid_t, threads: [NamedThread], shared: Shared) {
        guard !shared.stopping.exchange(true, ordering: .relaxed) else { return }
        // Both threads wait without a timeout: each is woken.
        shared.socket.shutdown()
        shared.changes.interrupt()
        for thread in threads { thread.join() }
        shared.socket.close()
        guard !shared.reaped.load(ordering: .relaxed) else { return }
        Signals.send(Signals.terminate, to: pid)
        _ = Spawn.wait(pid)
    }
}
