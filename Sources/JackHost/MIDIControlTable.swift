import Parameters
import DSP
import Synchronization

/// ``MIDIControls`` laid out for the process callback: a lookup from controller number to
/// parameter and from controller value to parameter value, both worked out before the
/// client starts, so the audio thread only indexes memory (the tapers' `exp2` and the
/// dictionary stay off it). The values the callback applies are published back through
/// atomics, for the host's targets and the panel's knobs.
///
/// The mapping itself is atomics too, so it can change while the client runs (`midi` typed
/// to the host): each controller's entry is stored on its own, and the audio thread reads
/// each entry whole. Between two of those stores, a message may meet half of an update
/// (a parameter briefly on its old and its new controller); it never meets a torn entry.
struct MIDIControlTable: ~Copyable {
    /// Status nibble of a control change message.
    static let controlChange: UInt8 = 0xB0
    static let controllers = 128
    static let steps = 128

    /// The channel listened to, 0…15; −1 for all.
    private let channel = Atomic<Int32>(-1)
    /// Parameter index per controller number; −1 where none.
    private let parameters: UnsafeMutablePointer<Atomic<Int32>>
    /// The change each parameter's controller makes, its value filled in per message.
    private let templates: UnsafeMutablePointer<ParameterChange>
    /// `values[p · 128 + v]`: parameter `p` at controller value `v`, through its taper.
    private let values: UnsafeMutablePointer<Double>
    let parameterCount: Int

    /// The highest controller number a parameter can take (the table's rule), as the audio
    /// thread compares it.
    private let lastController: UInt8
    /// Control changes heard on the listened channel, mapped or not, for MIDI learn: their
    /// count (upper bits) and the last one's controller number (lowest 8 bits).
    private let heard = Atomic<UInt64>(0)

    /// Per parameter (by raw value, as the engine counts them), the bits of the last value a
    /// controller set and how many times one did.
    private let latest: UnsafeMutablePointer<Atomic<UInt64>>
    private let generations: UnsafeMutablePointer<Atomic<UInt64>>

    init(_ controls: MIDIControls) {
        let table = controls.table
        parameterCount = table.count
        lastController = UInt8(MIDIControls.controllerRange.upperBound)
        parameters = .allocate(capacity: Self.controllers)
        for c in 0..<Self.controllers { (parameters + c).initialize(to: Atomic(-1)) }
        templates = .allocate(capacity: parameterCount)
        values = .allocate(capacity: parameterCount * Self.steps)
        latest = .allocate(capacity: parameterCount)
        generations = .allocate(capacity: parameterCount)
        for id in table.indices {
            let p = id.rawValue
            (templates + p).initialize(to: ParameterChange(id, table[id].defaultValue))
            for v in 0..<Self.steps {
                (values + p * Self.steps + v).initialize(to: Self.value(table[id], controllerValue: v))
            }
            (latest + p).initialize(to: Atomic(0))
            (generations + p).initialize(to: Atomic(0))
        }
        update(controls)
    }

    deinit {
        parameters.deinitialize(count: Self.controllers)
        parameters.deallocate()
        templates.deallocate()
        values.deallocate()
        latest.deinitialize(count: parameterCount)
        latest.deallocate()
        generations.deinitialize(count: parameterCount)
        generations.deallocate()
    }

    /// The value a controller value 0…127 stands for: a knob position through the taper,
    /// with 127 exactly the top of the range. A toggle flips at 64; an integer steps through
    /// its values; an enumeration gives each label an equal share of the travel, however its
    /// values are spaced (a plug-in's modes 0, 1, 10 are three equal zones, not one at the top).
    static func value(_ spec: ParameterSpec, controllerValue v: Int) -> Double {
        if case .enumeration(let points) = spec.kind {
            return points[min(points.count - 1, v * points.count / steps)].value
        }
        return spec.value(atNormalized: Double(v) / Double(steps - 1))
    }

    /// Makes `controls` the mapping (any thread).
    func update(_ controls: MIDIControls) {
        for c in 0..<Self.controllers {
            parameters[c].store(Int32(controls.parameter(forController: c)?.rawValue ?? -1), ordering: .relaxed)
        }
        channel.store(Int32((controls.channel ?? 0) - 1), ordering: .relaxed)
    }

    /// Takes one three-byte MIDI message (audio thread; the only writer). A control change on
    /// the channel listened to is noted for MIDI learn, mapped or not; for a mapped controller
    /// the change it makes is recorded for the host and returned. Anything else gives nil.
    @_noLocks
    func receive(status: UInt8, data1: UInt8, data2: UInt8) -> ParameterChange? {
        guard status & 0xF0 == Self.controlChange else { return nil }
        let listened = channel.load(ordering: .relaxed)
        guard listened < 0 || Int32(status & 0x0F) == listened else { return nil }
        let controller = data1 & 0x7F
        guard controller <= lastController else { return nil }  // a channel mode message
        let count = heard.load(ordering: .relaxed) >> 8
        heard.store((count &+ 1) << 8 | UInt64(controller), ordering: .releasing)
        let p = Int(parameters[Int(controller)].load(ordering: .relaxed))
        guard p >= 0 else { return nil }
        var change = templates[p]
        change.value = values[p * Self.steps + Int(data2 & 0x7F)]
        latest[p].store(change.value.bitPattern, ordering: .relaxed)
        generations[p].wrappingAdd(1, ordering: .releasing)
        return change
    }

    /// How many control changes were heard on the listened channel, and the last one's
    /// controller number.
    func lastHeard() -> (count: UInt64, controller: Int) {
        let word = heard.load(ordering: .acquiring)
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
