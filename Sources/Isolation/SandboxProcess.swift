import CSlot
import Glibc
import Platform
import Synchronization

/// A sandbox's process as the host sees it: the process serving one isolated slot or several
/// (``SlotServer``), the sandbox's shared words (its bell), the control socket slots are added
/// and dropped on, and three threads: one hears what the process says, one reads what its
/// plug-ins print, one reaps it the moment it ends and tells each of its slots why.
///
/// A fault in one slot of a sandbox takes every slot of it down: each passes its input
/// through, the one at fault told as such, the others as having gone down with it.
final class SandboxProcess: @unchecked Sendable {
    private let core: SandboxCore
    private let groupMemory: Int32
    private var threads: [NamedThread] = []

    var name: String { core.name }
    var pid: pid_t { core.pid }
    /// The sandbox's words, mapped here: every slot's proxy rings its bell.
    var group: UnsafeMutablePointer<DetentSlotGroup> { core.group }

    /// A slot served by the process, as its threads reach it.
    struct Link: @unchecked Sendable {
        /// The slot's name in its rig, naming the culprit to the others of its sandbox.
        let slotName: String
        /// Its plug-in's name, which starts what is said of it.
        let label: String
        let news: SlotNews
        let shared: SharedBlock
        let deadline: (floor: Int64, perFrame: Int64)
        let startDeadline: Duration
    }

    /// Starts a process for sandbox `name` with `launcher`, serving at `priority`.
    static func start(name: String, launcher: SlotLauncher, priority: Int?) throws(SlotError) -> SandboxProcess {
        let groupSize = MemoryLayout<DetentSlotGroup>.size
        let memory = detent_slot_memory(groupSize)
        guard memory >= 0 else { throw SlotError("cannot make shared memory for an isolated slot (\(Errno.last))") }
        guard let raw = detent_slot_map(memory, groupSize) else {
            close(memory)
            throw SlotError("cannot map an isolated slot's shared memory (\(Errno.last))")
        }
        let group = UnsafeMutableRawPointer(raw).assumingMemoryBound(to: DetentSlotGroup.self)
        group.pointee = DetentSlotGroup()
        let ends: (Int32, Int32), output: (read: Int32, write: Int32)
        do {
            ends = try PacketChannel.pair()
            do { output = try Pipe.make() } catch { close(ends.0); close(ends.1); throw error }
        } catch {
            detent_slot_unmap(raw, groupSize)
            close(memory)
            throw SlotError("cannot make a socket for an isolated slot (\(error))")
        }
        let null = (try? DescriptorIO.open("/dev/null", .readWrite)) ?? -1
        let pid: pid_t
        do {
            // Swift's crash backtracer off: a plug-in's crash is told in one line, not a report.
            pid = try Spawn.start(launcher.program, launcher.arguments + ["slot", SandboxRequest(name: name, priority: priority).json],
                                  environment: ["SWIFT_BACKTRACE": "enable=no"],
                                  descriptors: [null, output.write, output.write, memory, ends.1])
        } catch {
            for fd in [null, output.read, output.write, ends.0, ends.1, memory] where fd >= 0 { close(fd) }
            detent_slot_unmap(raw, groupSize)
            throw SlotError("cannot start \(launcher.program) for an isolated slot (\(error))")
        }
        for fd in [null, output.write, ends.1] where fd >= 0 { close(fd) }
        return SandboxProcess(name: name, pid: pid, group: group, control: ends.0, groupMemory: memory, output: output.read)
    }

    private init(name: String, pid: pid_t, group: UnsafeMutablePointer<DetentSlotGroup>, control: Int32, groupMemory: Int32,
                 output: Int32) {
        let core = SandboxCore(name: name, pid: pid, group: group, control: control)
        self.core = core
        self.groupMemory = groupMemory
        let listen = try? NamedThread(name: "slot-listen") { core.listen() }
        let print = try? NamedThread(name: "slot-read") {
            let reader = LineReader(fileDescriptor: output)
            while let line = reader.readLine() {
                guard case .text(let text) = line, !text.isEmpty else { continue }
                core.speaker?.news.said.withLock { $0.messages.append(text) }
            }
            close(output)
        }
        let reap = try? NamedThread(name: "slot-reap") { core.reap() }
        threads = [listen, print, reap].compactMap { $0 }
    }

    var usable: Bool { core.usable }

    func add(_ request: SlotRequest, memory: Int32, link: Link) throws(SlotError) -> Int { try core.add(request, memory: memory, link: link) }

    func drop(_ id: Int) { core.drop(id) }

    func renew(_ id: Int, _ request: SlotRequest) throws(SlotError) { try core.renew(id, request) }

    func kill(for id: Int, starting: Bool) { core.kill(for: id, starting: starting) }

    /// Kills the process, its slots no one's fault: their call was interrupted.
    func interrupt() {
        core.interrupted.store(true, ordering: .releasing)
        Signals.send(Signals.kill, to: core.pid)
    }

    /// The process is let go once no slot needs it: the socket closes (it ends by itself), and
    /// whatever waiting that takes — a second, then a kill, then its threads — is done on a
    /// thread of its own.
    deinit {
        core.closeControl()
        let leftovers = Leftovers(core: core, threads: threads, memory: groupMemory)
        do { try NamedThread.detach(name: "slot-close") { leftovers.release() } } catch { leftovers.release() }
    }

    /// What a sandbox leaves to be let go once its process has ended.
    private struct Leftovers: @unchecked Sendable {
        let core: SandboxCore
        let threads: [NamedThread]
        let memory: Int32

        func release() {
            if !core.reaped.wait(timeout: .seconds(1)) { Signals.send(Signals.kill, to: core.pid) }
            for thread in threads { thread.join() }
            detent_slot_unmap(UnsafeMutableRawPointer(core.group).assumingMemoryBound(to: DetentSlotShared.self),
                              MemoryLayout<DetentSlotGroup>.size)
            close(memory)
        }
    }
}

/// What a sandbox's threads share with its owner, and outlive it with: its slots, and how its
/// process ended.
final class SandboxCore: @unchecked Sendable {
    typealias Link = SandboxProcess.Link
    let name: String
    let pid: pid_t
    let group: UnsafeMutablePointer<DetentSlotGroup>
    private let control: Int32
    private let links = Mutex<[Int: Link]>([:])
    /// Numbers of slots let go that the process has not yet said it freed: not given again
    /// until it has.
    private let retiring = Mutex<Set<Int>>([])
    /// The process has ended and been reaped.
    let ended = Atomic<Bool>(false)
    /// Signalled once it has.
    let reaped = Semaphore()
    /// Killed because the call using it was interrupted.
    let interrupted = Atomic<Bool>(false)
    /// The slot the process was killed for (it hung starting or running), or -1.
    private let killedFor = Atomic<Int>(-1)
    private let killedStarting = Atomic<Bool>(false)


    init(name: String, pid: pid_t, group: UnsafeMutablePointer<DetentSlotGroup>, control: Int32) {
        self.name = name
        self.pid = pid
        self.group = group
        self.control = control
    }

    /// The socket closes: the process ends by itself, and the listening thread with it.
    func closeControl() { shutdown(control, Int32(SHUT_RDWR)) }

    /// The slot that tells what concerns the whole sandbox: the first.
    var speaker: Link? { links.withLock { $0.min { $0.key < $1.key }?.value } }

    /// True while the process can take another slot: it runs, and is not being killed.
    var usable: Bool {
        !ended.load(ordering: .acquiring) && killedFor.load(ordering: .acquiring) < 0 && !interrupted.load(ordering: .acquiring)
    }

    /// Adds a slot: `link` is known from now on (what the process says of it reaches it), and
    /// the process is asked to serve `request` on the block in `memory` (closed here).
    /// Returns the slot's number in the sandbox.
    func add(_ request: SlotRequest, memory: Int32, link: Link) throws(SlotError) -> Int {
        let taken = retiring.withLock { $0 }
        let id = links.withLock { links -> Int? in
            guard let free = (0..<SlotServer.capacity).first(where: { links[$0] == nil && !taken.contains($0) }) else { return nil }
            links[free] = link
            return free
        }
        defer { close(memory) }
        guard let id else { throw SlotError("sandbox '\(name)' serves \(SlotServer.capacity) slots already") }
        do {
            try PacketChannel.send("add \(id) \(request.json)", on: control, passing: memory)
        } catch {
            links.withLock { _ = $0.removeValue(forKey: id) }
            throw SlotError("cannot hand \(link.label) to its isolated process (\(error))")
        }
        return id
    }

    /// Asks the process to make slot `id`'s plug-in anew for `request`, on the block it has.
    func renew(_ id: Int, _ request: SlotRequest) throws(SlotError) {
        do {
            try PacketChannel.send("renew \(id) \(request.json)", on: control)
        } catch {
            throw SlotError("cannot ask an isolated process to make its plug-in anew (\(error))")
        }
    }

    /// Lets slot `id` go: the process frees its plug-in.
    func drop(_ id: Int) {
        guard links.withLock({ $0.removeValue(forKey: id) }) != nil else { return }
        retiring.withLock { _ = $0.insert(id) }
        try? PacketChannel.send("drop \(id)", on: control)
    }

    /// Kills the process for slot `id`, which hung starting (`starting`) or running: the
    /// first such slot is named as the culprit.
    func kill(for id: Int, starting: Bool) {
        if killedFor.compareExchange(expected: -1, desired: id, ordering: .acquiringAndReleasing).exchanged {
            killedStarting.store(starting, ordering: .releasing)
        }
        Signals.send(Signals.kill, to: pid)
    }

    /// What the process says: `ready ID …`, `error ID REASON` (its plug-in could not be made:
    /// that slot is down, the others play on), `message ID TEXT` (`*`: the sandbox's own).
    func listen() {
        while let (text, descriptor) = try? PacketChannel.receive(on: control) {
            if descriptor >= 0 { close(descriptor) }
            let words = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard words.count >= 2 else { continue }
            let said = words.count == 3 ? String(words[2]) : ""
            if words[0] == "dropped", let id = Int(words[1]) {
                retiring.withLock { _ = $0.remove(id) }
                continue
            }
            let link = Int(words[1]).flatMap { id in links.withLock { $0[id] } } ?? (words[1] == "*" ? speaker : nil)
            guard let link else { continue }
            switch words[0] {
            case "error":
                link.news.said.withLock {
                    $0.fault = said
                    $0.messages.append((said.hasPrefix(link.label) ? said : "\(link.label): \(said)") + "; it passes its input through until restarted")
                }
                detent_slot_set_state(link.shared.pointer, UInt32(DETENT_SLOT_DEAD))
            case "message":
                link.news.said.withLock { $0.messages.append(words[1] == "*" ? "\(name): \(said)" : said) }
            default:
                break
            }
        }
    }

    /// Its end: reaped the moment it comes (a crash is known at once, and the audio thread,
    /// woken, stops waiting for it), and told to every slot it served: the fault is recorded
    /// before the state says DEAD, so that whoever sees DEAD also sees why.
    func reap() {
        let status = Spawn.wait(pid)
        let now = links.withLock { $0 }
        let culprit: Int? = {
            let killed = killedFor.load(ordering: .acquiring)
            if killed >= 0 { return killed }
            let current = Int(detent_slot_load(&group.pointee.current)), making = Int(detent_slot_load(&group.pointee.making))
            return current > 0 ? current - 1 : making > 0 ? making - 1 : nil
        }()
        for (id, link) in now.sorted(by: { $0.key < $1.key }) where !link.news.closing.load(ordering: .acquiring) {
            // One whose plug-in could not be made has said why already.
            guard link.news.said.withLock({ $0.fault == nil }) else { continue }
            let reason = if let culprit, culprit != id, let guilty = now[culprit] {
                "went down with \(guilty.slotName), which \(self.reason(status, culprit: true, link: guilty)), in sandbox \(name)"
            } else {
                self.reason(status, culprit: id == culprit, link: link)
            }
            link.news.said.withLock {
                $0.fault = reason
                $0.messages.append((reason.hasPrefix(link.label) ? reason : "\(link.label) \(reason)") + "; it passes its input through until restarted")
            }
        }
        ended.store(true, ordering: .releasing)
        for link in now.values {
            detent_slot_set_state(link.shared.pointer, UInt32(DETENT_SLOT_DEAD))
        }
        reaped.signal()
    }

    /// Why the process ended, for the slot at fault: killed as hung (starting, or in a run),
    /// or how it ended.
    private func reason(_ status: ChildProgram.Status, culprit: Bool, link: Link) -> String {
        let killed = status == .signaled(Signals.kill)
        if killed && interrupted.load(ordering: .acquiring) { return "was stopped: the call was interrupted" }
        if culprit && killed && killedFor.load(ordering: .acquiring) >= 0 {
            if killedStarting.load(ordering: .acquiring) {
                return "did not start within \(link.startDeadline.spoken) (its plug-in hung while starting) and was killed"
            }
            return "stopped answering (a run took over \(Duration.nanoseconds(link.deadline.floor).spoken)) and was killed"
        }
        return IsolatedSlot.describe(status)
    }

    deinit { close(control) }
}

/// The sandboxes a launcher's slots run in, by name: a slot of a named sandbox joins its
/// running process, or starts it.
package final class SandboxRegistry: Sendable {
    private let running = Mutex<[String: Weak]>([:])
    /// The slots a whole signal's last engine offers the next one (``offer(_:)``).
    let offered = Mutex<RenewalOffers>(RenewalOffers())

    private struct Weak: @unchecked Sendable {
        weak var process: SandboxProcess?
    }

    package init() {}

    /// Kills every running sandbox's process (a call interrupted): its slots go down at once,
    /// and their next start makes new processes.
    package func interrupt() {
        for process in running.withLock({ $0.values.compactMap(\.process) }) { process.interrupt() }
    }

    /// The process of sandbox `key` (started when none runs, or it is ending), or a new one of
    /// its own for a slot alone (`key` nil), named `name`.
    func process(for key: String?, name: String, launcher: SlotLauncher, priority: Int?) throws(SlotError) -> SandboxProcess {
        guard let key else { return try SandboxProcess.start(name: name, launcher: launcher, priority: priority) }
        return try running.withLock { running throws(SlotError) -> SandboxProcess in
            if let process = running[key]?.process, process.usable { return process }
            let process = try SandboxProcess.start(name: key, launcher: launcher, priority: priority)
            running[key] = Weak(process: process)
            return process
        }
    }
}
