/// When a knob hands its new value to the caller (who sends it on to the engine).
///
/// Discrete inputs — a wheel notch, a key, a typed value, a reset — are reported at once in
/// both modes: each is already a finished gesture.
public enum KnobReporting: Sendable, Hashable {
    /// Every change during a drag or rotation is reported as it happens (Knob's behaviour).
    case continuous
    /// A drag or rotation reports once, when it ends (UISlider's `isContinuous = false`).
    case onRelease
}
