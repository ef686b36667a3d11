/// The few transcendental functions the render path needs, written in Swift.
///
/// C's libm cannot be proven lock- and allocation-free by `@_noLocks`, and its results may
/// differ between C libraries. These are accurate to a few units in the last place of a
/// `Double` over the domains the engine uses (tests compare them with libm), and give
/// bit-identical results on every machine, which keeps live and offline renders identical.
/// Each is a short polynomial in Horner form: no loops, no divisions but one.
public enum RealtimeMath {
    /// log2(10), for decibel conversions: 10^(x/20) = 2^(x · log2(10) / 20).
    /// (Constants are computed properties: a stored `static let` is lazily initialised
    /// through a call the real-time checker refuses; each getter is itself checked.)
    @inlinable public static var log2Of10: Double { @_noLocks get { 3.3219280948873623 } }
    @inlinable static var ln2: Double { @_noLocks get { 0.69314718055994531 } }
    @inlinable static var halfPi: Double { @_noLocks get { 1.5707963267948966 } }
    @inlinable static var halfPiTail: Double { @_noLocks get { 6.123233995736766e-17 } }
    @inlinable static var quarterPi: Double { @_noLocks get { 0.78539816339744831 } }

    /// 2^x. Overflows to +∞ at 1024 and underflows to 0 below −1075.
    @_noLocks @inlinable
    public static func exp2(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x >= 1024 { return .infinity }
        if x <= -1075 { return 0 }
        // x = e + f with |f| ≤ 1/2, rounding by truncation (`rounded(_:)` is generic code).
        let e = Int(x < 0 ? x - 0.5 : x + 0.5)
        let y = (x - Double(e)) * ln2  // |y| ≤ 0.347
        // e^y, Taylor to y^15 (the next term is below 2^-63).
        var p = 7.647163731819816e-13
        p = p * y + 1.1470745597729725e-11
        p = p * y + 1.6059043836821613e-10
        p = p * y + 2.08767569878681e-09
        p = p * y + 2.505210838544172e-08
        p = p * y + 2.755731922398589e-07
        p = p * y + 2.7557319223985893e-06
        p = p * y + 2.48015873015873e-05
        p = p * y + 0.0001984126984126984
        p = p * y + 0.001388888888888889
        p = p * y + 0.008333333333333333
        p = p * y + 0.041666666666666664
        p = p * y + 0.16666666666666666
        p = p * y + 0.5
        p = p * y + 1
        p = p * y + 1
        // Scale in two steps so neither factor leaves the normal range.
        let half = e / 2
        return p * powerOfTwo(half) * powerOfTwo(e - half)
    }

    /// 2^e for a normal exponent (−1022 … 1023), built from its bits.
    @_noLocks @inlinable
    static func powerOfTwo(_ e: Int) -> Double {
        Double(bitPattern: UInt64(e + 1023) << 52)
    }

    /// log2(x); −∞ at 0, NaN below 0.
    @_noLocks @inlinable
    public static func log2(_ x: Double) -> Double {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 { return -.infinity }
        if x.isInfinite { return x }
        var e = Double(x.exponent)
        var m = x.significand  // 1 ≤ m < 2
        if m > 1.4142135623730951 {
            m *= 0.5
            e += 1
        }
        // ln(m) = 2·atanh(s), s = (m−1)/(m+1), |s| ≤ 0.172; series to s^25.
        let s = (m - 1) / (m + 1)
        let z = s * s
        var p = 0.04
        p = p * z + 0.043478260869565216
        p = p * z + 0.047619047619047616
        p = p * z + 0.05263157894736842
        p = p * z + 0.058823529411764705
        p = p * z + 0.06666666666666667
        p = p * z + 0.07692307692307693
        p = p * z + 0.09090909090909091
        p = p * z + 0.1111111111111111
        p = p * z + 0.14285714285714285
        p = p * z + 0.2
        p = p * z + 0.3333333333333333
        p = p * z + 1
        return e + 2 * s * p / ln2
    }

    /// tan(x) for |x| < π/2 (the prewarped filter coefficient needs 0 ≤ x < 0.5·π).
    @_noLocks @inlinable
    public static func tan(_ x: Double) -> Double {
        let a = abs(x)
        // Above π/4 use tan(x) = 1 / tan(π/2 − x): the series stays on [0, π/4]. π/2 in two
        // parts (Cody–Waite) keeps the reflection exact close to the pole.
        let reflected = a > quarterPi
        let y = reflected ? (halfPi - a) + halfPiTail : a
        let z = y * y
        // sin to y^17 and cos to y^18 (next terms below 2^-63 for y ≤ π/4).
        var s = 2.8114572543455206e-15
        s = s * z - 7.647163731819816e-13
        s = s * z + 1.6059043836821613e-10
        s = s * z - 2.505210838544172e-08
        s = s * z + 2.7557319223985893e-06
        s = s * z - 0.0001984126984126984
        s = s * z + 0.008333333333333333
        s = s * z - 0.16666666666666666
        s = (s * z + 1) * y
        var c = -1.5619206968586225e-16
        c = c * z + 4.779477332387385e-14
        c = c * z - 1.1470745597729725e-11
        c = c * z + 2.08767569878681e-09
        c = c * z - 2.755731922398589e-07
        c = c * z + 2.48015873015873e-05
        c = c * z - 0.001388888888888889
        c = c * z + 0.041666666666666664
        c = c * z - 0.5
        c = c * z + 1
        let t = reflected ? c / s : s / c
        return x < 0 ? -t : t
    }

    /// Sine and cosine of `x` (radians). Non-finite `x` gives NaN for both.
    public static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        guard x.isFinite else { return (.nan, .nan) }
        // Bring very large angles near zero first; knobs never need them, but they must not trap.
        let wrapped = abs(x) > 1e6 ? x.truncatingRemainder(dividingBy: 2 * Double.pi) : x
        let quadrant = (wrapped / halfPi).rounded()
        let r = (wrapped - quadrant * halfPi) - quadrant * halfPiTail  // |r| ≲ π/4
        let r2 = r * r
        // Taylor series; after r^19 the terms are below 2^-60 for |r| ≤ π/4.
        var sinSum = 0.0, cosSum = 0.0
        var sinTerm = r, cosTerm = 1.0
        var n = 1.0
        while n < 22 {
            sinSum += sinTerm
            cosSum += cosTerm
            sinTerm = -sinTerm * r2 / ((n + 1) * (n + 2))
            cosTerm = -cosTerm * r2 / (n * (n + 1))
            n += 2
        }
        switch Int(quadrant) & 3 {
        case 0: return (sinSum, cosSum)
        case 1: return (cosSum, -sinSum)
        case 2: return (-sinSum, -cosSum)
        default: return (-cosSum, sinSum)
        }
    }

    public static func sin(_ x: Double) -> Double { sinCos(x).sin }
    public static func cos(_ x: Double) -> Double { sinCos(x).cos }
}
