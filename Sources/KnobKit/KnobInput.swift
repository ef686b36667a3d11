/// A key the knob understands. A panel maps its own keys onto these (↑, k and + to
/// ``increment``; PgUp to ``pageUp``; `d` to ``reset``), so the bindings stay the panel's choice.
public enum KnobKey: Sendable, Hashable, CaseIterable {
    /// One step up.
    case increment
    /// One step down.
    case decrement
    /// ``KnobBehavior/pageMultiplier`` steps up.
    case pageUp
    /// ``KnobBehavior/pageMultiplier`` steps down.
    case pageDown
    /// The minimum.
    case home
    /// The maximum.
    case end
    /// The knob's default value.
    case reset
}

/// The phase of a rotation gesture (a two-finger rotation, a relative encoder turned by hand).
public enum KnobRotationPhase: Sendable, Hashable {
    case began
    case changed
    case ended
}

/// One input event, for callers that prefer to translate their events into values and hand them
/// over in one place (``Knob/handle(_:at:)``). Typed text is not an input here: it can be refused
/// and goes through ``Knob/enter(_:at:)``, which throws.
public enum KnobInput: Sendable, Hashable {
    /// A button pressed on the knob, whose centre is `center` (same unit as the point).
    case pointerDown(KnobPoint, center: KnobPoint, unit: PointerUnit, fine: Bool)
    /// The pointer moved with the button held.
    case pointerMoved(KnobPoint, fine: Bool)
    /// The button released.
    case pointerUp(KnobPoint, fine: Bool)
    /// A rotation by `radians` (clockwise positive) in a gesture's phase.
    case rotation(radians: Double, phase: KnobRotationPhase, fine: Bool)
    /// Wheel notches: positive turns up.
    case wheel(notches: Int, fine: Bool)
    /// A key.
    case key(KnobKey, fine: Bool)
    /// The gesture in progress was interrupted (focus lost, terminal resized).
    case cancel
}
