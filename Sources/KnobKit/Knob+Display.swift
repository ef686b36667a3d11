/// What to draw, as pure functions of time.
extension Knob {
    /// The value as text, formatted by the scale (the table's units and precision).
    ///
    /// - Parameter extraDigits: up to this many more decimals where they are not zeros, so a
    ///   fine step shows (`1.0715 kHz` rather than `1.07 kHz`).
    public func valueText(ascii: Bool = false, extraDigits: Int = 0) -> String {
        scale.format(value, ascii: ascii, extraDigits: extraDigits)
    }

    /// True when the label shows the value at `time`: while turning, and for
    /// ``KnobAppearance/valuePersistence`` seconds after the last change by hand or the end of a
    /// gesture. Always true when the knob shows no name.
    public func showsValue(at time: Double) -> Bool {
        if !appearance.showsNameWhenIdle || scale.name.isEmpty || gesture != nil { return true }
        guard let last = lastHandTime else { return false }
        return time < last + appearance.checkedValuePersistence
    }

    /// The label at `time`: the value text or the parameter's name.
    public func label(at time: Double, ascii: Bool = false) -> KnobLabel {
        showsValue(at: time) ? .value(valueText(ascii: ascii)) : .name(scale.name)
    }

    /// When the label, showing the value at `time`, will go back to the name by itself; nil if
    /// it will not (it shows the name already, or a gesture holds the value up). A panel can
    /// sleep until then instead of redrawing on a timer.
    public func nameReturnTime(after time: Double) -> Double? {
        guard showsValue(at: time), gesture == nil, appearance.showsNameWhenIdle, !scale.name.isEmpty,
              let last = lastHandTime
        else { return nil }
        return last + appearance.checkedValuePersistence
    }

    /// True while the needle is gliding at `time` (the panel should keep drawing frames).
    public func isAnimating(at time: Double) -> Bool {
        guard let animation else { return false }
        return !animation.isFinished(at: time)
    }

    /// The normalised position the needle is shown at, at `time`: the value's own position
    /// unless a glide is under way.
    public func shownPosition(at time: Double) -> Double {
        guard let animation, !animation.isFinished(at: time) else { return position }
        return animation.position(at: time)
    }

    /// The value the needle shows at `time` (exactly ``value`` once any glide has landed).
    public func shownValue(at time: Double) -> Double {
        isAnimating(at: time) ? scale.value(atNormalized: shownPosition(at: time)) : value
    }

    /// The angle of the shown needle at `time`.
    public func shownAngle(at time: Double) -> Double {
        arc.angle(atPosition: shownPosition(at: time))
    }

    /// The normalised position the progress arc starts from.
    public var progressOriginPosition: Double {
        switch appearance.progressOrigin {
        case .start: 0
        case .center: 0.5
        case .defaultValue: scale.normalized(scale.defaultValue)
        case .value(let origin): scale.normalized(origin)
        }
    }

    /// The drawing geometry at `time` (track, progress, indicator, ticks).
    public func geometry(at time: Double) -> KnobGeometry {
        KnobGeometry(arc: arc, position: shownPosition(at: time), originPosition: progressOriginPosition, appearance: appearance)
    }
}
