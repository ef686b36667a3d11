import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import Parameters
import TestSupport

/// The render path's own math against the C library, over the domains the engine uses.
@Suite("Realtime math")
struct RealtimeMathTests {
    /// Relative error, with an absolute floor for values near zero.
    func close(_ a: Double, _ b: Double, _ tolerance: Double = 4e-16) -> Bool {
        abs(a - b) <= tolerance * max(abs(b), 1e-300) * 4
    }

    @Test("exp2 matches libm from -1074 to 1023")
    func exp2Accuracy() {
        // Below -1022 the results are subnormal, with fewer bits: there they must be within
        // one unit in the last place (2^-1074), as a relative tolerance says nothing.
        var x = -1074.0
        while x < 1023 {
            let ours = RealtimeMath.exp2(x), libm = Glibc.exp2(x)
            if libm < Double.leastNormalMagnitude {
                #expect(abs(ours - libm) <= Double.leastNonzeroMagnitude, "x = \(x)")
            } else {
                #expect(close(ours, libm), "x = \(x)")
            }
            x += 0.37
        }
        #expect(RealtimeMath.exp2(-1074) == Double.leastNonzeroMagnitude)
        #expect(RealtimeMath.exp2(-1030) == Double(sign: .plus, exponent: -1030, significand: 1))
        #expect(RealtimeMath.exp2(0) == 1)
        #expect(RealtimeMath.exp2(10) == 1024)
        #expect(RealtimeMath.exp2(-3) == 0.125)
        #expect(RealtimeMath.exp2(1024) == .infinity)
        #expect(RealtimeMath.exp2(-2000) == 0)
        #expect(RealtimeMath.exp2(.nan).isNaN)
    }

    @Test("log2 matches libm over many magnitudes")
    func log2Accuracy() {
        var x = 1e-300
        while x < 1e300 {
            #expect(abs(RealtimeMath.log2(x) - Glibc.log2(x)) <= 1e-15 * max(1, abs(Glibc.log2(x))), "x = \(x)")
            x *= 1.731
        }
        #expect(RealtimeMath.log2(1) == 0)
        #expect(RealtimeMath.log2(1024) == 10)
        #expect(RealtimeMath.log2(0) == -.infinity)
        #expect(RealtimeMath.log2(-1).isNaN)
    }

    @Test("tan matches libm up to 0.4999·π")
    func tanAccuracy() {
        var x = 0.0
        while x < 0.4999 * Double.pi {
            #expect(close(RealtimeMath.tan(x), Glibc.tan(x), 2e-15), "x = \(x)")
            #expect(close(RealtimeMath.tan(-x), Glibc.tan(-x), 2e-15), "x = \(-x)")
            x += 0.000_731
        }
    }
}
