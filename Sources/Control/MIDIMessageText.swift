/// MIDI messages in words, for `detent midi monitor`: what a controller sends, in the terms a
/// mapping uses (channel, CC number, NRPN number), so a user can write `--midi-cc` or a mapping
/// file from what they see.
///
/// ```swift
/// var text = MIDIMessageText()
/// text.describe([0xB0, 74, 64])   // "ch 1  CC 74 = 64"
/// text.describe([0x90, 60, 100])  // "ch 1  note on C4 (60), velocity 100"
/// ```
///
/// It keeps what NRPN and RPN need across messages (the number selected per channel), and
/// adds the 14-bit value a data entry pair makes.
public struct MIDIMessageText: Sendable {
    private var selected = [Int](repeating: -1, count: 16)
    private var dataMSB = [Int](repeating: 0, count: 16)
    private var pending = [Int](repeating: -1, count: 16)

    public init() {}

    static let noteNames = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]

    /// A note number as people name it (60 is C4).
    public static func noteName(_ n: Int) -> String { "\(noteNames[n % 12])\(n / 12 - 1)" }

    /// One message in words.
    public mutating func describe(_ bytes: [UInt8]) -> String {
        guard let status = bytes.first else { return "empty message" }
        if status == 0xF0 { return "system exclusive, \(bytes.count) bytes" }
        if status >= 0xF8 { return ["clock", "tick", "start", "continue", "stop", "(undefined)", "active sensing", "reset"][Int(status) - 0xF8] }
        if status >= 0xF0 { return "system message 0x" + String(Int(status), radix: 16, uppercase: true) }
        let channel = Int(status & 0x0F)
        let head = "ch \(channel + 1)  "
        func data(_ i: Int) -> Int { i < bytes.count ? Int(bytes[i] & 0x7F) : 0 }
        switch status & 0xF0 {
        case 0x80: return head + "note off \(Self.noteName(data(1))) (\(data(1))), velocity \(data(2))"
        case 0x90:
            return head + (data(2) == 0 ? "note off \(Self.noteName(data(1))) (\(data(1))) (note on, velocity 0)"
                                         : "note on \(Self.noteName(data(1))) (\(data(1))), velocity \(data(2))")
        case 0xA0: return head + "key pressure \(Self.noteName(data(1))) (\(data(1))) = \(data(2))"
        case 0xC0: return head + "program change \(data(1))"
        case 0xD0: return head + "channel pressure \(data(1))"
        case 0xE0: return head + "pitch bend \(data(2) << 7 | data(1)) (centre 8192)"
        default: return head + controlChange(channel: channel, data(1), data(2))
        }
    }

    private mutating func controlChange(channel: Int, _ controller: Int, _ value: Int) -> String {
        switch controller {
        case 99, 101:
            pending[channel] = (controller == 101 ? 16_384 : 0) + (value << 7)
            return "CC \(controller) = \(value) (\(controller == 99 ? "NRPN" : "RPN") select, MSB)"
        case 98, 100:
            let base = pending[channel] >= 0 ? pending[channel] & ~0x7F : (controller == 100 ? 16_384 : 0)
            selected[channel] = base | value
            return "CC \(controller) = \(value) (\(controller == 98 ? "NRPN" : "RPN") \(selected[channel] & 16_383) selected)"
        case 6, 38, 96, 97:
            if controller == 6 { dataMSB[channel] = value << 7 }
            if controller == 38 { dataMSB[channel] = (dataMSB[channel] & ~0x7F) | value }
            if controller == 96 { dataMSB[channel] = min(dataMSB[channel] + 1, 16_383) }
            if controller == 97 { dataMSB[channel] = max(dataMSB[channel] - 1, 0) }
            let what = ["6": "data entry", "38": "data entry LSB", "96": "increment", "97": "decrement"]["\(controller)"]!
            guard selected[channel] >= 0 else { return "CC \(controller) = \(value) (\(what))" }
            let kind = selected[channel] >= 16_384 ? "RPN" : "NRPN"
            return "CC \(controller) = \(value) (\(what): \(kind) \(selected[channel] & 16_383) = \(dataMSB[channel]))"
        case 120...127:
            let names = ["all sound off", "reset all controllers", "local control", "all notes off",
                         "omni off", "omni on", "mono on", "poly on"]
            return "CC \(controller) = \(value) (channel mode: \(names[controller - 120]))"
        case 32...63:
            return "CC \(controller) = \(value) (LSB of CC \(controller - 32))"
        default:
            return "CC \(controller) = \(value)"
        }
    }
}
