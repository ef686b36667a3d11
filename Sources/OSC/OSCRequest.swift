import Parameters

/// What an OSC message asks of Detent, once its address, type tags and values are checked.
package enum OSCRequest: Sendable, Equatable {
    /// `/detent/param/<id> f`: a value in the parameter's own unit.
    case set(ParameterIndex, Double)
    /// `/detent/param/<id>/norm f`: a knob position 0…1, through the parameter's taper.
    case setPosition(ParameterIndex, Double)
    /// `/detent/param/<id> s PATH` of a file parameter: the file it loads (an impulse
    /// response, a sample), checked as a typed path is.
    case setFile(String, String)
    /// `/detent/preset/load s`: a preset's name from any peer; a preset file's path only from
    /// this user on this machine (see ``OSCRouter/route(_:_:table:fromThisUser:)``).
    case presetLoad(String)
    /// `/detent/reset`: every parameter to its default.
    case reset
    /// `/detent/get/<id>`: answered to the sender as `/detent/param/<id> f`.
    case get(ParameterIndex)
    /// `/detent/subscribe`, `/detent/unsubscribe`: the sender gets every change, or no more.
    case subscribe
    case unsubscribe
    /// `/detent/status`, `/detent/status s json`: answered to the sender as `/detent/status s`,
    /// the typed `status` command's line (or, with `json`, its JSON object).
    case status(json: Bool)
    /// `/detent/midi/learn s ID`: the next MIDI control change heard maps its controller to
    /// the parameter (answered `/detent/midi/learn s ID i CC`); `/detent/midi/learn` with no
    /// argument stops waiting. One learn waits at a time: a new one replaces it.
    case midiLearn(ParameterIndex?)
    /// `/detent/slot/restart s SLOT`: an isolated slot's process started afresh.
    case restartSlot(String)
    /// `/detent/chain s EDIT`: the words of a typed `chain …` command after `chain` (`add
    /// conv=convoLV2 at 2`, `remove conv`), or none for the chain as it is; answered
    /// `/detent/chain s TEXT`, the typed command's answer. From this machine only.
    case chain(String)
}

/// One argument of an OSC message, as liblo decodes it.
package enum OSCArgument: Sendable, Equatable {
    case float(Float)
    case double(Double)
    case int32(Int32)
    case string(String)
    case other(Character)

    /// The number it holds (a float, double or integer), or nil.
    var number: Double? {
        switch self {
        case .float(let v): Double(v)
        case .double(let v): v
        case .int32(let v): Double(v)
        case .string, .other: nil
        }
    }
}
