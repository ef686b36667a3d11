import CJack
import AudioEngine
import Parameters

/// Feedback for motor faders and LED rings: after each cycle, every mapped parameter whose
/// target changed in it — by a typed command, the panel, a preset, OSC, automation or another
/// controller — is sent on `midi_out` as its controller's position, in the mapping's
/// resolution (a 14-bit pair, or an NRPN/RPN with its selection), at the frame of the change.
/// A controller is not sent back what it just set. Each mapping sends at most every
/// ``MIDIFeedbackQueue/gap`` frames; a change within that is held and sent when the time is up,
/// so the latest position always arrives.
struct MIDIFeedbackQueue: ~Copyable {
    static var capacity: Int { @_noLocks get { 512 } }
    /// The cycle's messages to write, each pointing at its three bytes in `bytes`.
    let events: UnsafeMutablePointer<DetentPortMIDIEvent>
    let bytes: UnsafeMutablePointer<UInt8>
    /// The rate limit, in frames (20 ms at the server's rate).
    let gap: Int64

    init(sampleRate: UInt32) {
        events = .allocate(capacity: Self.capacity)
        bytes = .allocate(capacity: 3 * Self.capacity)
        gap = Int64(sampleRate / 50)
    }

    deinit {
        events.deallocate()
        bytes.deallocate()
    }

    /// Gathers what changed in the cycle of `frames` frames that `engine` just processed into
    /// ``events``, in the order made; returns how many.
    @_noLocks
    func gather(_ set: UnsafeMutablePointer<MIDIMappingSet>, engine: Engine, frames: Int) -> Int {
        guard set.pointee.feedback else { return 0 }
        let cycleStart = engine.framePosition - Int64(frames)
        var count = 0
        var s = 0
        while s < set.pointee.count {
            defer { s += 1 }
            var slot = set.pointee.slots[s]
            var frame = -1
            var value: Int32 = -1
            if let change = engine.lastChange(Int(slot.parameter)) {
                let position = slot.normalized(change.value)
                let v = slot.controllerValue(position)
                // What this controller itself just set is not sent back to it.
                if abs(position - slot.setPosition) <= 1e-9 {
                    slot.sentValue = v
                    slot.heldValue = -1
                } else if v != slot.sentValue {
                    frame = change.frame
                    value = v
                }
            }
            if value < 0 && slot.heldValue >= 0 {
                frame = 0
                value = slot.heldValue
            }
            if value >= 0 {
                if cycleStart + Int64(frame) - slot.sentFrame < gap {
                    slot.heldValue = value
                } else if count + 4 <= Self.capacity {
                    count = write(slot, value: value, frame: Int32(frame), channel: set.pointee.channel, at: count)
                    slot.sentValue = value
                    slot.sentFrame = cycleStart + Int64(frame)
                    slot.heldValue = -1
                }
            }
            set.pointee.slots[s] = slot
        }
        return count
    }

    /// Queues the messages that put `slot`'s controller at `value`; returns the new count.
    @_noLocks
    private func write(_ slot: MIDIMappingSet.Slot, value: Int32, frame: Int32, channel: Int32, at start: Int) -> Int {
        let status = UInt8(0xB0) | UInt8(truncatingIfNeeded: max(channel, 0))
        var n = start
        switch slot.kind {
        case MIDIMappingSet.Slot.fine:
            cc(status, slot.number, value >> 7, frame, &n)
            cc(status, slot.number + 32, value, frame, &n)
        case MIDIMappingSet.Slot.nrpn, MIDIMappingSet.Slot.rpn:
            let rpn = slot.kind == MIDIMappingSet.Slot.rpn
            cc(status, rpn ? 101 : 99, slot.number >> 7, frame, &n)
            cc(status, rpn ? 100 : 98, slot.number, frame, &n)
            cc(status, 6, value >> 7, frame, &n)
            cc(status, 38, value, frame, &n)
        default:
            cc(status, slot.number, value, frame, &n)
        }
        return n
    }

    /// Queues one control change (the low 7 bits of `controller` and `value`).
    @_noLocks
    private func cc(_ status: UInt8, _ controller: Int32, _ value: Int32, _ frame: Int32, _ n: inout Int) {
        let message = bytes + 3 * n
        message[0] = status
        message[1] = UInt8(truncatingIfNeeded: controller & 0x7F)
        message[2] = UInt8(truncatingIfNeeded: value & 0x7F)
        events[n] = DetentPortMIDIEvent(frame: UInt32(truncatingIfNeeded: frame), size: 3, bytes: message)
        n += 1
    }
}

extension MIDIMappingSet.Slot {
    /// The parameter's normalised position of `value` (its taper), for feedback.
    @_noLocks
    func normalized(_ value: Double) -> Double {
        guard high > low else { return 0 }
        let v = min(max(value, low), high)
        switch taper {
        case .linear: return (v - low) / (high - low)
        case .logarithmic: return RealtimeMath.log2(v / low) / RealtimeMath.log2(high / low)
        }
    }

    /// The controller value (0…127, or 0…16383) that stands for `position`.
    @_noLocks
    func controllerValue(_ position: Double) -> Int32 {
        let resolution: Double = kind == MIDIMappingSet.Slot.coarse ? 127 : 16_383
        let width = travelHigh - travelLow
        var x = width > 0 ? (position - travelLow) / width : 0
        x = min(max(x, 0), 1)
        if invert { x = 1 - x }
        return Int32(x * resolution + 0.5)
    }
}
