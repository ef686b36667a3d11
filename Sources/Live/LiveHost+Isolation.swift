import Control
import AudioEngine
import JackHost
import Parameters

extension LiveHost {
    /// How many crashes within ``crashWindow`` leave a slot passing its input through until it
    /// is restarted by hand, instead of being restarted at once.
    static let crashLimit = 3
    static let crashWindow = Duration.seconds(60)

    /// The faulted slots by name (a processor on its own under its slot name).
    static func faults(of st: borrowing State) -> [String: String] {
        guard let reports = st.engine.kernelReports else { return [:] }
        let own = st.processor.chainParts.first?.name ?? ""
        return Dictionary(reports.faults.map { ($0.slot.isEmpty ? own : $0.slot, $0.reason) }, uniquingKeysWith: { a, _ in a })
    }

    /// Starts slot `name`'s process afresh (it crashed, hung, or is to be started again by
    /// hand): the running engine is succeeded by one that makes that slot's kernel again —
    /// with the slot's values, files and state — and keeps every other; the new slot fades in
    /// over the input it was passing through (10 ms). Clears the slot's count of crashes.
    ///
    /// The slots of its sandbox that are down (`--isolate=together`, groups) start again with
    /// it, in the same process.
    package func restartSlot(_ name: String) throws(ChainEditError) -> String {
        let slot = try slotName(name)
        let slots = state.withLock { st in [slot] + Self.sandboxMates(of: slot, st).filter { Self.faults(of: st)[$0] != nil } }
        try restart(slots)
        state.withLock { st in
            for slot in slots {
                st.slotFaults.crashes[slot] = nil
                st.slotFaults.held.remove(slot)
                st.slotFaults.events.append(.restarted(slot))
            }
        }
        changes.publish(.faults)
        return slot
    }

    /// The other slots that share slot `slot`'s sandbox, in chain order.
    static func sandboxMates(of slot: String, _ st: borrowing State) -> [String] {
        let sandboxes = Self.sandboxes(of: st)
        guard let sandbox = sandboxes[slot], st.processor.chainParts.count > 1 else { return [] }
        return st.processor.chainParts.map(\.name).filter { $0 != slot && sandboxes[$0] == sandbox }
    }

    /// Each slot's frames of absurd output passed through (its plug-in's samples were not
    /// finite, or beyond ±1e6), by slot name, since its engine was made.
    static func absurdOutput(of st: borrowing State) -> [String: Int64] {
        guard st.engine.channels > 0 else { return [:] }
        let names = st.processor.chainParts.map(\.name)
        let frames = st.engine.telemetry.absurdFrames()
        return Dictionary(zip(names, frames).map { ($0, $1) }, uniquingKeysWith: { a, _ in a })
    }

    /// Tells, once as it starts and once as it ends, a slot whose plug-in sends absurd output
    /// (stderr, and OSC subscribers as a fault): the slot passes its input through meanwhile,
    /// and the rest of the rig plays on.
    func tellAbsurdOutput() {
        let (started, ended) = state.withLock { st -> ([String], [String]) in
            let now = Self.absurdOutput(of: st)
            var started: [String] = [], ended: [String] = []
            for (slot, frames) in now.sorted(by: { $0.key < $1.key }) {
                let growing = frames > (st.slotFaults.absurdSeen[slot] ?? 0)
                if growing && !st.slotFaults.absurdTold.contains(slot) {
                    st.slotFaults.absurdTold.insert(slot)
                    st.slotFaults.events.append(.fault(slot, "sends absurd output (not finite, or beyond ±1e6)"))
                    started.append(slot)
                } else if !growing && st.slotFaults.absurdTold.contains(slot) {
                    st.slotFaults.absurdTold.remove(slot)
                    ended.append(slot)
                }
            }
            st.slotFaults.absurdSeen = now
            return (started, ended)
        }
        for slot in started { log("detent: \(slot) sends absurd output (not finite, or beyond ±1e6); it passes its input through while it does") }
        for slot in ended { log("detent: \(slot) plays again") }
        if !started.isEmpty || !ended.isEmpty { changes.publish(.faults) }
    }

    /// Each isolated slot's sandbox, by slot name.
    package var sandboxes: [String: String] { state.withLock { Self.sandboxes(of: $0) } }

    /// Each isolated slot's sandbox, by slot name (a processor on its own under its slot name).
    static func sandboxes(of st: borrowing State) -> [String: String] {
        let own = st.processor.chainParts.first?.name ?? ""
        return Dictionary(st.engine.sandboxes.map { ($0.key.isEmpty ? own : $0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    /// The isolated slots that crashed or hung and pass their input through, by name, with
    /// what happened.
    package var faults: [String: String] { state.withLock { Self.faults(of: $0) } }

    /// What happened to isolated slots after event `serial` (0: from the first kept), and the
    /// serial to ask after next.
    package func slotEvents(after serial: Int) -> (events: [SlotEvent], next: Int) {
        state.withLock { $0.slotFaults.events.after(serial) }
    }

    /// The slot `name` names (any case), when it runs a plug-in.
    private func slotName(_ name: String) throws(ChainEditError) -> String {
        try state.withLock { st throws(ChainEditError) -> String in
            let parts = st.processor.chainParts
            guard let s = parts.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) else {
                throw ChainEditError("no slot '\(name)' (slots: \(parts.map(\.name).joined(separator: ", ")))")
            }
            guard !parts[s].processor.isBuiltIn else {
                throw ChainEditError("'\(parts[s].name)' is Detent's own processor, run in its process: there is no plug-in to restart")
            }
            return parts[s].name
        }
    }

    /// Makes slots `names` (exact names) again, all in one successor engine: slots of one
    /// sandbox join one new process.
    private func restart(_ names: [String]) throws(ChainEditError) {
        try state.withLock { st throws(ChainEditError) in
            let parts = st.processor.chainParts
            let remade = Set(names.compactMap { name in parts.firstIndex { $0.name == name } })
            guard st.engine.sampleRate > 0, !remade.isEmpty else { return }  // not running: they start with the next engine
            let said = names.joined(separator: ", ")
            try Self.remake(remade, of: st.processor, &st, options, failing: "restart \(said)", unchanged: "'\(said)' is not restarted")
        }
    }

    /// After an isolated slot crashed or hung: restarted at once, unless it did so
    /// ``crashLimit`` times within ``crashWindow``; then it passes its input through until
    /// `restart SLOT`, which is said once.
    func restartFaultedSlots() {
        let now = ContinuousClock.now
        let due = state.withLock { st -> [(slot: String, restart: Bool)] in
            Self.faults(of: st).sorted { $0.key < $1.key }.compactMap { slot, reason in
                guard !st.slotFaults.held.contains(slot) else { return nil }
                st.slotFaults.events.append(.fault(slot, reason))
                var times = (st.slotFaults.crashes[slot] ?? []).filter { now - $0 < Self.crashWindow }
                times.append(now)
                st.slotFaults.crashes[slot] = times
                if times.count >= Self.crashLimit {
                    st.slotFaults.held.insert(slot)
                    return (slot, false)
                }
                return (slot, true)
            }
        }
        if !due.isEmpty { changes.publish(.faults) }
        for (slot, again) in due where !again {
            log("detent: \(slot) failed \(Self.crashLimit) times within a minute; it passes its input through until 'restart \(slot)'")
        }
        // All at once: the slots of a sandbox that went down together start again together.
        let again = due.filter(\.restart).map(\.slot)
        guard !again.isEmpty else { return }
        do {
            try restart(again)
            state.withLock { st in for slot in again { st.slotFaults.events.append(.restarted(slot)) } }
            for slot in again { log("detent: \(slot) restarted") }
        } catch {
            log("detent: \(error.description)")
        }
        changes.publish(.faults)
    }
}

/// Something that happened to an isolated slot, as surfaces tell it.
package enum SlotEvent: Sendable, Equatable {
    /// It crashed or hung (the reason), and passes its input through.
    case fault(String, String)
    /// It was started again.
    case restarted(String)
}

/// The last slot events, numbered from 1.
struct SlotEvents {
    static let kept = 64
    private(set) var events: [SlotEvent] = []
    /// The serial of the last event.
    private(set) var last = 0

    mutating func append(_ event: SlotEvent) {
        events.append(event)
        last += 1
        if events.count > Self.kept { events.removeFirst(events.count - Self.kept) }
    }

    /// The events after `serial` that are still kept, and the serial of the last one.
    func after(_ serial: Int) -> (events: [SlotEvent], next: Int) {
        let first = last - events.count
        return (Array(events.dropFirst(max(0, serial - first))), last)
    }
}
