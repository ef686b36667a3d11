/// Everything a renderer draws for one knob, in the knob's unit coordinate system.
///
/// The knob's centre is the origin and its arc has radius 1; x points right and y points down,
/// as on a screen (12 o'clock is (0, −1)). Angles are radians clockwise from 12 o'clock. A
/// renderer scales by its own radius and, in a terminal, by the cell aspect; braille or ASCII is
/// its business, not the model's.
///
/// ```swift
/// let g = knob.geometry(at: now)
/// for i in 0...32 { plot(g.progress.point(atFraction: Double(i) / 32)) }
/// plotLine(g.indicator.from, g.indicator.to)
/// ```
public struct KnobGeometry: Sendable, Hashable {
    /// The whole arc, start to end.
    public let track: KnobArcSegment
    /// From the progress origin to the value (empty when they coincide); always inside the track.
    public let progress: KnobArcSegment
    /// The angle of the shown value.
    public let valueAngle: Double
    /// From the arc at the value's angle toward the centre.
    public let indicator: KnobLine
    /// Ticks spread evenly over the arc, start and end included.
    public let ticks: [KnobTick]

    /// The geometry of a knob on `arc` showing `position`, with its progress drawn from
    /// `originPosition` (both normalised; clamped to 0…1).
    public init(arc: KnobArc, position: Double, originPosition: Double, appearance: KnobAppearance) {
        let p = KnobAppearance.fraction(position, fallback: 0)
        let origin = KnobAppearance.fraction(originPosition, fallback: 0)
        track = KnobArcSegment(startAngle: arc.startAngle, endAngle: arc.endAngle, radius: 1)
        progress = KnobArcSegment(
            startAngle: arc.angle(atPosition: min(origin, p)), endAngle: arc.angle(atPosition: max(origin, p)), radius: 1)
        valueAngle = arc.angle(atPosition: p)
        indicator = KnobLine(angle: valueAngle, length: appearance.checkedIndicatorLength)
        let count = max(appearance.tickCount, 0)
        let length = appearance.checkedTickLength
        ticks = (0..<count).map { i in
            let tickPosition = count == 1 ? 0.5 : Double(i) / Double(count - 1)
            let angle = arc.angle(atPosition: tickPosition)
            return KnobTick(position: tickPosition, angle: angle, line: KnobLine(angle: angle, length: length))
        }
    }
}

/// A part of a circle around the origin, from `startAngle` clockwise to `endAngle`.
public struct KnobArcSegment: Sendable, Hashable {
    public let startAngle: Double
    public let endAngle: Double
    public let radius: Double

    public init(startAngle: Double, endAngle: Double, radius: Double) {
        self.startAngle = startAngle
        self.endAngle = endAngle
        self.radius = radius
    }

    /// The angle swept (0 for an empty segment).
    public var span: Double { endAngle - startAngle }

    /// True when there is nothing to draw.
    public var isEmpty: Bool { !(endAngle > startAngle) }

    /// The angle a fraction (0…1) of the way along the segment.
    public func angle(atFraction fraction: Double) -> Double {
        let f = KnobAppearance.fraction(fraction, fallback: 0)
        return f == 1 ? endAngle : startAngle + f * span
    }

    /// The point a fraction (0…1) of the way along the segment.
    public func point(atFraction fraction: Double) -> KnobPoint {
        KnobArc.point(atAngle: angle(atFraction: fraction), radius: radius)
    }

    /// True when `angle` lies on the segment (ends included).
    public func contains(angle: Double) -> Bool {
        angle >= startAngle && angle <= endAngle
    }
}

/// A straight line in the knob's unit coordinate system.
public struct KnobLine: Sendable, Hashable {
    public let from: KnobPoint
    public let to: KnobPoint

    public init(from: KnobPoint, to: KnobPoint) {
        self.from = from
        self.to = to
    }

    /// A radial line at `angle` from the arc (radius 1) inward by `length` (a fraction of the radius).
    init(angle: Double, length: Double) {
        self.init(from: KnobArc.point(atAngle: angle, radius: 1), to: KnobArc.point(atAngle: angle, radius: 1 - length))
    }
}

/// One tick mark: its normalised position, its angle and the line to draw.
public struct KnobTick: Sendable, Hashable {
    public let position: Double
    public let angle: Double
    public let line: KnobLine
}
