import JackHost
import Parameters
import Platform
import Remote
import Synchronization

/// `detent live --osc PORT`: OSC requests become the typed commands' operations (stamped and
/// smoothed the same way), and every change by any source is sent to subscribers, each
/// parameter at most every 20 ms and always its latest value.
final class OSCBridge: Sendable {
    private let server: OSCServer
    private let shared = Shared()
    private let feedback: NamedThread?

    /// What the server's thread, the feedback thread and `stop` share.
    private final class Shared: Sendable {
        let subscribers = Mutex<Set<OSCPeer>>([])
        let running = Atomic(true)
        /// Signalled to stop the feedback thread at once rather than at its next poll.
        let wake = Semaphore(0)
    }

    /// How often the feedback thread compares the values with what it last sent.
    static let poll = Duration.milliseconds(10)

    init(port: Int, bind: String, host: any LiveControl, interpreter: CommandInterpreter,
         log: @escaping @Sendable (String) -> Void) throws {
        let table = host.table
        let shared = self.shared
        let server = try OSCServer(port: port, bind: bind, table: table, log: log) { request, peer, server in
            switch request {
            case .set(let index, let value):
                _ = interpreter.execute(.set(index, value))
            case .setPosition(let index, let position):
                let spec = table[index]
                _ = interpreter.execute(.set(index, spec.clamp(spec.taper.value(atNormalized: position, in: spec.range))))
            case .presetLoad(let name):
                if case .error(let message) = interpreter.execute(.presetLoad(name)) { log("OSC preset load '\(name)': \(message)") }
            case .reset:
                _ = interpreter.execute(.reset(nil))
            case .get(let index):
                server.send([(index, host.target(index))], to: peer)
            case .subscribe:
                shared.subscribers.withLock { _ = $0.insert(peer) }
                server.send(host.targets().sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, to: peer)
            case .unsubscribe:
                shared.subscribers.withLock { _ = $0.remove(peer) }
            }
        }
        self.server = server
        let sending = server
        feedback = try NamedThread(name: "osc-feedback") {
            var throttle = FeedbackThrottle()
            _ = throttle.due(host.targets(), now: .now)  // what subscribers get when they subscribe
            while shared.running.load(ordering: .relaxed) {
                let due = throttle.due(host.targets(), now: .now)
                if !due.isEmpty {
                    for peer in shared.subscribers.withLock({ Array($0) }) { sending.send(due, to: peer) }
                }
                _ = shared.wake.wait(timeout: Self.poll)
            }
        }
    }

    /// The UDP port the server listens on.
    var port: Int { server.port }

    func stop() {
        shared.running.store(false, ordering: .relaxed)
        shared.wake.signal()
        feedback?.join()
        server.stop()
    }
}
