import Testing
@testable import KnobKit

@Suite("Trigonometry without libm")
struct KnobMathTests {
    @Test("sine and cosine hit the exact values at the quarter turns and known angles")
    func knownValues() {
        #expect(KnobMath.sin(0) == 0 && KnobMath.cos(0) == 1)
        #expect(KnobMath.sin(Double.pi / 2) == 1)
        #expect(KnobMath.cos(Double.pi) == -1)
        #expect(KnobMath.sin(Double.pi / 6).isClose(to: 0.5, tolerance: 1e-15))
        #expect(KnobMath.cos(Double.pi / 3).isClose(to: 0.5, tolerance: 1e-15))
        #expect(KnobMath.sin(Double.pi / 4).isClose(to: (0.5).squareRoot(), tolerance: 1e-15))
        #expect(KnobMath.sin(-3 * Double.pi / 4).isClose(to: -(0.5).squareRoot(), tolerance: 1e-15))
    }

    @Test("sin² + cos² = 1 and atan2 inverts them over several turns")
    func identities() {
        for i in -720...720 {
            let a = Double(i) * Double.pi / 180
            let (s, c) = KnobMath.sinCos(a)
            #expect((s * s + c * c).isClose(to: 1, tolerance: 1e-15))
            var wrapped = a
            while wrapped > Double.pi { wrapped -= 2 * Double.pi }
            while wrapped <= -Double.pi { wrapped += 2 * Double.pi }
            let back = KnobMath.atan2(s, c)
            #expect(abs(back - wrapped) < 1e-14 || abs(abs(back - wrapped) - 2 * Double.pi) < 1e-14, "\(i)°")
        }
    }

    @Test("atan2 covers the four quadrants and the axes")
    func atan2Quadrants() {
        #expect(KnobMath.atan2(0, 1) == 0)
        #expect(KnobMath.atan2(1, 0) == Double.pi / 2)
        #expect(KnobMath.atan2(0, -1) == Double.pi)
        #expect(KnobMath.atan2(-1, 0) == -Double.pi / 2)
        #expect(KnobMath.atan2(1, 1).isClose(to: Double.pi / 4, tolerance: 1e-15))
        #expect(KnobMath.atan2(-1, -1).isClose(to: -3 * Double.pi / 4, tolerance: 1e-15))
        #expect(KnobMath.atan2(0, 0) == 0)
        #expect(KnobMath.atan2(.nan, 1).isNaN)
        #expect(KnobMath.atan2(.infinity, 1) == Double.pi / 2)
    }

    @Test("hypot is exact on Pythagorean triples and does not overflow")
    func hypot() {
        #expect(KnobMath.hypot(3, 4) == 5)
        #expect(KnobMath.hypot(-5, 12) == 13)
        #expect(KnobMath.hypot(3e300, 4e300) == 5e300)
        #expect(KnobMath.hypot(0, 0) == 0)
        #expect(KnobMath.hypot(.nan, 0).isNaN)
        #expect(KnobMath.hypot(0, .nan).isNaN)
        #expect(KnobMath.hypot(.infinity, 1) == .infinity)
    }

    @Test("non-finite angles give NaN, very large ones stay on the circle")
    func extremes() {
        #expect(KnobMath.sin(.infinity).isNaN)
        let (s, c) = KnobMath.sinCos(1e12)
        #expect((s * s + c * c).isClose(to: 1, tolerance: 1e-15))
    }
}
