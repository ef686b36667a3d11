import Control
import Parameters

/// ``MIDIControls`` laid out for the process callback: one block of memory holding a slot per
/// mapping (what it listens to, how it reads values, the parameter's range and taper, and its
/// pickup state), an index from controller number to slots, and the state that 14-bit pairs
/// and NRPN/RPN need per channel. Built off the audio thread; the callback reads it through
/// raw pointers only, and owns the state in it while it is published (see
/// ``MIDIControlTable``).
struct MIDIMappingSet: ~Copyable {
    /// One mapping as the callback reads it.
    struct Slot: BitwiseCopyable {
        /// What the slot listens to (plain numbers: the callback compares them without
        /// generic code).
        static var coarse: UInt8 { @_noLocks get { 0 } }
        static var fine: UInt8 { @_noLocks get { 1 } }
        static var nrpn: UInt8 { @_noLocks get { 2 } }
        static var rpn: UInt8 { @_noLocks get { 3 } }
        enum Step: UInt8 { case continuous, toggle, integer, enumeration }

        var parameter: Int32
        var kind: UInt8
        var number: Int32
        /// 0 absolute; relative: 1 two's complement, 2 binary offset, 3 sign bit.
        var encoding: UInt8
        var pickup: Bool
        var invert: Bool
        /// The parameter's normalised travel the controller covers.
        var travelLow: Double
        var travelHigh: Double
        /// The parameter's range and taper, to turn a position into a value.
        var taper: Taper
        var low: Double
        var high: Double
        var step: Step
        /// An integer parameter's smallest and largest whole values.
        var integerLow: Double
        var integerHigh: Double
        /// An enumeration's values, at `enumStart ..< enumStart + enumCount` of the set's values.
        var enumStart: Int32
        var enumCount: Int32
        /// How far one relative step moves the position (normalised).
        var relativeStep: Double
        /// Pickup: whether the controller has caught the knob, where it was last (NaN: never
        /// heard), and the position this slot last gave the knob (NaN: none).
        var caught: Bool
        var lastPosition: Double
        var setPosition: Double
        /// Feedback: the value last sent on `midi_out` (−1: none), the engine frame it went at,
        /// and a value held back by the rate limit (−1: none).
        var sentValue: Int32
        var sentFrame: Int64
        var heldValue: Int32
    }

    let slots: UnsafeMutablePointer<Slot>
    let count: Int
    /// Per controller number 0…127: the first slot of 7-bit or MSB mappings on it, and how many.
    let firstByController: UnsafeMutablePointer<Int32>
    let countByController: UnsafeMutablePointer<Int32>
    /// Per controller 0…31: whether a 14-bit pair uses it (so `n + 32` is its LSB).
    let fineMSB: UnsafeMutablePointer<Bool>
    /// Whether any NRPN or RPN mapping exists (CC 6, 38, 96…101 are then theirs).
    let hasParameterNumbers: Bool
    /// Enumeration values of every slot.
    let values: UnsafeMutablePointer<Double>
    /// Per channel: the MSB last sent on each controller 0…31, the (N)RPN selected (−1 none;
    /// RPNs offset by 16384), its selection in progress, and the last data value.
    let msb: UnsafeMutablePointer<UInt8>
    let selected: UnsafeMutablePointer<Int32>
    let selecting: UnsafeMutablePointer<Int32>
    let data: UnsafeMutablePointer<Int32>
    /// The channel listened to, 0…15, or −1 for all.
    let channel: Int32
    /// Program changes load presets 0 ..< programCount.
    let programCount: Int32
    /// Whether mapped parameters' positions go out on `midi_out`.
    let feedback: Bool

    init(_ controls: MIDIControls) {
        let table = controls.table
        let mappings = Self.inCallbackOrder(controls.mappings)
        count = mappings.count
        slots = .allocate(capacity: max(1, count))
        firstByController = .allocate(capacity: 128)
        firstByController.initialize(repeating: 0, count: 128)
        countByController = .allocate(capacity: 128)
        countByController.initialize(repeating: 0, count: 128)
        fineMSB = .allocate(capacity: 32)
        fineMSB.initialize(repeating: false, count: 32)
        let enumTotal = mappings.reduce(0) { total, m in
            if case .enumeration(let points) = table[m.parameter].kind { return total + points.count }
            return total
        }
        values = .allocate(capacity: max(1, enumTotal))
        msb = .allocate(capacity: 16 * 32)
        msb.initialize(repeating: 0, count: 16 * 32)
        selected = .allocate(capacity: 16)
        selected.initialize(repeating: -1, count: 16)
        selecting = .allocate(capacity: 16)
        selecting.initialize(repeating: -1, count: 16)
        data = .allocate(capacity: 16)
        data.initialize(repeating: 0, count: 16)
        channel = Int32((controls.channel ?? 0) - 1)
        programCount = Int32(controls.programPresets.count)
        feedback = controls.feedback
        hasParameterNumbers = Self.fill(slots, from: mappings, table: table, values: values, firstByController: firstByController,
                                        countByController: countByController, fineMSB: fineMSB)
    }

    /// The mappings sorted by kind and number, so each controller's slots are contiguous
    /// (mappings on the same source keep their order).
    private static func inCallbackOrder(_ mappings: [MIDIMapping]) -> [MIDIMapping] {
        func order(_ m: MIDIMapping) -> (Int, Int) {
            switch m.source {
            case .controller(let n): (0, n)
            case .nrpn(let n): (1, n)
            case .rpn(let n): (2, n)
            }
        }
        return mappings.enumerated().sorted { a, b in
            let x = order(a.element), y = order(b.element)
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
    }

    /// Writes one slot per mapping, in order, with its enumeration's values, and indexes the
    /// controllers' slots (and the 14-bit pairs' MSBs).
    ///
    /// - Returns: whether any mapping listens to an NRPN or RPN.
    private static func fill(_ slots: UnsafeMutablePointer<Slot>, from mappings: [MIDIMapping], table: ParameterTable,
                             values: UnsafeMutablePointer<Double>, firstByController: UnsafeMutablePointer<Int32>,
                             countByController: UnsafeMutablePointer<Int32>, fineMSB: UnsafeMutablePointer<Bool>) -> Bool {
        var enumAt = 0
        var parameterNumbers = false
        for (i, m) in mappings.enumerated() {
            let spec = table[m.parameter]
            let travel = m.travel(in: spec)
            let stepping = Self.stepping(of: spec, travel: travel, values: values, enumAt: &enumAt)
            let kind: UInt8
            switch m.source {
            case .controller(let n):
                kind = m.fine ? Slot.fine : Slot.coarse
                if countByController[n] == 0 { firstByController[n] = Int32(i) }
                countByController[n] += 1
                if m.fine && n < 32 { fineMSB[n] = true }
            case .nrpn:
                kind = Slot.nrpn
                parameterNumbers = true
            case .rpn:
                kind = Slot.rpn
                parameterNumbers = true
            }
            (slots + i).initialize(to: Slot(
                parameter: Int32(m.parameter.rawValue), kind: kind, number: Int32(m.source.number),
                encoding: UInt8(MIDIMapping.Encoding.allCases.firstIndex(of: m.encoding)!),
                pickup: m.takeover == .pickup && m.encoding == .absolute, invert: m.invert,
                travelLow: travel.lowerBound, travelHigh: travel.upperBound, taper: spec.taper,
                low: spec.range.lowerBound, high: spec.range.upperBound, step: stepping.step,
                integerLow: spec.range.lowerBound.rounded(.up), integerHigh: spec.range.upperBound.rounded(.down),
                enumStart: Int32(stepping.enumStart), enumCount: Int32(stepping.enumCount), relativeStep: stepping.relativeStep,
                caught: false, lastPosition: .nan, setPosition: .nan, sentValue: -1, sentFrame: .min / 2, heldValue: -1))
        }
        return parameterNumbers
    }

    /// How a mapping's positions become the parameter's values: its kind of step, where its
    /// enumeration's values are (written at `enumAt` of `values`, which moves past them), and
    /// how far one relative step moves it.
    private static func stepping(of spec: ParameterSpec, travel: ClosedRange<Double>, values: UnsafeMutablePointer<Double>,
                                 enumAt: inout Int) -> (step: Slot.Step, enumStart: Int, enumCount: Int, relativeStep: Double) {
        var step = Slot.Step.continuous
        var enumStart = 0, enumCount = 0
        var relativeStep = (travel.upperBound - travel.lowerBound) / 127
        switch spec.kind {
        case .continuous: break
        case .toggle:
            step = .toggle
            relativeStep = 1
        case .integer:
            step = .integer
            let span = spec.range.upperBound.rounded(.down) - spec.range.lowerBound.rounded(.up)
            relativeStep = span > 0 ? 1 / span : 1
        case .enumeration(let points):
            step = .enumeration
            enumStart = enumAt
            enumCount = points.count
            for (k, point) in points.enumerated() { values[enumAt + k] = point.value }
            enumAt += points.count
            relativeStep = 1 / Double(points.count)
        }
        return (step, enumStart, enumCount, relativeStep)
    }

    deinit {
        slots.deallocate()
        firstByController.deallocate()
        countByController.deallocate()
        fineMSB.deallocate()
        values.deallocate()
        msb.deallocate()
        selected.deallocate()
        selecting.deallocate()
        data.deallocate()
    }
}

extension MIDIMappingSet.Slot {
    /// The parameter's value at normalised position `p` (0…1): through the taper, then held to
    /// what a toggle, an integer or an enumeration can be (audio thread).
    @_noLocks
    func value(at p: Double, values: UnsafePointer<Double>) -> Double {
        let x = min(max(p, 0), 1)
        switch step {
        case .enumeration:
            // Each label an equal share of the travel, however its values are spaced.
            let k = min(Int(enumCount) - 1, Int(x * Double(enumCount)))
            return values[Int(enumStart) + max(0, k)]
        case .toggle:
            return x >= 0.5 ? high : low
        case .integer:
            let v = low + (high - low) * x
            let whole = Double(Int64(v < 0 ? v - 0.5 : v + 0.5))
            return min(max(whole, integerLow), integerHigh)
        case .continuous:
            switch taper {
            case .linear: return low + (high - low) * x
            case .logarithmic:
                if x <= 0 { return low }
                if x >= 1 { return high }
                return low * RealtimeMath.exp2(x * RealtimeMath.log2(high / low))
            }
        }
    }

    /// The signed step count a relative encoder sends as `value` (0…127); 0 when absolute.
    @_noLocks
    func steps(_ value: Int) -> Int {
        switch encoding {
        case 1: value < 64 ? value : value - 128
        case 2: value - 64
        case 3: value & 0x40 == 0 ? value & 0x3F : -(value & 0x3F)
        default: 0
        }
    }

    /// The normalised position a controller value `v` of `resolution` stands for.
    @_noLocks
    func position(_ v: Int32, resolution: Int32) -> Double {
        var x = Double(v) / Double(resolution)
        if invert { x = 1 - x }
        return travelLow + (travelHigh - travelLow) * x
    }
}
