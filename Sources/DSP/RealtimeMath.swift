/// The few transcendental functions the render path needs, written in Swift.
///
/// C's libm cannot be proven lock- and allocation-free by `@_noLocks`, and its results may
/// differ between C libraries. These are accurate to a few units in the last place of a
/// `Double` over the domains the engine uses, and give bit-identical results everywhere,
/// which keeps live and offline renders identical.
public enum RealtimeMath {
    /// log2(10), for decibel conversions: 10^(x/20) = 2^(x · log2(10) / 20).
    /// (Constants are computed properties: a stored `static let` is lazily initialised
    /// through a call the real-time checker refuses; each getter is itself checked.)
    @inlinable public static var log2Of10: Double { @_noLocks get { 3.3219280948873623 } }
    @inlinable static var ln2: Double { @_noLocks get { 0.69314718055994531 } }
    @inlinable static var halfPi: Double { @_noLocks get { 1.5707963267948966 } }
    @inlinable static var halfPiTail: Double { @_noLocks get { 6.123233995736766e-17 } }
    @inlinable static var quarterPi: Double { @_noLocks get { 0.78539816339744831 } }

    /// 2^x. Overflows to +∞ above 1024 and underflows to 0 below −1075.
    @_noLocks @inlinable
    public static func exp2(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x >= 1024 { return .infinity }
        if x <= -1075 { return 0 }
        // Round to nearest by truncation (`rounded(_:)` goes through generic code).
        let e = Int(x < 0 ? x - 0.5 : x + 0.5)
        let y = (x - Double(e)) * ln2  // |y| ≤ ln2 / 2
        // e^y by its Taylor series; the 17th term is below 2^-60 for |y| ≤ 0.35.
        var sum = 1.0
        var term = 1.0
        var k = 1.0
        while k < 17 {
            term = term * y / k
            sum += term
            k += 1
        }
        // Scale in two steps so 2^e never overflows or loses subnormal bits prematurely.
        let half = e / 2
        return sum * powerOfTwo(half) * powerOfTwo(e - half)
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
        // ln(m) = 2·atanh(s), s = (m−1)/(m+1), |s| ≤ 0.172.
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        var sum = 0.0
        var power = s
        var k = 1.0
        while k < 30 {
            sum += power / k
            power *= s2
            k += 2
        }
        return e + 2 * sum / ln2
    }

    /// tan(x) for |x| < π/2 (the prewarped filter coefficient needs 0 ≤ x < 0.5·π).
    @_noLocks @inlinable
    public static func tan(_ x: Double) -> Double {
        let a = abs(x)
        // Above π/4 use tan(x) = 1 / tan(π/2 − x): the series stays on [0, π/4].
        let reflected = a > quarterPi
        // π/2 in two parts (Cody–Waite) keeps the reflection exact close to the pole.
        let y = reflected ? (halfPi - a) + halfPiTail : a
        let y2 = y * y
        // sin and cos by Taylor series; terms after y^17 are below 2^-60 for y ≤ π/4.
        var sinSum = 0.0
        var cosSum = 0.0
        var sinTerm = y
        var cosTerm = 1.0
        var n = 1.0
        while n < 20 {
            sinSum += sinTerm
            cosSum += cosTerm
            sinTerm = -sinTerm * y2 / ((n + 1) * (n + 2))
            cosTerm = -cosTerm * y2 / (n * (n + 1))
            n += 2
        }
        let t = reflected ? cosSum / sinSum : sinSum / cosSum
        return x < 0 ? -t : t
    }
}
