/// How a pointer drag turns a knob.
public enum KnobDragStyle: Sendable, Hashable {
    /// Up increases, down decreases; sideways distance from the knob slows the change
    /// (bradhowes' Knob).
    case vertical
    /// The pointer's angle around the knob's centre turns it (MHRotaryKnob).
    case circular
}
