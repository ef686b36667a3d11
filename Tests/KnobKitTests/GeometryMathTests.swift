import Testing
import KnobKit
@testable import Parameters
import TestSupport

@Suite("Trigonometry without libm")
struct GeometryMathTests {
    @Test("sine and cosine hit the exact values at the quarter turns and known angles")
    func knownValues() {
        #expect(RealtimeMath.sin(0) == 0 && RealtimeMath.cos(0) == 1)
        #expect(RealtimeMath.sin(Double.pi / 2) == 1)
        #expect(RealtimeMath.cos(Double.pi) == -1)
        #expect(RealtimeMath.sin(Double.pi / 6).isClose(to: 0.5, tolerance: 1e-15))
        #expect(RealtimeMath.cos(Double.pi / 3).isClose(to: 0.5, tolerance: 1e-15))
        #expect(RealtimeMath.sin(Double.pi / 4).isClose(to: (0.5).squareRoot(), tolerance: 1e-15))
        #expect(RealtimeMath.sin(-3 * Double.pi / 4).isClose(to: -(0.5).squareRoot(), tolerance: 1e-15))
    }

    @Test("sin² + cos² = 1 and atan2 inverts them over several turns")
    func identities() {
        for i in -720...720 {
            let a = Double(i) * Double.pi / 180
            let (s, c) = RealtimeMath.sinCos(a)
            #expect((s * s + c * c).isClose(to: 1, tolerance: 1e-15))
            var wrapped = a
            while wrapped > Double.pi { wrapped -= 2 * Double.pi }
            while wrapped <= -Double.pi { wrapped += 2 * Double.pi }
            let back = RealtimeMath.atan2(s, c)
            #expect(abs(back - wrapped) < 1e-14 || abs(abs(back - wrapped) - 2 * Double.pi) < 1e-14, "\(i)°")
        }
    }

    @Test("atan2 covers the four quadrants and the axes")
    func atan2Quadrants() {
        #expect(RealtimeMath.atan2(0, 1) == 0)
        #expect(RealtimeMath.atan2(1, 0) == Double.pi / 2)
        #expect(RealtimeMath.atan2(0, -1) == Double.pi)
        #expect(RealtimeMath.atan2(-1, 0) == -Double.pi / 2)
        #expect(RealtimeMath.atan2(1, 1).isClose(to: Double.pi / 4, tolerance: 1e-15))
        #expect(RealtimeMath.atan2(-1, -1).isClose(to: -3 * Double.pi / 4, tolerance: 1e-15))
        #expect(RealtimeMath.atan2(0, 0) == 0)
        #expect(RealtimeMath.atan2(.nan, 1).isNaN)
        #expect(RealtimeMath.atan2(.infinity, 1) == Double.pi / 2)
    }

    @Test("hypot is exact on Pythagorean triples and does not overflow")
    func hypot() {
        #expect(RealtimeMath.hypot(3, 4) == 5)
        #expect(RealtimeMath.hypot(-5, 12) == 13)
        #expect(RealtimeMath.hypot(3e300, 4e300) == 5e300)
        #expect(RealtimeMath.hypot(0, 0) == 0)
        #expect(RealtimeMath.hypot(.nan, 0).isNaN)
        #expect(RealtimeMath.hypot(0, .nan).isNaN)
        #expect(RealtimeMath.hypot(.infinity, 1) == .infinity)
    }

    @Test("non-finite angles give NaN, very large ones stay on the circle")
    func extremes() {
        #expect(RealtimeMath.sin(.infinity).isNaN)
        let (s, c) = RealtimeMath.sinCos(1e12)
        #expect((s * s + c * c).isClose(to: 1, tolerance: 1e-15))
    }
}
