import Parameters

/// The trigonometry only a knob needs (arctangent and hypotenuse, for circular drags and
/// arcs), beside `RealtimeMath`'s sine and cosine, which the engine's fades use too.
///
/// The standard library has no `atan2`, and KnobKit stays a pure module with no C library
/// under it. These are accurate to a few units in the last place over the angles a
/// knob uses. (The panel's response curve is drawn with libm; its golden screens pass on
/// any machine because the curve is quantised to braille dots, far coarser than libm's
/// differences.)
extension RealtimeMath {

    /// The angle of the vector (x, y) from the positive x axis, in (−π, π]; 0 for the zero vector.
    public static func atan2(_ y: Double, _ x: Double) -> Double {
        if x.isNaN || y.isNaN { return .nan }
        if x == 0 && y == 0 { return 0 }
        let ax = abs(x), ay = abs(y)
        let first: Double  // the angle in the first quadrant
        if ax.isInfinite || ay.isInfinite {
            first = ax.isInfinite && ay.isInfinite ? Double.pi / 4 : (ax.isInfinite ? 0 : Double.pi / 2)
        } else if ay <= ax {
            first = atanUnit(ay / ax)
        } else {
            first = Double.pi / 2 - atanUnit(ax / ay)
        }
        let half = x < 0 ? Double.pi - first : first
        return y < 0 ? -half : half
    }

    /// arctan(t) for 0 ≤ t ≤ 1: two argument halvings, tan(θ/2) = t / (1 + √(1 + t²)), bring t
    /// below tan(π/16) ≈ 0.2, where the series converges fast.
    private static func atanUnit(_ t: Double) -> Double {
        var u = t
        for _ in 0..<2 { u = u / (1 + (1 + u * u).squareRoot()) }
        let u2 = u * u
        var sum = 0.0
        var power = u
        var k = 1.0
        var sign = 1.0
        while k < 34 {
            sum += sign * power / k
            power *= u2
            sign = -sign
            k += 2
        }
        return 4 * sum
    }

    /// √(x² + y²) without overflow for large components.
    public static func hypot(_ x: Double, _ y: Double) -> Double {
        if x.isNaN || y.isNaN { return .nan }
        let m = max(abs(x), abs(y))
        guard m > 0, m.isFinite else { return m }
        let a = x / m, b = y / m
        return m * (a * a + b * b).squareRoot()
    }
}
