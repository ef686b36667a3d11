import Control
import JackHost
import Parameters
import Platform
import OSC
import Synchronization
import TextFormats

/// `detent live --osc PORT`: OSC requests become the typed commands' operations (stamped and
/// smoothed the same way), and every change by any source is sent to subscribers, each
/// parameter at most every 20 ms and always its latest value. `/detent/status` answers what the
/// typed `status` does; `/detent/midi/learn ID` is the panel's MIDI learn (`m`): the feedback
/// thread maps the first controller heard after it to the parameter. The feedback thread
/// sleeps on the host's change feed: it wakes when something changed (or when a value it held
/// back for the 20 ms rate is due), never on a timer. Nothing here reaches the audio thread but
/// through the host's verbs.
package final class OSCBridge: Sendable {
    private let server: OSCServer
    private let shared = Shared()
    private let feedback: NamedThread?
    /// Chain edits, done in order off the server's thread.
    private let edits: SerialWorker
    /// The host's change feed, as the feedback thread hears it.
    private let changes: ChangeFeed<HostChanges>.Subscription

    /// What the server's thread, the feedback thread and `stop` share.
    private final class Shared: Sendable {
        let subscribers = Mutex<Set<OSCPeer>>([])
        let running = Atomic(true)
        /// The MIDI learn waiting for a controller, if any.
        let learning = Mutex<Learning?>(nil)
    }

    /// `/detent/midi/learn ID`: the learn (the one rule every surface follows), and who asked
    /// (told the controller once one is heard).
    struct Learning: Sendable {
        let learn: MIDILearn
        let peer: OSCPeer
    }

    package init(port: Int, bind: String, host: LiveHost, interpreter: CommandInterpreter,
                log: @escaping @Sendable (String) -> Void) throws {
        let (processor, generation, _) = host.chainSnapshot
        let shared = self.shared
        let edits = try SerialWorker(name: "osc-chain")
        self.edits = edits
        let routing = OSCServer.Routing(table: processor.table, generation: generation, files: processor.files.map(\.id))
        let requests = RequestHandler(host: host, interpreter: interpreter, edits: edits, shared: shared)
        let server = try OSCServer(port: port, bind: bind, unixSocket: true, routing: routing, log: log) { request, peer, server, routing in
            requests.handle(request, from: peer, server: server, routing: routing)
        }
        self.server = server
        // Subscribed before the baseline is read: nothing published after it is missed.
        let changes = host.changes.subscribe()
        self.changes = changes
        feedback = try Self.startFeedback(host: host, server: server, shared: shared, changes: changes)
    }

    /// What the server's thread does with each request: the typed commands' operations,
    /// answers to the peer that asked, and a refusal logged in one line.
    private struct RequestHandler: Sendable {
        let host: LiveHost
        let interpreter: CommandInterpreter
        let edits: SerialWorker
        let shared: Shared

        /// Does what `request` from `peer` asks; `routing` is what it was read with.
        func handle(_ request: OSCRequest, from peer: OSCPeer, server: OSCServer, routing: OSCServer.Routing) {
            switch request {
            case .set(let index, let value):
                set(index, value, from: peer, server: server, routing: routing)
            case .setPosition(let index, let position):
                let spec = routing.table[index]
                set(index, spec.clamp(spec.taper.value(atNormalized: position, in: spec.range)), from: peer, server: server,
                    routing: routing)
            case .presetLoad(let name):
                loadPreset(name, from: peer, server: server)
            case .setFile(let id, let file):
                setFile(id, file, from: peer, server: server)
            case .reset:
                _ = interpreter.execute(.reset(nil))
            case .restartSlot(let slot):
                restart(slot, from: peer, server: server)
            case .chain(let edit):
                editChain(edit, from: peer, server: server)
            case .get(let index):
                let now = host.chainSnapshot
                guard now.generation == routing.generation, let value = now.targets[index] else { return }
                server.send([(index, value)], in: now.processor.table, to: peer)
            case .subscribe:
                shared.subscribers.withLock { _ = $0.insert(peer) }
                let now = host.chainSnapshot
                server.send(now.targets.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, in: now.processor.table, to: peer)
            case .unsubscribe:
                shared.subscribers.withLock { _ = $0.remove(peer) }
            case .status(let json):
                let answer = interpreter.execute(.status)
                let now = host.table
                server.send(OSCMessage(OSCRouter.prefix + "status", [.string(json ? answer.json(now) : answer.text(now))]), to: peer)
            case .midiLearn(let index?):
                startLearn(index, from: peer, server: server, routing: routing)
            case .midiLearn(nil):
                shared.learning.withLock { $0 = nil }
            }
        }

        /// Sets a parameter. An index is a row of the table the request was read with: if the
        /// chain has been edited since, the host drops it rather than turn the row that now
        /// means another parameter (the next request is read with the new table).
        private func set(_ index: ParameterIndex, _ value: Double, from peer: OSCPeer, server: OSCServer,
                         routing: OSCServer.Routing) {
            if !host.set([index: value], ifGeneration: routing.generation) {
                server.refuse("OSC from \(peer.name): \(OSCRouter.address(of: index, in: routing.table)): the chain changed as it came; ignored")
            }
        }

        /// `/detent/preset/load`: loads the preset as typed; a refusal is rate-limited, and the
        /// name shortened, so that a peer cannot flood standard error.
        private func loadPreset(_ name: String, from peer: OSCPeer, server: OSCServer) {
            if case .error(let message) = interpreter.execute(.presetLoad(name)) {
                let shown = TerminalText.printable(name, limit: 60)
                server.refuse("OSC from \(peer.name): /detent/preset/load '\(shown)': "
                              + TerminalText.printable(message.replacing(name, with: shown), limit: 200))
            }
        }

        /// `/detent/param/<id> s PATH`: as typed, a readable regular file within the size limits,
        /// loaded off the audio thread; a refusal is logged in one line. Queued on the edits'
        /// thread: reading a file, remaking a plug-in, may take a while.
        private func setFile(_ id: String, _ file: String, from peer: OSCPeer, server: OSCServer) {
            let queued = edits.offer {
                if case .error(let message) = interpreter.execute(.setFile(id, file)) {
                    server.refuse("OSC from \(peer.name): /detent/param/\(id): " + TerminalText.printable(message, limit: 200))
                }
            }
            if !queued { server.refuse("OSC from \(peer.name): /detent/param/\(id): \(edits.limit) edits wait already; ignored") }
        }

        /// `/detent/slot/restart`: answered either way, as the typed command is — the slot
        /// restarted, or why not.
        private func restart(_ slot: String, from peer: OSCPeer, server: OSCServer) {
            let answer = interpreter.execute(.restart(slot))
            if case .error(let message) = answer {
                server.refuse("OSC from \(peer.name): /detent/slot/restart: " + TerminalText.printable(message, limit: 200))
            }
            server.send(OSCMessage(OSCRouter.prefix + "slot/restart", [.string(answer.text(host.table))]), to: peer)
        }

        /// `/detent/chain`: looking plug-ins up and loading them may take a while, so the edit
        /// is done on a thread of its own and OSC's reader keeps answering (status, knobs)
        /// meanwhile; the typed command's answer goes back to the peer.
        private func editChain(_ edit: String, from peer: OSCPeer, server: OSCServer) {
            let queued = edits.offer {
                let answer = interpreter.respond(to: "chain " + edit) ?? .error("no answer")
                if case .error(let message) = answer {
                    server.refuse("OSC from \(peer.name): /detent/chain: " + TerminalText.printable(message, limit: 200))
                }
                server.send(OSCMessage(OSCRouter.prefix + "chain", [.string(answer.text(host.table))]), to: peer)
            }
            if !queued { server.refuse("OSC from \(peer.name): /detent/chain: \(edits.limit) edits wait already; ignored") }
        }

        /// `/detent/midi/learn ID`: the learn waits for a controller (the feedback thread
        /// maps it), replacing any other; a refusal is logged in one line.
        private func startLearn(_ index: ParameterIndex, from peer: OSCPeer, server: OSCServer, routing: OSCServer.Routing) {
            do throws(MIDIControlError) {
                let learn = try MIDILearn(index, heard: host.lastMIDIControl(), generation: routing.generation,
                                          current: host.chainGeneration)
                shared.learning.withLock { $0 = Learning(learn: learn, peer: peer) }
            } catch {
                server.refuse("OSC from \(peer.name): /detent/midi/learn: \(error.description); ignored")
            }
        }
    }

    /// Starts the feedback thread, which sends subscribers every change and every slot event,
    /// and completes MIDI learns, sleeping on the host's change feed in between.
    ///
    /// The baseline is taken here, before the thread exists: a chain edit made before the
    /// thread first ran must still be seen as an edit, and its values sent again.
    private static func startFeedback(host: LiveHost, server: OSCServer, shared: Shared,
                                      changes: ChangeFeed<HostChanges>.Subscription) throws -> NamedThread {
        var baseline = FeedbackThrottle()
        let initial = host.chainSnapshot
        _ = baseline.due(initial.targets, now: .now)  // what subscribers get when they subscribe
        let sentAtStart = baseline
        let eventsAtStart = host.slotEvents(after: .max).next
        return try NamedThread(name: "osc-feedback") {
            var throttle = sentAtStart
            var seen = initial
            var slotEventsSeen = eventsAtStart
            while shared.running.load(ordering: .relaxed) {
                let now = host.chainSnapshot
                if now.generation != seen.generation {
                    // A chain edit: addresses are the new table's from now on; subscribers get
                    // every value again, under its new address.
                    server.retable(now.processor.table, generation: now.generation, files: now.processor.files.map(\.id))
                    throttle = FeedbackThrottle()
                }
                seen = now
                let due = throttle.due(now.targets, now: .now)
                if !due.isEmpty {
                    for peer in shared.subscribers.withLock({ Array($0) }) { server.send(due, in: now.processor.table, to: peer) }
                }
                Self.learnIfHeard(shared: shared, host: host, server: server)
                slotEventsSeen = Self.sendSlotEvents(after: slotEventsSeen, shared: shared, host: host, server: server)
                // Until something changes, or a value held back for the rate is due.
                let held = throttle.nextDue(now.targets, now: .now)
                _ = changes.next(timeout: held.map { max($0 - .now, .milliseconds(1)) })
            }
        }
    }

    /// Tells every subscriber each slot's fault and restart since `seen`, as they come.
    ///
    /// - Returns: where the next call takes up.
    private static func sendSlotEvents(after seen: Int, shared: Shared, host: LiveHost, server: OSCServer) -> Int {
        let (events, next) = host.slotEvents(after: seen)
        if !events.isEmpty {
            let peers = shared.subscribers.withLock { Array($0) }
            for event in events {
                let message = switch event {
                case .fault(let slot, let reason): OSCMessage(OSCRouter.prefix + "slot/fault", [.string(slot), .string(reason)])
                case .restarted(let slot): OSCMessage(OSCRouter.prefix + "slot/restarted", [.string(slot)])
                }
                for peer in peers { server.send(message, to: peer) }
            }
        }
        return next
    }

    /// Maps the controller heard since a MIDI learn began, if one has been, and tells the peer
    /// that asked: `/detent/midi/learn s ID i CC`. A chain edit meanwhile drops the learn.
    private static func learnIfHeard(shared: Shared, host: LiveHost, server: OSCServer) {
        let learnt = shared.learning.withLock { current in
            MIDILearn.finish(&current, learn: \.learn, last: host.lastMIDIControl(), current: host.chainGeneration)
        }
        guard let (learning, controller) = learnt else { return }
        let table = host.chainSnapshot.processor.table
        host.updateMIDIControls { $0.assign(learning.learn.parameter, to: controller) }
        server.send(OSCMessage(OSCRouter.prefix + "midi/learn", [.string(table[learning.learn.parameter].id), .int32(Int32(controller))]),
                    to: learning.peer)
    }

    /// The UDP port the server listens on.
    package var port: Int { server.port }

    /// The Unix socket beside the port (`osc.unix://PATH`), for a client that sends and exits.
    package var unixPath: String? { server.unixPath }

    /// What Detent says at start of its OSC: the UDP port, and the Unix socket beside it.
    package func announcement(bind: String) -> [String] {
        ["detent: OSC on UDP \(bind):\(port)"]
            + (unixPath.map { ["detent: OSC from this user alone (chain edits, preset files) also at osc.unix://\($0)"] } ?? [])
    }

    package func stop() {
        shared.running.store(false, ordering: .relaxed)
        changes.interrupt()
        feedback?.join()
        server.stop()
        edits.stop()
    }
}
