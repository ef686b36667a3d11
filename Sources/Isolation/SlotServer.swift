import AudioEngine
import CPlatform
import CRealtime
import CSlot
import Glibc
import Parameters
import Platform
import Synchronization

/// A sandbox's side of isolated slots (`detent slot SANDBOX`, started by ``SandboxProcess``):
/// one process serving one slot (`--isolate`) or several (`--isolate=together`, named groups).
///
/// The host adds a slot by a message on the control socket (descriptor 4) that carries the
/// slot's request and its shared block; the main thread makes the plug-in, runs it once,
/// opens the block and answers `ready ID …` (or `error ID …`, the plug-in's own reason).
/// One serving thread runs every slot's kernel as the host asks, woken by the sandbox's bell
/// (descriptor 3). Every 20 ms while the host reads output values (every 100 ms otherwise) the
/// main thread copies each slot's output values and latency into its block and its messages
/// to the host. The host has a slot's plug-in made anew on the
/// same block with `renew ID REQUEST` (answered as an add is), lets a slot go with `drop ID`,
/// and the whole process by closing the socket.
package enum SlotServer {
    /// The descriptor of the sandbox's own words (``DetentSlotGroup``).
    package static let groupDescriptor: Int32 = 3
    /// The descriptor of the control socket.
    package static let controlDescriptor: Int32 = 4
    /// The most slots one sandbox serves at once.
    package static let capacity = 64
    /// How often the main thread reports output values, latency and messages, in
    /// milliseconds: while the host has read output values within ``reportWatchedFor``, and
    /// otherwise (latency and messages then reach the host within a tenth of a second).
    static let reportWatched: Int32 = 20, reportIdle: Int32 = 100
    static let reportWatchedFor = Duration.seconds(1)

    /// Serves slots until the host lets the process go; `make` finds a request's processor
    /// (files and state set). Returns the exit status: 0 once let go, 1 when the sandbox's
    /// memory cannot be used.
    package static func serve(priority: Int?, make: @escaping (SlotRequest) throws -> Processor) -> Int32 {
        _ = detent_die_with_parent(SIGKILL, getppid())
        let groupSize = MemoryLayout<DetentSlotGroup>.size
        guard let raw = detent_slot_map(groupDescriptor, groupSize) else { return 1 }
        let group = UnsafeMutableRawPointer(raw).assumingMemoryBound(to: DetentSlotGroup.self)
        let members = UnsafeMutablePointer<DetentSlotMember>.allocate(capacity: capacity)
        UnsafeMutableRawPointer(members).initializeMemory(as: UInt8.self, repeating: 0, count: capacity * MemoryLayout<DetentSlotMember>.stride)
        let sandbox = Sandbox(group: group, members: members)
        nonisolated(unsafe) let served = (group: group, members: members)
        let serving = try? NamedThread(name: "slot-serve") {
            // The host's audio thread waits for this one each period: it runs at that thread's
            // real-time priority, when there is one and the system allows it.
            if let priority, let problem = AudioThreadPriority.adopt(priority) {
                try? PacketChannel.send("message * cannot run at real-time priority \(priority) (\(problem)); its slots may miss their deadline when the machine is busy", on: controlDescriptor)
            }
            detent_slot_group_serve(served.group, served.members, UInt32(capacity))
        }
        var open = true
        var watched = detent_slot_load(&group.pointee.watched)
        var lastWatched = ContinuousClock.now - reportWatchedFor
        while open {
            // Reported often while the host reads the slots' output values (a panel, OSC, the
            // browser), seldom while it does not: a wake-up costs a sandbox that plays
            // nothing but its plug-ins more than the report itself.
            let now = detent_slot_load(&group.pointee.watched)
            if now != watched { (watched, lastWatched) = (now, .now) }
            let pace = ContinuousClock.now - lastWatched < reportWatchedFor ? reportWatched : reportIdle
            // A closed or broken socket reads as ready, and its read ends the loop.
            if DescriptorIO.waitReadable([controlDescriptor], milliseconds: pace)[0] {
                do {
                    if let (text, descriptor) = try PacketChannel.receive(on: controlDescriptor) {
                        sandbox.handle(text, descriptor: descriptor, make: make)
                    } else {
                        open = false
                    }
                } catch {
                    open = false
                }
            }
            sandbox.reportAll()
        }
        detent_slot_group_quit(group)
        serving?.join()
        sandbox.closeAll()
        return 0
    }

    /// The sandbox's slots, as its main thread keeps them.
    private final class Sandbox {
        let group: UnsafeMutablePointer<DetentSlotGroup>
        let members: UnsafeMutablePointer<DetentSlotMember>
        var slots: [Int: Served] = [:]

        /// One slot served: what it runs and the block it runs on.
        final class Served {
            let processor: Processor
            let prepared: PreparedKernel
            let shared: UnsafeMutablePointer<DetentSlotShared>
            let size: Int
            let memory: Int32
            /// What its kernel's owner reports (nil: nothing), and the ids of the output values
            /// the block holds, in its order.
            let reports: (any KernelReports)?
            let outputIDs: [String]

            init(processor: Processor, prepared: PreparedKernel, shared: UnsafeMutablePointer<DetentSlotShared>, size: Int,
                 memory: Int32) {
                self.processor = processor
                self.prepared = prepared
                self.shared = shared
                self.size = size
                self.memory = memory
                reports = prepared.owner as? any KernelReports
                outputIDs = processor.outputs.map(\.id)
            }
        }

        init(group: UnsafeMutablePointer<DetentSlotGroup>, members: UnsafeMutablePointer<DetentSlotMember>) {
            self.group = group
            self.members = members
        }

        /// One message to the host; lost when the host has gone (the process ends then).
        func say(_ line: String) {
            try? PacketChannel.send(line.split(whereSeparator: \.isNewline).joined(separator: " "), on: controlDescriptor)
        }

        func handle(_ text: String, descriptor: Int32, make: (SlotRequest) throws -> Processor) {
            let words = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard words.count >= 2, let id = Int(words[1]), (0..<capacity).contains(id) else {
                if descriptor >= 0 { close(descriptor) }
                return
            }
            switch words[0] {
            case "add" where descriptor >= 0 && words.count == 3:
                add(id, request: String(words[2]), memory: descriptor, make: make)
            case "renew" where words.count == 3:
                if descriptor >= 0 { close(descriptor) }
                renew(id, request: String(words[2]), make: make)
            case "drop":
                if descriptor >= 0 { close(descriptor) }
                drop(id)
            default:
                if descriptor >= 0 { close(descriptor) }
            }
        }

        /// Makes slot `id`'s plug-in from `json` on the block in `memory`, runs it once for no
        /// frames (its latency, there before the host asks), and serves it.
        private func add(_ id: Int, request json: String, memory: Int32, make: (SlotRequest) throws -> Processor) {
            guard slots[id] == nil, let request = SlotRequest(json: json) else {
                close(memory)
                say("error \(id) detent slot: the request is not one this detent reads")
                return
            }
            group.pointee.making = UInt32(id + 1)
            defer { group.pointee.making = 0 }
            guard let (processor, prepared) = made(id, request, make: make) else {
                close(memory)
                return
            }
            let size = Self.blockSize(processor, format: request.format)
            guard let shared = detent_slot_map(memory, size), shared.pointee.size == UInt64(size) else {
                close(memory)
                say("error \(id) \(processor.name): the isolated slot's shared memory is not laid out for this processor")
                return
            }
            serve(Served(processor: processor, prepared: prepared, shared: shared, size: size, memory: memory), id: id,
                  format: request.format)
        }

        /// Makes slot `id`'s plug-in anew from `json` on the block it has (a whole signal's
        /// fresh start, offline): the serving thread lets the old one go, it is freed, and the
        /// new one is made, run once and served as ``add`` serves one — no new block, no new
        /// process. A plug-in that cannot be made leaves the slot down (its block let go here).
        private func renew(_ id: Int, request json: String, make: (SlotRequest) throws -> Processor) {
            guard let old = slots[id], let request = SlotRequest(json: json) else {
                say("error \(id) detent slot: no slot \(id) to make anew, or a request this detent does not read")
                return
            }
            // A serving thread that does not let go is stuck in another slot's plug-in: the
            // host, waiting for this one, kills the process for it.
            guard detent_slot_member_retire(group, members + id, 1_000_000_000) else { return }
            members[id] = DetentSlotMember()
            slots[id] = nil
            group.pointee.making = UInt32(id + 1)
            defer { group.pointee.making = 0 }
            // The old plug-in goes first (with the last reference to it): the new one is made as
            // into an empty slot.
            let block = (shared: old.shared, size: old.size, memory: old.memory)
            _ = consume old
            guard let (processor, prepared) = made(id, request, make: make) else {
                release(block.shared, size: block.size, memory: block.memory)
                return
            }
            guard Self.blockSize(processor, format: request.format) == block.size else {
                release(block.shared, size: block.size, memory: block.memory)
                say("error \(id) \(processor.name): the isolated slot's shared memory is not laid out for this processor")
                return
            }
            serve(Served(processor: processor, prepared: prepared, shared: block.shared, size: block.size, memory: block.memory),
                  id: id, format: request.format)
        }

        /// The processor and kernel `request` asks for; nil, and the reason said, when they
        /// cannot be made.
        private func made(_ id: Int, _ request: SlotRequest, make: (SlotRequest) throws -> Processor) -> (Processor, PreparedKernel)? {
            do {
                let processor = try make(request)
                guard let prepared = try processor.makeKernel(request.format) else {
                    say("error \(id) \(processor.name) is not a plug-in: it runs in the host")
                    return nil
                }
                return (processor, prepared)
            } catch {
                say("error \(id) \(error)")
                return nil
            }
        }

        /// The bytes of the block a slot of `processor` in `format` runs on.
        private static func blockSize(_ processor: Processor, format: KernelFormat) -> Int {
            var head = DetentSlotShared()
            return detent_slot_layout(&head, UInt32(format.channels), UInt32(format.maxFrames), UInt32(processor.table.count),
                                      UInt32(processor.outputs.count))
        }

        /// Serves a slot whose plug-in is made: runs it for no frames, reports, opens its block
        /// to the serving thread (READY) and tells the host what its kernel can take.
        private func serve(_ served: Served, id: Int, format: KernelFormat) {
            let kernel = served.prepared.kernel
            Self.runEmpty(kernel, processor: served.processor, format: format)
            slots[id] = served
            report(served, id: id)
            var abilities = ["ready", String(id)]
            if kernel.beginEvents != nil && kernel.addEvent != nil { abilities.append("events") }
            if kernel.transport != nil { abilities.append("transport") }
            if kernel.drainMIDI != nil { abilities.append("drain") }
            if kernel.side != nil { abilities.append("side") }
            members[id].shared = served.shared
            members[id].kernel = DetentSlotKernel(context: kernel.context, run: kernel.run, reset: kernel.reset,
                                                  begin_events: kernel.beginEvents, add_event: kernel.addEvent,
                                                  transport: kernel.transport, drain: kernel.drainMIDI, side: kernel.side)
            // Ready before it says so: the host's first request may follow at once.
            detent_slot_member_open(group, members + id)
            say(abilities.joined(separator: " "))
        }

        /// Its latency at the starting values: a plug-in tells it from `run`, so the kernel
        /// runs once for no frames first.
        private static func runEmpty(_ kernel: ExternalKernel, processor: Processor, format: KernelFormat) {
            let controls = (format.startingValues ?? processor.table.specs.map(\.defaultValue)).map(Float.init)
            let frames = max(1, format.maxFrames)
            let silence = [Float](repeating: 0, count: frames)
            var scratch = [Float](repeating: 0, count: frames * format.channels)
            controls.withUnsafeBufferPointer { values in
                silence.withUnsafeBufferPointer { zero in
                    scratch.withUnsafeMutableBufferPointer { out in
                        let ins = [UnsafePointer<Float>](repeating: zero.baseAddress!, count: format.channels)
                        let outs = (0..<format.channels).map { out.baseAddress! + $0 * frames }
                        kernel.run(kernel.context, values.baseAddress ?? zero.baseAddress!, ins, outs, format.channels, 0)
                    }
                }
            }
        }

        /// Lets slot `id` go: the serving thread stops touching it, then its plug-in is freed
        /// here. A serving thread that does not let go within a second is stuck in another
        /// slot's plug-in, which the host kills the process for.
        private func drop(_ id: Int) {
            // One whose plug-in could not be made (anew) holds nothing: its number is free.
            guard let served = slots[id] else { return say("dropped \(id)") }
            guard detent_slot_member_retire(group, members + id, 1_000_000_000) else { return }
            slots[id] = nil
            members[id] = DetentSlotMember()
            free(served)
            say("dropped \(id)")
        }

        private func free(_ served: Served) {
            withExtendedLifetime(served.prepared.owner) {}
            release(served.shared, size: served.size, memory: served.memory)
        }

        private func release(_ shared: UnsafeMutablePointer<DetentSlotShared>, size: Int, memory: Int32) {
            detent_slot_unmap(shared, size)
            close(memory)
        }

        /// The process's count of its plug-ins' own changes when last reported.
        private var ownNoted = detent_own_changes()

        /// Every slot's output values, latency, messages and, when a plug-in here moved one of
        /// its own parameters since the last report, its own changes, to the host.
        func reportAll() {
            let own = detent_own_changes()
            let ownMoved = own != ownNoted
            ownNoted = own
            for (id, served) in slots { report(served, id: id, ownMoved: ownMoved) }
        }

        /// Done for every slot at each of the main thread's wake-ups, so it does no more than it
        /// must: a plug-in's values in the order it gives them (matched by id only when that
        /// order differs).
        private func report(_ served: Served, id: Int, ownMoved: Bool = false) {
            guard let reports = served.reports else { return }
            let shared = served.shared
            if ownMoved {
                for change in reports.takeOwnChanges() {
                    if let row = served.processor.table.find(change.id) { detent_slot_own_write(shared, UInt32(row.rawValue), change.value) }
                }
            }
            if !served.outputIDs.isEmpty {
                let values = UnsafeMutableRawPointer(shared).advanced(by: Int(shared.pointee.off_values)).assumingMemoryBound(to: Float.self)
                let now = reports.outputValues
                if now.count == served.outputIDs.count, zip(now, served.outputIDs).allSatisfy({ $0.id == $1 }) {
                    for (i, value) in now.enumerated() { values[i] = Float(value.value) }
                } else {
                    let byID = Dictionary(now.map { ($0.id, $0.value) }, uniquingKeysWith: { a, _ in a })
                    for (i, output) in served.outputIDs.enumerated() { values[i] = Float(byID[output] ?? .nan) }
                }
            }
            shared.pointee.latency = UInt32(max(0, min(reports.latency, Int(UInt32.max))))
            for message in reports.takeMessages() { say("message \(id) " + message) }
        }

        /// At the end: every slot let go (the serving thread has returned).
        func closeAll() {
            for (_, served) in slots.sorted(by: { $0.key < $1.key }) { free(served) }
            slots = [:]
        }
    }
}
