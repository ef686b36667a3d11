/// Turns the bytes a terminal sends into keys, mouse reports and replies to queries.
///
/// Bytes arrive in reads of any size: a sequence split across two reads (`ESC [ 1 ;` then
/// `5 A`) is held until its end arrives, and a multi-byte UTF-8 character likewise. A lone ESC
/// is ambiguous — the Escape key, or the start of a sequence still on its way — so it is held
/// too; when nothing follows within a short time the caller calls ``flush()``, which turns it
/// into the Escape key. Sequences the decoder does not know (function keys with odd encodings,
/// focus reports, OSC replies) are consumed whole and ignored, so they never leak as typed
/// characters.
///
/// Text pasted while bracketed paste is on (mode 2004) arrives between `ESC [ 200 ~` and
/// `ESC [ 201 ~`; it becomes one ``InputEvent/paste(_:)`` event and never keys, so a pasted
/// `q` or `-6 dB` cannot run a command.
///
/// ```swift
/// var decoder = InputDecoder()
/// decoder.feed(Array("\u{1B}[1;5".utf8))      // []: waiting for the rest
/// decoder.feed(Array("A".utf8))              // [.key(.up, [.ctrl])]
/// ```
public struct InputDecoder: Sendable {
    private var pending: [UInt8] = []
    /// Inside a control sequence that grew past the limit: its bytes are dropped up to its end.
    private var discarding = false

    /// A sequence longer than this is garbage (or an attack): it is dropped.
    static let maximumSequenceLength = 256
    /// The most of one paste kept; the rest is dropped (a value or a name is short).
    static let maximumPasteLength = 65_536
    /// The bytes of a paste so far, while inside one.
    private var paste: [UInt8]?

    static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// Inside a bracketed paste whose end has not arrived yet. If it never does, the caller
    /// ends it with ``flush()`` after a while; what arrived is still a paste.
    public var isPasting: Bool { paste != nil }

    public init() {}

    /// Bytes are waiting for the rest of a sequence; if nothing more arrives soon, call
    /// ``flush()``.
    public var hasPendingBytes: Bool { !pending.isEmpty }

    /// Decodes `bytes` (appended to what is still pending) into events.
    public mutating func feed<S: Sequence>(_ bytes: S) -> [InputEvent] where S.Element == UInt8 {
        pending.append(contentsOf: bytes)
        var events: [InputEvent] = []
        var i = 0
        while i < pending.count {
            if paste != nil {
                guard let end = takePaste(from: i) else {
                    // Keep only what may be the start of the end marker.
                    let kept = pasteMarkerPrefix(from: i)
                    appendToPaste(pending[i..<(pending.count - kept)])
                    pending.removeFirst(pending.count - kept)
                    return events
                }
                events.append(.paste(String(decoding: paste ?? [], as: UTF8.self)))
                paste = nil
                i = end
                continue
            }
            if discarding {
                let b = pending[i]
                if (0x20...0x3F).contains(b) {
                    i += 1
                    continue
                }
                discarding = false
                if (0x40...0x7E).contains(b) {
                    i += 1
                    continue
                }
            }
            switch decode(at: i) {
            case .event(let event, let next):
                events.append(event)
                i = next
            case .skip(let next):
                i = next
            case .overflow(let next):
                i = next
                discarding = true
            case .pasteStart(let next):
                paste = []
                i = next
            case .incomplete:
                pending.removeFirst(i)
                return events
            }
        }
        pending.removeAll(keepingCapacity: true)
        return events
    }

    /// Ends the wait for the rest of a sequence. A lone ESC becomes the Escape key; an
    /// unfinished sequence after it is dropped (it can no longer be told from noise), and so is
    /// an unfinished UTF-8 character.
    public mutating func flush() -> [InputEvent] {
        defer {
            pending.removeAll()
            discarding = false
            paste = nil
        }
        if var text = paste {
            text += pending
            return [.paste(String(decoding: text, as: UTF8.self))]
        }
        return pending.first == 0x1B ? [.key(.escape, [])] : []
    }

    // MARK: - Pastes

    /// Where the paste's end marker ends, if it is in `pending` from `i`; the paste's bytes
    /// before it are added.
    private mutating func takePaste(from i: Int) -> Int? {
        let marker = Self.pasteEnd
        guard pending.count - i >= marker.count else { return nil }
        var j = i
        while j + marker.count <= pending.count {
            if pending[j] == 0x1B, Array(pending[j..<(j + marker.count)]) == marker {
                appendToPaste(pending[i..<j])
                return j + marker.count
            }
            j += 1
        }
        return nil
    }

    /// How many bytes at the end of `pending` could be the start of the end marker.
    private func pasteMarkerPrefix(from i: Int) -> Int {
        let marker = Self.pasteEnd
        for length in stride(from: min(marker.count - 1, pending.count - i), through: 1, by: -1)
        where Array(pending[(pending.count - length)...]) == Array(marker[0..<length]) {
            return length
        }
        return 0
    }

    private mutating func appendToPaste(_ bytes: ArraySlice<UInt8>) {
        let room = Self.maximumPasteLength - (paste?.count ?? 0)
        if room > 0 { paste?.append(contentsOf: bytes.prefix(room)) }
    }

    // MARK: - Decoding one item

    private enum Step {
        case event(InputEvent, next: Int)
        case skip(next: Int)
        /// A control sequence too long to be real: drop it to its end.
        case overflow(next: Int)
        /// `ESC [ 200 ~`: a bracketed paste starts.
        case pasteStart(next: Int)
        case incomplete

        /// The event, or nothing for a sequence decoded but not understood.
        static func eventOrSkip(_ event: InputEvent?, next: Int) -> Step {
            event.map { .event($0, next: next) } ?? .skip(next: next)
        }
    }

    private func decode(at i: Int) -> Step {
        let b = pending[i]
        switch b {
        case 0x1B:
            return escape(at: i)
        case 0x0D:
            return .event(.key(.enter, []), next: i + 1)
        case 0x09:
            return .event(.key(.tab, []), next: i + 1)
        case 0x7F, 0x08:
            return .event(.key(.backspace, []), next: i + 1)
        case 0x00:
            return .event(.key(.character(" "), [.ctrl]), next: i + 1)
        case 0x01...0x1A:
            // Ctrl-A … Ctrl-Z (Ctrl-J is 0x0A: the panel reads it as fine "down", like Ctrl-K up).
            return .event(.key(.character(Character(Unicode.Scalar(b + 0x60))), [.ctrl]), next: i + 1)
        case 0x1C...0x1F:
            return .event(.key(.character(Character(Unicode.Scalar(b + 0x40))), [.ctrl]), next: i + 1)
        case 0x20...0x7E:
            return .event(.key(.character(Character(Unicode.Scalar(b))), []), next: i + 1)
        default:
            return utf8Character(at: i, modifiers: [])
        }
    }

    /// A UTF-8 encoded character starting at `i`.
    private func utf8Character(at i: Int, modifiers: KeyModifiers) -> Step {
        let lead = pending[i]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return .skip(next: i + 1)  // a stray continuation byte or an invalid lead
        }
        guard i + length <= pending.count else {
            // Wait only while what is there so far is still valid.
            for j in (i + 1)..<pending.count where pending[j] & 0xC0 != 0x80 { return .skip(next: i + 1) }
            return .incomplete
        }
        var decoder = UTF8()
        var iterator = pending[i..<(i + length)].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return .skip(next: i + 1) }
        guard scalar.properties.generalCategory != .control else { return .skip(next: i + length) }
        return .event(.key(.character(Character(scalar)), modifiers), next: i + length)
    }

    /// Everything that starts with ESC.
    private func escape(at i: Int) -> Step {
        guard i + 1 < pending.count else { return .incomplete }
        let next = pending[i + 1]
        switch next {
        case UInt8(ascii: "["):
            return controlSequence(at: i, start: i + 2)
        case UInt8(ascii: "O"):
            guard i + 2 < pending.count else { return .incomplete }
            return .eventOrSkip(Self.ss3(pending[i + 2]), next: i + 3)
        case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X"):
            return controlString(start: i + 2)
        case 0x1B:
            return .event(.key(.escape, []), next: i + 1)
        default:
            // Alt (Meta) plus a key: ESC j, ESC DEL, ESC é.
            switch decode(at: i + 1) {
            case .event(.key(let key, let mods), let end):
                return .event(.key(key, mods.union(.alt)), next: end)
            case .event(_, let end), .skip(let end), .pasteStart(let end):
                return .skip(next: end)
            case .overflow(let end):
                return .overflow(next: end)
            case .incomplete:
                return .incomplete
            }
        }
    }

    /// `ESC ] … BEL` or `… ESC \` (OSC, DCS, APC, PM, SOS): replies the panel never asked
    /// for; consumed and ignored.
    private func controlString(start: Int) -> Step {
        var j = start
        while j < pending.count {
            if pending[j] == 0x07 { return .skip(next: j + 1) }
            if pending[j] == 0x1B {
                guard j + 1 < pending.count else { return .incomplete }
                return .skip(next: pending[j + 1] == UInt8(ascii: "\\") ? j + 2 : j)
            }
            j += 1
        }
        return j - start > Self.maximumSequenceLength ? .skip(next: j) : .incomplete
    }

    /// `ESC [` parameters, intermediates, final byte.
    private func controlSequence(at i: Int, start: Int) -> Step {
        var j = start
        while j < pending.count {
            let c = pending[j]
            switch c {
            case 0x20...0x3F:
                j += 1
            case 0x40...0x7E:
                let body = Array(pending[start..<j])
                if c == UInt8(ascii: "~"), body == Array("200".utf8) { return .pasteStart(next: j + 1) }
                return .eventOrSkip(Self.csi(body, final: c), next: j + 1)
            default:
                // A control character or a byte outside a sequence: the sequence was cut off.
                // Drop what was read; the interrupting byte is decoded on its own.
                return .skip(next: j)
            }
            if j - start > Self.maximumSequenceLength { return .overflow(next: j) }
        }
        return .incomplete
    }

    // MARK: - Tables

    /// `ESC O x`: keys in application cursor mode, and F1–F4.
    private static func ss3(_ c: UInt8) -> InputEvent? {
        switch c {
        case UInt8(ascii: "A"): .key(.up, [])
        case UInt8(ascii: "B"): .key(.down, [])
        case UInt8(ascii: "C"): .key(.right, [])
        case UInt8(ascii: "D"): .key(.left, [])
        case UInt8(ascii: "H"): .key(.home, [])
        case UInt8(ascii: "F"): .key(.end, [])
        case UInt8(ascii: "M"): .key(.enter, [])
        case UInt8(ascii: "P")...UInt8(ascii: "S"): .key(.function(Int(c) - 0x4F), [])
        default: nil
        }
    }

    /// A complete control sequence: `body` is the bytes between `ESC [` and the final byte.
    private static func csi(_ body: [UInt8], final: UInt8) -> InputEvent? {
        let text = String(decoding: body, as: UTF8.self)
        if text.hasPrefix("<") {
            guard final == UInt8(ascii: "M") || final == UInt8(ascii: "m") else { return nil }
            return sgrMouse(String(text.dropFirst()), released: final == UInt8(ascii: "m"))
        }
        if text.hasPrefix("?") {
            // DECRPM: CSI ? mode ; state $ y
            guard final == UInt8(ascii: "y"), text.hasSuffix("$") else { return nil }
            let numbers = parameters(String(text.dropFirst().dropLast()))
            guard numbers.count == 2, let mode = numbers[0], let state = numbers[1] else { return nil }
            return .modeReport(mode: mode, state: state)
        }
        let numbers = parameters(text)
        guard numbers.allSatisfy({ $0 != nil }) else { return nil }
        let values = numbers.map { $0 ?? 0 }
        let modifiers = KeyModifiers(xtermParameter: values.count >= 2 ? values[1] : 1)
        switch final {
        case UInt8(ascii: "A"): return .key(.up, modifiers)
        case UInt8(ascii: "B"): return .key(.down, modifiers)
        case UInt8(ascii: "C"): return .key(.right, modifiers)
        case UInt8(ascii: "D"): return .key(.left, modifiers)
        case UInt8(ascii: "H"): return .key(.home, modifiers)
        case UInt8(ascii: "F"): return .key(.end, modifiers)
        case UInt8(ascii: "Z"): return .key(.backTab, modifiers.subtracting(.shift))
        case UInt8(ascii: "P")...UInt8(ascii: "S"):
            // F1–F4 with modifiers (CSI 1 ; 5 P); a bare CSI P–S is something else.
            guard values.count >= 2 else { return nil }
            return .key(.function(Int(final) - 0x4F), modifiers)
        case UInt8(ascii: "t"):
            guard values.count == 3, values[0] == 6, values[1] > 0, values[2] > 0 else { return nil }
            return .cellSize(width: values[2], height: values[1])
        case UInt8(ascii: "u"):
            guard let code = values.first else { return nil }
            let mods = KeyModifiers(xtermParameter: values.count >= 2 ? values[1] : 1)
            return codepointKey(code, modifiers: mods)
        case UInt8(ascii: "~"):
            guard let code = values.first else { return nil }
            if code == 27 {
                // xterm modifyOtherKeys: CSI 27 ; modifiers ; code ~
                guard values.count == 3 else { return nil }
                return codepointKey(values[2], modifiers: KeyModifiers(xtermParameter: values[1]))
            }
            guard let key = tildeKey(code) else { return nil }
            return .key(key, modifiers)
        default:
            return nil
        }
    }

    /// The key of `CSI n ~`.
    private static func tildeKey(_ n: Int) -> Key? {
        switch n {
        case 1, 7: .home
        case 2: .insert
        case 3: .delete
        case 4, 8: .end
        case 5: .pageUp
        case 6: .pageDown
        case 11...15: .function(n - 10)
        case 17...21: .function(n - 11)
        case 23, 24: .function(n - 12)
        default: nil
        }
    }

    /// A key given by its Unicode code point (kitty's `CSI code ; mods u`, modifyOtherKeys).
    private static func codepointKey(_ code: Int, modifiers: KeyModifiers) -> InputEvent? {
        switch code {
        case 9: return .key(modifiers.contains(.shift) ? .backTab : .tab, modifiers.subtracting(.shift))
        case 13: return .key(.enter, modifiers)
        case 27: return .key(.escape, modifiers)
        case 8, 127: return .key(.backspace, modifiers)
        default:
            guard code >= 0x20, let scalar = Unicode.Scalar(UInt32(clamping: code)) else { return nil }
            return .key(.character(Character(scalar)), modifiers)
        }
    }

    /// `CSI < b ; x ; y M` (press, drag, wheel) or `… m` (release).
    private static func sgrMouse(_ text: String, released: Bool) -> InputEvent? {
        let numbers = parameters(text)
        guard numbers.count == 3, let b = numbers[0], let x = numbers[1], let y = numbers[2] else { return nil }
        var modifiers: KeyModifiers = []
        if b & 4 != 0 { modifiers.insert(.shift) }
        if b & 8 != 0 { modifiers.insert(.alt) }
        if b & 16 != 0 { modifiers.insert(.ctrl) }
        let low = b & 3
        let kind: MouseEvent.Kind
        if b & 64 != 0 && b & 128 == 0 {
            guard !released else { return nil }
            kind = .wheel([WheelDirection.up, .down, .left, .right][low])
        } else {
            let button: MouseButton = b & 128 != 0 ? .other : [MouseButton.left, .middle, .right, .other][low]
            if b & 32 != 0 {
                kind = low == 3 && b & 128 == 0 ? .move : .drag(button)
            } else if released {
                kind = .release(button)
            } else {
                guard low != 3 || b & 128 != 0 else { return nil }
                kind = .press(button)
            }
        }
        return .mouse(MouseEvent(kind, x: max(x - 1, 0), y: max(y - 1, 0), modifiers: modifiers))
    }

    /// The `;`-separated numbers of a parameter string; nil for a field that is not a number.
    /// An empty string is no parameters.
    private static func parameters(_ text: String) -> [Int?] {
        guard !text.isEmpty else { return [] }
        return text.split(separator: ";", omittingEmptySubsequences: false).map { field in
            // Sub-parameters (kitty's `1:3`) keep their first value.
            let main = field.split(separator: ":", omittingEmptySubsequences: false).first ?? ""
            guard !main.isEmpty, main.count <= 9, main.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return main.isEmpty ? 1 : nil
            }
            return Int(main)
        }
    }
}
