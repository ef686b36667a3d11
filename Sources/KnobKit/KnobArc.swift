import Parameters

/// The arc a knob turns along: angles in radians, measured clockwise from 12 o'clock.
///
/// Position 0 sits at ``startAngle`` and 1 at ``endAngle``; the rest of the circle is the gap,
/// which no value and no animation ever crosses. The default, ``standard``, runs from −135° to
/// +135°, a 270° arc with the gap pointing down, as on hardware synths.
///
/// ```swift
/// let arc = KnobArc.standard
/// arc.angle(atPosition: 0.5)        // 0: straight up
/// let wide = try KnobArc(startDegrees: -150, endDegrees: 150)
/// ```
public struct KnobArc: Sendable, Hashable {
    /// Angle of position 0 (radians clockwise from 12 o'clock).
    public let startAngle: Double
    /// Angle of position 1 (radians clockwise from 12 o'clock).
    public let endAngle: Double

    /// −135° … +135°: 270° with the gap pointing down.
    public static let standard = KnobArc(unchecked: -0.75 * Double.pi, 0.75 * Double.pi)

    private init(unchecked start: Double, _ end: Double) {
        startAngle = start
        endAngle = end
    }

    /// An arc from `startAngle` to `endAngle` (radians clockwise from 12 o'clock).
    ///
    /// - Throws: ``KnobError/invalidArc(startDegrees:endDegrees:)`` unless both are finite and
    ///   the end lies after the start by at most a full turn.
    public init(startAngle: Double, endAngle: Double) throws(KnobError) {
        guard startAngle.isFinite, endAngle.isFinite, endAngle > startAngle,
              endAngle - startAngle <= 2 * Double.pi
        else {
            throw .invalidArc(startDegrees: startAngle * 180 / Double.pi, endDegrees: endAngle * 180 / Double.pi)
        }
        self.init(unchecked: startAngle, endAngle)
    }

    /// An arc given in degrees clockwise from 12 o'clock.
    public init(startDegrees: Double, endDegrees: Double) throws(KnobError) {
        guard startDegrees.isFinite, endDegrees.isFinite, endDegrees > startDegrees,
              endDegrees - startDegrees <= 360
        else { throw .invalidArc(startDegrees: startDegrees, endDegrees: endDegrees) }
        try self.init(startAngle: startDegrees * Double.pi / 180, endAngle: endDegrees * Double.pi / 180)
    }

    /// The angle the arc sweeps (3π/2 for the standard arc).
    public var span: Double { endAngle - startAngle }

    /// The angle of normalised position `position` (clamped to 0…1; NaN counts as 0).
    public func angle(atPosition position: Double) -> Double {
        let p = position.isNaN ? 0 : min(max(position, 0), 1)
        // Written so both ends are exact: p = 0 gives startAngle and p = 1 gives endAngle.
        return p == 1 ? endAngle : startAngle + p * span
    }

    /// The normalised position of `angle`, clamped to 0…1 (angles in the gap go to the nearer end).
    public func position(atAngle angle: Double) -> Double {
        guard !angle.isNaN else { return 0 }
        return min(max((angle - startAngle) / span, 0), 1)
    }

    /// The point at `angle` on a circle of `radius` around the origin, in screen orientation
    /// (x to the right, y down): 12 o'clock is (0, −radius), 3 o'clock is (radius, 0).
    public static func point(atAngle angle: Double, radius: Double = 1) -> KnobPoint {
        let (s, c) = RealtimeMath.sinCos(angle)
        return KnobPoint(x: radius * s, y: -radius * c)
    }
}
