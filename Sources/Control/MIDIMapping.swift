import Parameters

/// One way a MIDI controller turns one parameter: which messages, how their values are read,
/// and over what part of the parameter's travel. Several mappings may share a source (a macro:
/// one fader drives several parameters); a parameter may have several (two controllers).
///
/// ```swift
/// MIDIMapping(parameter: .cutoff, source: .controller(74))                       // 7-bit, pickup
/// MIDIMapping(parameter: .cutoff, source: .controller(16), fine: true)           // 14-bit: CC 16 + 48
/// MIDIMapping(parameter: .gain, source: .nrpn(1234), range: -24...0, invert: true)
/// MIDIMapping(parameter: .resonance, source: .controller(21), encoding: .twosComplement)  // an endless encoder
/// ```
public struct MIDIMapping: Sendable, Hashable {
    /// The messages that carry the value.
    public enum Source: Sendable, Hashable {
        /// A control change, 0…119 (with `fine`, 0…31: the most significant 7 bits on `n`, the
        /// least on `n + 32`; a lone MSB still works).
        case controller(Int)
        /// A non-registered parameter number, 0…16383 (CC 99/98 select it, data entry 6/38
        /// sets it, 96/97 step it).
        case nrpn(Int)
        /// A registered parameter number, 0…16383 (CC 101/100 select it; as NRPN otherwise).
        case rpn(Int)

        /// The number, whatever the kind.
        public var number: Int {
            switch self {
            case .controller(let n), .nrpn(let n), .rpn(let n): n
            }
        }
    }

    /// How a message's value is read.
    public enum Encoding: String, Sendable, Hashable, CaseIterable {
        /// The value is a position: 0 the bottom of the mapping's travel, the top value its top.
        case absolute
        /// An endless encoder's step count: 1…63 up, 127…65 down by 1…63 (two's complement).
        case twosComplement = "relative-twos"
        /// Around 64: 65…127 up by 1…63, 63…0 down by 1…64 (binary offset).
        case binaryOffset = "relative-offset"
        /// Bit 6 the sign: 1…63 up, 65…127 down by 1…63 (signed bit).
        case signBit = "relative-sign"
    }

    /// What an absolute controller does when it does not stand where the knob is.
    public enum Takeover: String, Sendable, Hashable, CaseIterable {
        /// The knob waits until the controller passes its position, then follows (soft takeover).
        case pickup
        /// The knob jumps to the controller at once.
        case jump
    }

    public var parameter: ParameterIndex
    public var source: Source
    /// 14-bit: a controller pair (MSB `n`, LSB `n + 32`); NRPN and RPN are always 14-bit.
    public var fine: Bool
    public var encoding: Encoding
    public var takeover: Takeover
    /// The part of the parameter's range the controller covers, in the parameter's unit
    /// (200 Hz … 2 kHz of a cutoff); nil for all of it.
    public var range: ClosedRange<Double>?
    /// The controller's bottom is the range's top.
    public var invert: Bool

    public init(parameter: ParameterIndex, source: Source, fine: Bool = false, encoding: Encoding = .absolute,
                takeover: Takeover = .pickup, range: ClosedRange<Double>? = nil, invert: Bool = false) {
        self.parameter = parameter
        self.source = source
        self.fine = fine
        self.encoding = encoding
        self.takeover = takeover
        self.range = range
        self.invert = invert
    }

    /// True for NRPN, RPN and fine controller pairs.
    public var isFourteenBit: Bool {
        if case .controller = source { return fine }
        return true
    }

    /// The parameter's normalised travel (0…1, through its taper) the mapping covers.
    public func travel(in spec: ParameterSpec) -> ClosedRange<Double> {
        guard let range else { return 0...1 }
        let a = spec.normalized(range.lowerBound), b = spec.normalized(range.upperBound)
        return min(a, b)...max(a, b)
    }
}
