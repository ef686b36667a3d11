import Parameters

/// MIDI learn, one rule for every surface (the panel's `m`, OSC's `/detent/midi/learn`, the
/// browser's learn button): a learn notes how many control changes the host has heard on its
/// channel, mapped or not, and the chain it was asked against; the first controller heard
/// after that turns the parameter from then on — unless the chain was edited meanwhile, when
/// the row may mean another parameter and the learn is dropped.
public struct MIDILearn: Sendable, Hashable {
    /// The parameter to be turned.
    public let parameter: ParameterIndex
    /// The host's count of control changes when the learn began.
    public let since: UInt64
    /// The chain generation `parameter` is a row of.
    public let generation: Int

    /// Why a learn cannot begin: the host hears no MIDI.
    public static let noInput = "no MIDI input to learn from (detent live has one, unless --no-midi)"

    /// A learn of `parameter` (a row of chain `generation`) beginning now, given what the host
    /// has heard (`heard`: nil without a MIDI input) and its chain now (`current`).
    ///
    /// - Throws: ``MIDIControlError`` with ``noInput``, or when the chain changed as the
    ///   request came.
    public init(_ parameter: ParameterIndex, heard: (count: UInt64, controller: Int)?, generation: Int,
                current: Int) throws(MIDIControlError) {
        guard let heard else { throw .learn(Self.noInput) }
        guard generation == current else { throw .learn("the chain changed as the request came; ignored") }
        self.parameter = parameter
        since = heard.count
        self.generation = generation
    }

    /// What has become of the learn, given the last control change heard (`last`) and the
    /// chain now (`current`).
    public enum Outcome: Equatable, Sendable {
        /// No controller heard since it began: keep waiting.
        case waiting
        /// This controller was heard: map it to the parameter.
        case learnt(controller: Int)
        /// The chain was edited: the learn ends with nothing mapped.
        case dropped
    }

    public func outcome(last: (count: UInt64, controller: Int)?, current: Int) -> Outcome {
        if current != generation { return .dropped }
        guard let last, last.count != since else { return .waiting }
        return .learnt(controller: last.controller)
    }

    /// The learn kept in `pending` (by a surface, with whatever it keeps beside it) once it
    /// has ended: the pending value and the controller heard, clearing it; nil while it waits,
    /// or when a chain edit dropped it (cleared too).
    public static func finish<Pending>(_ pending: inout Pending?, learn: (Pending) -> MIDILearn,
                                       last: (count: UInt64, controller: Int)?, current: Int) -> (Pending, controller: Int)? {
        guard let waiting = pending else { return nil }
        switch learn(waiting).outcome(last: last, current: current) {
        case .waiting: return nil
        case .dropped:
            pending = nil
            return nil
        case .learnt(let controller):
            pending = nil
            return (waiting, controller)
        }
    }
}
