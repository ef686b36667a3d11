import Parameters

/// A knob as a value model: one parameter's value, turned by gestures, shown on an arc.
///
/// A knob owns no clock and does no I/O. Every input comes with the time it happened (seconds on
/// any monotonic clock the caller likes), and every question about the picture — the label, the
/// shown needle during an animation, the geometry — is answered for a time the caller passes in.
/// That makes a terminal panel a thin translator (key and mouse events in, KnobKit calls out)
/// and makes every behaviour testable without sleeping.
///
/// Whatever arrives — NaN, infinities, events out of order, a release without a press — the value
/// stays inside the scale's range and is never NaN.
///
/// Each input returns the value to hand on to the engine *now*, or nil when there is nothing to
/// send (the value did not change, the knob is disabled, or ``KnobBehavior/reporting`` holds the
/// change until the gesture ends):
///
/// ```swift
/// var knob = Knob(.cutoff)
/// if let v = knob.press(.increment, at: now) { send(.cutoff, v) }
/// if let v = knob.pointerDown(mouse, center: knobCenter, at: now) { send(.cutoff, v) }
/// if let v = knob.pointerMoved(mouse, fine: ctrl, at: now) { send(.cutoff, v) }
/// draw(knob.geometry(at: now), knob.label(at: now).text, knob.state)
/// ```
public struct Knob: Sendable, Hashable {
    /// The parameter being turned: range, taper, factory default, text.
    public let scale: KnobScale
    /// The arc positions map onto.
    public var arc: KnobArc
    /// How gestures turn the knob.
    public var behavior: KnobBehavior
    /// How it looks and animates.
    public var appearance: KnobAppearance

    /// The current value: always inside `scale.range`, never NaN.
    public internal(set) var value: Double
    /// The last value handed to the caller (or set by ``setValue(_:animated:at:)``): what the
    /// engine has. A cancelled gesture returns the knob to it.
    public internal(set) var reportedValue: Double
    /// The glide of the shown needle after a reset, typed value or animated preset load.
    public internal(set) var animation: KnobAnimation?
    /// When the value was last changed by hand (or a gesture ended): drives the label's
    /// value persistence.
    public internal(set) var lastHandTime: Double?

    private var storedDefault: Double

    /// The value a reset returns to: the scale's factory default until a "Default" preset moves
    /// it. Setting a non-finite value is ignored; others are clamped into the range.
    public var defaultValue: Double {
        get { storedDefault }
        set { if newValue.isFinite { storedDefault = scale.clamp(newValue) } }
    }

    /// A disabled knob ignores every gesture, key and typed value; only ``setValue(_:animated:at:)``
    /// changes it. Disabling cancels a gesture in progress.
    public var isEnabled = true {
        didSet { if !isEnabled { cancelGesture() } }
    }

    /// Has the keyboard focus (a pointer press focuses the knob).
    public var isFocused = false

    enum Gesture: Sendable, Hashable {
        case pointer(PointerGesture)
        case rotation(KnobTrack)
    }

    struct PointerGesture: Sendable, Hashable {
        enum Drag: Sendable, Hashable {
            case vertical(VerticalDrag)
            case circular(CircularDrag)
            /// The press was the second half of a double-click: it reset the knob, and its
            /// movement turns nothing until the release.
            case consumed
        }

        var track: KnobTrack
        var drag: Drag
    }

    /// The drag or rotation in progress.
    var gesture: Gesture?
    /// Where a run of steps (keys, wheel notches) started, so steps are counted from there
    /// rather than from each other: a step up and a step down give back exactly the value
    /// they started from, however the taper rounds.
    var stepAnchor: StepAnchor?

    struct StepAnchor: Sendable, Hashable {
        /// The value the run started from, and its position.
        var value: Double
        var position: Double
        /// The steps taken since, summed (normalised).
        var offset: Double
        /// The value the last step reached: the run goes on only while the knob is still there.
        var reached: Double
    }
    var clicks = DoubleClickDetector()

    /// A knob over `scale`, starting at `value` (clamped) or the default when nil or NaN.
    public init(
        scale: KnobScale, value: Double? = nil, arc: KnobArc = .standard,
        behavior: KnobBehavior = KnobBehavior(), appearance: KnobAppearance = KnobAppearance()
    ) {
        self.scale = scale
        self.arc = arc
        self.behavior = behavior
        self.appearance = appearance
        let start = value.map { scale.clamp($0) } ?? scale.defaultValue
        self.value = start
        reportedValue = start
        storedDefault = scale.defaultValue
    }

    /// A knob for a row of a parameter table, reading everything from it.
    public init(
        _ spec: ParameterSpec, value: Double? = nil, arc: KnobArc = .standard,
        behavior: KnobBehavior = KnobBehavior(), appearance: KnobAppearance = KnobAppearance()
    ) {
        self.init(scale: KnobScale(spec), value: value, arc: arc, behavior: behavior, appearance: appearance)
    }

    /// The value's normalised position (0…1) through the taper.
    public var position: Double { scale.normalized(value) }

    /// The value's angle on the arc (radians clockwise from 12 o'clock).
    public var angle: Double { arc.angle(atPosition: position) }

    /// A drag or rotation is in progress.
    public var isTurning: Bool { gesture != nil }

    /// What the knob is doing, for drawing.
    public var state: KnobState {
        if !isEnabled { return .disabled }
        if gesture != nil { return .turning }
        return isFocused ? .focused : .idle
    }

    /// Sets the value from code — a preset load, MIDI, automation, an engine read-back — and
    /// treats it as already known to the caller. The label keeps showing the name; with
    /// `animated`, the needle glides there along the arc. A gesture in progress carries on from
    /// the new value. A non-finite value is ignored.
    ///
    /// - Returns: the new value when it changed, else nil.
    @discardableResult
    public mutating func setValue(_ newValue: Double, animated: Bool = false, at time: Double) -> Double? {
        guard newValue.isFinite else { return nil }
        return apply(scale.clamp(newValue), at: time, animated: animated, byHand: false, discrete: true)
    }

    /// Returns the knob to its default value, gliding along the arc; the label shows the value.
    @discardableResult
    public mutating func resetToDefault(at time: Double) -> Double? {
        guard isEnabled else { return nil }
        return apply(defaultValue, at: time, animated: true, byHand: true, discrete: true)
    }

    /// Ends a drag or rotation without finishing it: the value returns to the last reported
    /// value, so the knob and the engine agree again. Nothing is reported.
    public mutating func cancelGesture() {
        guard gesture != nil else { return }
        gesture = nil
        if value != reportedValue {
            value = reportedValue
            animation = nil
        }
    }

    /// Hands any input to the method that handles it.
    @discardableResult
    public mutating func handle(_ input: KnobInput, at time: Double) -> Double? {
        switch input {
        case .pointerDown(let point, let center, let unit, let fine):
            return pointerDown(point, center: center, unit: unit, fine: fine, at: time)
        case .pointerMoved(let point, let fine):
            return pointerMoved(point, fine: fine, at: time)
        case .pointerUp(let point, let fine):
            return pointerUp(point, fine: fine, at: time)
        case .rotation(let radians, let phase, let fine):
            return rotate(by: radians, phase: phase, fine: fine, at: time)
        case .wheel(let notches, let fine):
            return scroll(notches: notches, fine: fine, at: time)
        case .key(let key, let fine):
            return press(key, fine: fine, at: time)
        case .cancel:
            cancelGesture()
            return nil
        }
    }

    // MARK: - The one place the value changes

    /// Makes `newValue` (already inside the range) the value.
    ///
    /// - Parameters:
    ///   - animated: the needle glides from where it is shown now; otherwise it jumps and any
    ///     glide stops.
    ///   - byHand: a person did it, so the label shows the value for a while.
    ///   - discrete: a finished input (key, wheel, reset, code) that reports at once even during
    ///     a gesture held for release, and that the gesture carries on from.
    /// - Returns: the value to report now, if any.
    mutating func apply(_ newValue: Double, at time: Double, animated: Bool, byHand: Bool, discrete: Bool) -> Double? {
        if byHand, time.isFinite { lastHandTime = time }
        guard newValue != value, !newValue.isNaN else { return nil }
        if animated {
            animation = KnobAnimation(
                from: shownPosition(at: time), to: scale.normalized(newValue),
                startTime: time, duration: appearance.checkedAnimationDuration)
        } else {
            animation = nil
        }
        value = newValue
        if discrete { restartTrack() }
        return report(final: discrete)
    }

    /// The value to report now: the value when the caller does not have it yet and the
    /// reporting mode allows it.
    mutating func report(final: Bool) -> Double? {
        guard value != reportedValue else { return nil }
        if !final, gesture != nil, behavior.reporting == .onRelease { return nil }
        reportedValue = value
        return value
    }

    /// A gesture in progress carries on from the current value (after a discrete change).
    private mutating func restartTrack() {
        switch gesture {
        case .pointer(var g)?:
            g.track = KnobTrack(start: position, divisor: g.track.divisor)
            gesture = .pointer(g)
        case .rotation(let track)?:
            gesture = .rotation(KnobTrack(start: position, divisor: track.divisor))
        case nil:
            break
        }
    }

    /// Ends the gesture in progress; returns what it still has to report.
    mutating func endGesture(at time: Double) -> Double? {
        guard gesture != nil else { return nil }
        gesture = nil
        if time.isFinite { lastHandTime = time }
        return report(final: true)
    }

    /// A stepped parameter moves through its values: one per ordinary step (``KnobBehavior/step``)
    /// of `delta`, at least one, so a fine step still moves and a page moves several.
    private func stepped(through steps: [Double], by delta: Double) -> Double {
        let count = max(1, Int((abs(delta) / behavior.checkedStep).rounded()))
        let current = steps.enumerated().min(by: { abs($0.element - value) < abs($1.element - value) })!.offset
        let next = delta > 0 ? min(steps.count - 1, current + count) : max(0, current - count)
        return steps[next]
    }

    /// Takes a step of `delta` (normalised) by hand, counted from the start of the run of
    /// steps it belongs to (``stepAnchor``); snapping and stepped parameters have exact
    /// values of their own and step from the current one.
    mutating func step(by delta: Double, at time: Double) -> Double? {
        guard delta.isFinite, delta != 0, behavior.snap == nil, scale.steps == nil else {
            return apply(stepped(by: delta), at: time, animated: false, byHand: true, discrete: true)
        }
        var anchor = stepAnchor.flatMap { $0.reached == value ? $0 : nil }
            ?? StepAnchor(value: value, position: position, offset: 0, reached: value)
        anchor.offset += delta
        // Sums of tenths and hundredths are not exact in binary: a sum this small is zero.
        if abs(anchor.offset) < 1e-12 { anchor.offset = 0 }
        let target = anchor.position + anchor.offset
        let next = anchor.offset == 0 ? anchor.value : scale.value(atNormalized: target)
        anchor.reached = next
        // Past an end the run stops: the next step starts from the end itself.
        stepAnchor = (0...1).contains(target) ? anchor : nil
        return apply(next, at: time, animated: false, byHand: true, discrete: true)
    }

    /// `value` on the snapping grid (clamped), or unchanged without snapping.
    func snapped(_ value: Double) -> Double {
        guard let snap = behavior.snap else { return value }
        return scale.clamp(snap.snap(value))
    }

    /// The value a step of `delta` (normalised) leads to. With snapping, the step lands on the
    /// grid and moves at least one interval, so a step smaller than the interval is never lost.
    func stepped(by delta: Double) -> Double {
        guard delta.isFinite, delta != 0 else { return value }
        if let steps = scale.steps, !steps.isEmpty { return stepped(through: steps, by: delta) }
        let target = scale.value(atNormalized: position + delta)
        guard let snap = behavior.snap else { return target }
        let up = delta > 0
        var next = scale.clamp(snap.snap(target))
        if up ? next <= value : next >= value {
            next = scale.clamp(snap.next(from: value, up: up))
        }
        return up ? max(next, value) : min(next, value)
    }
}
