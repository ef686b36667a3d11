/// A point in a plane whose y axis points down, as on a screen.
///
/// Pointer events use the terminal's own units (``PointerUnit``); drawing geometry uses the
/// knob's unit coordinate system (centre at the origin, radius 1, see ``KnobGeometry``).
public struct KnobPoint: Sendable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin.
    public static let zero = KnobPoint(x: 0, y: 0)

    /// Both coordinates are finite numbers.
    public var isFinite: Bool { x.isFinite && y.isFinite }
}
