import Control
import Parameters
import AudioEngine
import Platform
import Synchronization

/// What the process callback does with MIDI control messages, and what it tells the host.
///
/// The mappings (``MIDIControls``) are laid out off the audio thread as a
/// ``MIDIMappingSet`` and published through an atomic pointer; `midi` typed to the host
/// publishes a new set. The callback reads the set it found at the start of its cycle and
/// marks it in use (a hazard pointer: it stores the pointer, then checks it is still the
/// current one), so the host frees a replaced set only once the callback no longer holds it —
/// the callback never waits and never frees. Pickup and 14-bit state live in the set, so a
/// new mapping starts them afresh.
///
/// Per parameter the table publishes what the callback applied (for the host's targets and
/// the panel's knobs) and keeps the knob's position, which the host writes whenever a value
/// is set by anyone else: pickup and relative encoders need to know where the knob is.
struct MIDIControlTable: ~Copyable {
    static let controlChange: UInt8 = 0xB0
    static let programChange: UInt8 = 0xC0

    /// The published set, and the one the callback holds (nil between cycles).
    private let current = Atomic<UnsafeMutableRawPointer?>(nil)
    private let inUse = Atomic<UnsafeMutableRawPointer?>(nil)
    let parameterCount: Int

    /// Control changes heard on the listened channel, mapped or not, for MIDI learn: their
    /// count (upper bits) and the last one's controller number (lowest 8 bits).
    private let heard = Atomic<UInt64>(0)
    /// Program changes taken: their count (upper bits) and the last one's number (lowest 8).
    private let programs = Atomic<UInt64>(0)

    /// Per parameter (by raw value, as the engine counts them), the bits of the last value a
    /// controller set and how many times one did; the knob's normalised position.
    private let latest: UnsafeMutablePointer<Atomic<UInt64>>
    private let generations: UnsafeMutablePointer<Atomic<UInt64>>
    private let positions: UnsafeMutablePointer<Atomic<UInt64>>
    /// Per parameter, where a pickup controller that has not caught its knob is (normalised;
    /// NaN when none waits): the panel shows it, so the player knows which way to turn.
    private let waiting: UnsafeMutablePointer<Atomic<UInt64>>
    /// The change each parameter's controllers make, its value and frame filled in per message.
    private let templates: UnsafeMutablePointer<ParameterChange>

    /// Rows kept per parameter whatever the table: a live chain edit changes the table
    /// while the callback runs, so the rows must already be there.
    static let rowCapacity = 4_096

    init(_ controls: MIDIControls, values: [ParameterIndex: Double] = [:]) {
        let table = controls.table
        parameterCount = max(table.count, Self.rowCapacity)
        latest = .allocate(capacity: parameterCount)
        generations = .allocate(capacity: parameterCount)
        positions = .allocate(capacity: parameterCount)
        waiting = .allocate(capacity: parameterCount)
        templates = .allocate(capacity: parameterCount)
        for p in 0..<parameterCount {
            let id = ParameterIndex(p)
            let position = p < table.count ? table[id].normalized(values[id] ?? table[id].defaultValue) : 0
            (templates + p).initialize(to: ParameterChange(id, p < table.count ? table[id].defaultValue : 0))
            (latest + p).initialize(to: Atomic(0))
            (generations + p).initialize(to: Atomic(0))
            (positions + p).initialize(to: Atomic(position.bitPattern))
            (waiting + p).initialize(to: Atomic(Double.nan.bitPattern))
        }
        update(controls)
    }

    /// After a live chain edit: every knob's position from `values` in `table`, the new
    /// table, and no pickup waiting (any thread; the mapping is replaced next).
    func retable(_ table: ParameterTable, values: [ParameterIndex: Double]) {
        for id in table.indices where id.rawValue < parameterCount {
            knobMoved(id, to: values[id] ?? table[id].defaultValue, in: table[id])
            waiting[id.rawValue].store(Double.nan.bitPattern, ordering: .relaxed)
        }
    }

    deinit {
        if let set = current.exchange(nil, ordering: .sequentiallyConsistent) { Self.free(set) }
        latest.deinitialize(count: parameterCount)
        latest.deallocate()
        generations.deinitialize(count: parameterCount)
        generations.deallocate()
        positions.deinitialize(count: parameterCount)
        positions.deallocate()
        waiting.deinitialize(count: parameterCount)
        waiting.deallocate()
        templates.deallocate()
    }

    private static func free(_ raw: UnsafeMutableRawPointer) {
        let set = raw.assumingMemoryBound(to: MIDIMappingSet.self)
        set.deinitialize(count: 1)
        set.deallocate()
    }

    /// Makes `controls` the mapping from the next cycle on (any thread but the callback's).
    /// Waits, if need be, until the callback lets go of the set it replaces (at most one cycle).
    func update(_ controls: MIDIControls) {
        let set = UnsafeMutablePointer<MIDIMappingSet>.allocate(capacity: 1)
        set.initialize(to: MIDIMappingSet(controls))
        guard let old = current.exchange(UnsafeMutableRawPointer(set), ordering: .sequentiallyConsistent) else { return }
        let deadline = ContinuousClock.now + .seconds(2)
        while inUse.load(ordering: .sequentiallyConsistent) == old {
            // A callback that holds it for seconds has stopped running for good (a dead
            // server): leaking one set is better than freeing memory it may still read.
            if ContinuousClock.now > deadline { return }
            ThisThread.yield()
        }
        Self.free(old)
    }

    /// Where the knob of `id` is now, set by someone other than a controller: pickup waits
    /// for a controller to pass it, relative encoders step from it (any thread).
    func knobMoved(_ id: ParameterIndex, to value: Double, in spec: ParameterSpec) {
        positions[id.rawValue].store(spec.normalized(value).bitPattern, ordering: .relaxed)
    }

    /// Where each pickup controller that has not yet caught its knob is, normalised (0 … 1),
    /// by parameter (any thread).
    func waitingControllers() -> [ParameterIndex: Double] {
        var found: [ParameterIndex: Double] = [:]
        for p in 0..<parameterCount {
            let position = Double(bitPattern: waiting[p].load(ordering: .relaxed))
            if !position.isNaN { found[ParameterIndex(p)] = position }
        }
        return found
    }

    /// Takes the published set for this cycle (audio thread); nil without one.
    @_noLocks
    func beginCycle() -> UnsafeMutablePointer<MIDIMappingSet>? {
        var set = current.load(ordering: .sequentiallyConsistent)
        while true {
            inUse.store(set, ordering: .sequentiallyConsistent)
            let again = current.load(ordering: .sequentiallyConsistent)
            if again == set { break }
            set = again
        }
        return set?.assumingMemoryBound(to: MIDIMappingSet.self)
    }

    /// Lets go of the cycle's set (audio thread).
    @_noLocks
    func endCycle() { inUse.store(nil, ordering: .sequentiallyConsistent) }

    /// Takes one MIDI message at `frame` (audio thread; the only writer of the set's state).
    /// Mapped changes are appended to `events` (at most `capacity`); program changes are
    /// noted for the host. Returns true when the message was taken — it turned a knob,
    /// selected or set an NRPN/RPN, or chose a preset — and false when it is for the processor.
    @_noLocks
    func receive(_ set: UnsafeMutablePointer<MIDIMappingSet>, _ bytes: UnsafePointer<UInt8>, size: Int, frame: Int64,
                 into events: UnsafeMutablePointer<ParameterChange>, count: inout Int, capacity: Int) -> Bool {
        guard size >= 2 else { return false }
        let status = bytes[0]
        guard status < 0xF0 else { return false }
        let channel = Int32(status & 0x0F)
        let listened = set.pointee.channel
        guard listened < 0 || channel == listened else { return false }
        switch status & 0xF0 {
        case Self.programChange:
            guard set.pointee.programCount > 0 else { return false }
            let taken = programs.load(ordering: .relaxed) >> 8
            programs.store((taken &+ 1) << 8 | UInt64(bytes[1] & 0x7F), ordering: .releasing)
            return true
        case Self.controlChange:
            guard size >= 3 else { return false }
            let controller = Int(bytes[1] & 0x7F), value = Int32(bytes[2] & 0x7F)
            guard controller <= 119 else { return false }  // a channel mode message
            let count0 = heard.load(ordering: .relaxed) >> 8
            heard.store((count0 &+ 1) << 8 | UInt64(controller), ordering: .releasing)
            var sink = Sink(events: events, count: count, capacity: capacity, frame: frame)
            defer { count = sink.count }
            if set.pointee.hasParameterNumbers,
               parameterNumber(set, channel: Int(channel), controller: controller, value: value, sink: &sink) {
                return true
            }
            var taken = false
            // The LSB of a 14-bit pair completes the value its MSB started.
            if controller >= 32, controller < 64, set.pointee.fineMSB[controller - 32] {
                let msb = Int32(set.pointee.msb[Int(channel) * 32 + controller - 32])
                taken = apply(set, controller: controller - 32, kind: MIDIMappingSet.Slot.fine, value: msb << 7 | value, sink: &sink) || taken
            }
            if controller < 32, set.pointee.fineMSB[controller] {
                set.pointee.msb[Int(channel) * 32 + controller] = UInt8(value)
                taken = apply(set, controller: controller, kind: MIDIMappingSet.Slot.fine, value: value << 7, sink: &sink) || taken
            }
            taken = apply(set, controller: controller, kind: MIDIMappingSet.Slot.coarse, value: value, sink: &sink) || taken
            return taken
        default:
            return false
        }
    }

    /// Where mapped changes go, and the cycle's frame for them.
    struct Sink {
        let events: UnsafeMutablePointer<ParameterChange>
        var count: Int
        let capacity: Int
        let frame: Int64
    }

    /// Applies `value` to every slot of `kind` on `controller`; true when there was one.
    @_noLocks
    private func apply(_ set: UnsafeMutablePointer<MIDIMappingSet>, controller: Int, kind: UInt8,
                       value: Int32, sink: inout Sink) -> Bool {
        let first = Int(set.pointee.firstByController[controller]), n = Int(set.pointee.countByController[controller])
        var found = false
        var s = first
        while s < first + n {
            defer { s += 1 }
            guard set.pointee.slots[s].kind == kind else { continue }
            found = true
            turn(set, slot: s, value: value, resolution: kind == MIDIMappingSet.Slot.fine ? 16_383 : 127, sink: &sink)
        }
        return found
    }

    /// CC 99/98 and 101/100 select an NRPN or RPN, 6/38 set its value, 96/97 step it. Returns
    /// true when `controller` is one of those.
    @_noLocks
    private func parameterNumber(_ set: UnsafeMutablePointer<MIDIMappingSet>, channel: Int, controller: Int, value: Int32,
                                 sink: inout Sink) -> Bool {
        let selecting = set.pointee.selecting + channel, selected = set.pointee.selected + channel
        let data = set.pointee.data + channel
        switch controller {
        case 99, 101:  // NRPN / RPN MSB
            selecting.pointee = (controller == 101 ? 16_384 : 0) + (value << 7)
            selected.pointee = -1
        case 98, 100:  // NRPN / RPN LSB
            let base = selecting.pointee >= 0 ? selecting.pointee : (controller == 100 ? 16_384 : 0)
            let number = (base & ~0x7F) | value
            // RPN 127/127 is the null function: nothing selected.
            selected.pointee = number == 16_384 + 16_383 ? -1 : number
        case 6:
            data.pointee = value << 7
            parameterValue(set, channel: channel, value: data.pointee, sink: &sink)
        case 38:
            data.pointee = (data.pointee & ~0x7F) | value
            parameterValue(set, channel: channel, value: data.pointee, sink: &sink)
        case 96, 97:
            data.pointee = min(max(data.pointee + (controller == 96 ? 1 : -1), 0), 16_383)
            parameterValue(set, channel: channel, value: data.pointee, sink: &sink)
        default:
            return false
        }
        return true
    }

    @_noLocks
    private func parameterValue(_ set: UnsafeMutablePointer<MIDIMappingSet>, channel: Int, value: Int32, sink: inout Sink) {
        let selected = set.pointee.selected[channel]
        guard selected >= 0 else { return }
        let kind = selected >= 16_384 ? MIDIMappingSet.Slot.rpn : MIDIMappingSet.Slot.nrpn
        let number = selected & 16_383
        var s = 0
        while s < set.pointee.count {
            if set.pointee.slots[s].kind == kind && set.pointee.slots[s].number == number {
                turn(set, slot: s, value: value, resolution: 16_383, sink: &sink)
            }
            s += 1
        }
    }

    /// One slot takes a value: an absolute position (picked up or jumped to) or relative steps
    /// from where the knob is; the parameter's new value goes to the engine at the frame.
    @_noLocks
    private func turn(_ set: UnsafeMutablePointer<MIDIMappingSet>, slot s: Int, value: Int32, resolution: Int32,
                      sink: inout Sink) {
        var slot = set.pointee.slots[s]
        let p = Int(slot.parameter)
        let knob = Double(bitPattern: positions[p].load(ordering: .relaxed))
        var target: Double
        if slot.encoding != 0 {
            // Relative encoders send 7-bit steps; a 14-bit source's steps are in its MSB.
            let steps = slot.steps(Int(resolution == 127 ? value : value >> 7))
            guard steps != 0 else { return }
            target = min(max(knob + Double(steps) * slot.relativeStep, slot.travelLow), slot.travelHigh)
        } else {
            target = slot.position(value, resolution: resolution)
            if slot.pickup {
                // Someone else moved the knob since this controller did: pick it up again.
                if !(abs(slot.setPosition - knob) <= 1e-9) { slot.caught = false }
                if !slot.caught {
                    let oneStep = (slot.travelHigh - slot.travelLow) / Double(resolution) + 1e-12
                    let last = slot.lastPosition
                    let passed = !last.isNaN && ((last <= knob && knob <= target) || (target <= knob && knob <= last))
                    slot.lastPosition = target
                    guard passed || abs(target - knob) <= oneStep else {
                        set.pointee.slots[s] = slot
                        waiting[p].store(target.bitPattern, ordering: .relaxed)
                        return
                    }
                    slot.caught = true
                    waiting[p].store(Double.nan.bitPattern, ordering: .relaxed)
                }
            }
        }
        slot.lastPosition = target
        slot.setPosition = target
        set.pointee.slots[s] = slot
        guard sink.count < sink.capacity else { return }
        let v = slot.value(at: target, values: set.pointee.values)
        var change = templates[p]
        change.value = v
        change.frame = sink.frame
        sink.events[sink.count] = change
        sink.count += 1
        positions[p].store(target.bitPattern, ordering: .relaxed)
        latest[p].store(v.bitPattern, ordering: .relaxed)
        generations[p].wrappingAdd(1, ordering: .releasing)
    }

    /// How many control changes were heard on the listened channel, and the last one's
    /// controller number.
    func lastHeard() -> (count: UInt64, controller: Int) {
        let word = heard.load(ordering: .acquiring)
        return (word >> 8, Int(word & 0xFF))
    }

    /// How many program changes were taken, and the last one's number.
    func lastProgram() -> (count: UInt64, program: Int) {
        let word = programs.load(ordering: .acquiring)
        return (word >> 8, Int(word & 0xFF))
    }

    /// How many times a controller has set `id`, and the last value it set. The value read
    /// may be newer than the count, never older.
    func lastSet(_ id: ParameterIndex) -> (generation: UInt64, value: Double) {
        let generation = generations[id.rawValue].load(ordering: .acquiring)
        return (generation, Double(bitPattern: latest[id.rawValue].load(ordering: .relaxed)))
    }

    /// MIDI messages that moved a parameter: every setting counted once.
    var messagesApplied: Int {
        (0..<parameterCount).reduce(0) { $0 + Int(lastSet(ParameterIndex($1)).generation) }
    }
}
