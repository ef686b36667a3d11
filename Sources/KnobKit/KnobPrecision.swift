/// The precision values are compared and stored at: nine significant digits.
///
/// A taper maps a value to a position and back through `log` and `exp`, which can come back a
/// last bit off (`1.4` as `1.4000000000000001`). Nine digits is far below anything a knob can
/// show or a person can hear, and far above a double's rounding noise, so two values equal at
/// this precision are the same setting — and a preset written at it reads back as typed.
///
/// ```swift
/// KnobPrecision.kept(1.4000000000000001)   // 1.4
/// KnobPrecision.kept(1234.56789012)         // 1234.56789
/// ```
public enum KnobPrecision {
    /// Significant digits kept.
    public static let significantDigits = 9

    /// `value` rounded to ``significantDigits`` significant digits: the double nearest that
    /// decimal. Zero and non-finite values are returned as they are.
    public static func kept(_ value: Double) -> Double {
        guard value.isFinite, value != 0 else { return value }
        var exponent = 0
        var magnitude = abs(value)
        while magnitude >= 10 { magnitude /= 10; exponent += 1 }
        while magnitude < 1 { magnitude *= 10; exponent -= 1 }
        // value × 10^shift is a whole number of significantDigits digits.
        let shift = significantDigits - 1 - exponent
        // Powers of ten up to 10^22 are exact doubles, so one multiplication and one division
        // give the correctly rounded result.
        guard shift <= 22, shift >= -22 else { return value }
        if shift >= 0 {
            let scale = power(shift)
            return (value * scale).rounded() / scale
        }
        let scale = power(-shift)
        return (value / scale).rounded() * scale
    }

    private static func power(_ n: Int) -> Double {
        var p = 1.0
        for _ in 0..<n { p *= 10 }
        return p
    }
}
