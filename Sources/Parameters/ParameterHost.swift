/// The two verbs every front end uses on whatever holds the parameters — a live engine, the
/// panel's no-audio stand-in, a test's fake: set targets, read them back.
///
/// One snapshot per read: a refresh that shows every knob takes ``targets()`` once, so a host
/// behind a lock is locked once per refresh, not once per parameter.
///
/// ```swift
/// host.set([.cutoff: 800, .gain: -6])   // one change, both stamped at the same moment
/// let now = host.targets()              // every parameter's target, in one snapshot
/// ```
public protocol ParameterHost: AnyObject {
    /// New targets (in range), all taking effect at the same moment.
    func set(_ values: [ParameterIndex: Double])
    /// Where each parameter is heading: what was last set, by anyone (a knob, a typed
    /// command, a MIDI controller, a preset).
    func targets() -> [ParameterIndex: Double]
}
