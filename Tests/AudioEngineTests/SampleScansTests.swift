@testable import AudioEngine
import Testing

/// The passes around a kernel's run give, eight samples at a time, what one sample at a time
/// gives: the same samples and the same verdicts, whatever the count and the stride.
@Suite("Sample scans")
struct SampleScansTests {
    static let limit: Float = 63_095.734
    /// Every kind of sample the guard treats apart: ordinary, beyond either limit, zeros of
    /// both signs, denormals, infinities, NaN.
    static let kinds: [Float] = [0.25, -0.5, 1e6, -1e6, 0, -0, .leastNonzeroMagnitude, -.leastNormalMagnitude / 2,
                                 .leastNormalMagnitude, .infinity, -.infinity, .nan, 63_095.734, -70_000]

    /// One sample as the guard must leave it.
    static func expected(_ x: Float) -> Float {
        guard x.isFinite, !x.isSubnormal else { return 0 }
        return min(max(x, -limit), limit)
    }

    @Test("the input's guard: NaN, infinities and denormals made 0, the rest held to ±limit")
    func copyIn() {
        for count in [0, 1, 7, 8, 9, 31, 64] {
            for stride in [1, 2] {
                for kind in Self.kinds.indices {
                    // Each kind at every place, among ordinary samples.
                    let source = (0..<count * stride).map { $0 % 5 == kind % 5 ? Self.kinds[kind] : Float($0) / 100 }
                    var out = [Float](repeating: 1, count: count)
                    let notFinite = source.withUnsafeBufferPointer { s in
                        out.withUnsafeMutableBufferPointer { o in
                            SampleScans.copyIn(from: s.baseAddress!, stride: stride, to: o.baseAddress!, count: count, limit: Self.limit)
                        }
                    }
                    let read = (0..<count).map { source[$0 * stride] }
                    #expect(out == read.map(Self.expected), "\(count) × stride \(stride), \(Self.kinds[kind])")
                    #expect(notFinite == read.contains { !$0.isFinite }, "\(count) × stride \(stride), \(Self.kinds[kind])")
                }
            }
        }
    }
}
