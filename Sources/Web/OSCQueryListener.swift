import TextFormats
import Parameters
import Synchronization
import WebBridge

/// One OSCQuery client's WebSocket (the proposal's `LISTEN` extension): the parameters it
/// listens to, and what is waiting to be sent to it. It sends `{"COMMAND":"LISTEN","DATA":PATH}`
/// (and `IGNORE`); every change of a listened parameter, from any source, goes to it as a
/// binary frame holding the OSC message an OSC client would have sent (`PATH ,f VALUE`), and a
/// chain edit as `{"COMMAND":"PATH_CHANGED","DATA":"/detent/param"}`. As with a page, the
/// feedback thread marks what changed and the one writer sends the values current then.
final class OSCQueryListener: Sendable {
    /// What the client asked.
    enum Command: Equatable {
        case listen(String)
        case ignore(String)
    }

    /// A frame to send.
    enum Frame: Equatable {
        case text(String)
        case binary([UInt8])
    }

    private struct State {
        /// Listened parameters, by id (a chain edit may take one away and bring it back).
        var listened: Set<String> = []
        var changed: Set<String> = []
        var pathsChanged = false
    }

    private let state = Mutex(State())
    private let wakeStream: AsyncStream<Void>
    private let wakeContinuation: AsyncStream<Void>.Continuation

    init() {
        (wakeStream, wakeContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    var wakes: AsyncStream<Void> { wakeStream }

    /// Reads one message of the client's; nil when it is no OSCQuery command.
    static func read(_ text: String) -> Command? {
        guard let json = try? JSONParser.parse(Array(text.utf8)), case .string(let command)? = json.member("COMMAND"),
              case .string(let path)? = json.member("DATA") else { return nil }
        switch command {
        case "LISTEN": return .listen(path)
        case "IGNORE": return .ignore(path)
        default: return nil
        }
    }

    /// Starts or stops listening to `path`; false when it names no parameter of `table`
    /// (nothing there to listen to).
    func apply(_ command: Command, table: ParameterTable) -> Bool {
        let path: String
        switch command {
        case .listen(let p), .ignore(let p): path = p
        }
        let prefix = OSCQueryNamespace.parameterPath + "/"
        guard path.hasPrefix(prefix), let index = table.find(String(path.dropFirst(prefix.count))) else { return false }
        let id = table[index].id
        state.withLock { state in
            if case .listen = command { state.listened.insert(id) } else { state.listened.remove(id) }
        }
        return true
    }

    func markChanged(_ ids: some Sequence<String>) {
        let any = state.withLock { state -> Bool in
            let wanted = ids.filter(state.listened.contains)
            state.changed.formUnion(wanted)
            return !wanted.isEmpty
        }
        if any { wakeContinuation.yield() }
    }

    func markPathsChanged() {
        state.withLock { $0.pathsChanged = true }
        wakeContinuation.yield()
    }

    func finish() { wakeContinuation.finish() }

    /// The frames to send now, with the values of `now`.
    func take(_ now: WebSnapshot) -> [Frame] {
        state.withLock { state in
            var out: [Frame] = []
            if state.pathsChanged {
                out.append(.text(#"{"COMMAND":"PATH_CHANGED","DATA":"\#(OSCQueryNamespace.parameterPath)"}"#))
                state.pathsChanged = false
            }
            let table = now.layout.table
            for id in state.changed.sorted() {
                guard let index = table.find(id) else { continue }
                let value = now.targets[index] ?? table[index].defaultValue
                out.append(.binary(OSCQueryNamespace.message(OSCQueryNamespace.parameterPath + "/" + table[index].id, Float(value))))
            }
            state.changed = []
            return out
        }
    }
}
