import Parameters
import Testing
@testable import AudioEngine

@Suite("Smoother")
struct SmootherTests {
    func run(_ s: inout Smoother, _ n: Int) -> [Double] { (0..<n).map { _ in s.next() } }

    @Test("a linear ramp lands exactly on the target after exactly N samples", arguments: [1, 2, 7, 1440])
    func linearLanding(frames: Int) {
        var s = Smoother(kind: .linear, value: 0.25)
        s.ramp(to: 0.9, frames: frames)
        let values = run(&s, frames + 3)
        #expect(values[frames - 1] == 0.9)
        if frames > 1 { #expect(values[frames - 2] < 0.9) }
        #expect(values[frames...].allSatisfy { $0 == 0.9 })
        #expect(!s.isRamping)
    }

    @Test("linear steps are equal: start + k·(target − start)/N")
    func linearSteps() {
        var s = Smoother(kind: .linear, value: 1)
        s.ramp(to: 0, frames: 4)
        #expect(run(&s, 4) == [0.75, 0.5, 0.25, 0])
    }

    @Test("a multiplicative ramp is geometric: a constant ratio per sample")
    func multiplicative() {
        var s = Smoother(kind: .multiplicative, value: 100)
        s.ramp(to: 1600, frames: 4)  // ratio 2 per sample
        let v = run(&s, 4)
        #expect(abs(v[0] - 200) < 1e-10 && abs(v[1] - 400) < 1e-10 && abs(v[2] - 800) < 1e-9)
        #expect(v[3] == 1600)
        // 20 Hz → 20 kHz over 1000 samples: every ratio equal.
        var t = Smoother(kind: .multiplicative, value: 20)
        t.ramp(to: 20_000, frames: 1000)
        var previous = 20.0
        let expectedRatio = pow(1000, 1.0 / 1000)
        for (i, x) in run(&t, 1000).enumerated() {
            #expect(abs(x / previous - expectedRatio) < 1e-9, "sample \(i)")
            previous = x
        }
    }

    @Test("ramps are monotonic and never overshoot, up and down", arguments: [Smoothing.linear, .multiplicative])
    func monotonic(kind: Smoothing) {
        for (from, to) in [(20.0, 20_000.0), (20_000, 20), (1.0, 1.0000001), (0.5, 0.49999)] {
            var s = Smoother(kind: kind, value: from)
            s.ramp(to: to, frames: 1440)
            var previous = from
            for x in run(&s, 1440) {
                if to > from { #expect(x >= previous && x <= to) } else { #expect(x <= previous && x >= to) }
                previous = x
            }
            #expect(previous == to)
        }
    }

    @Test("a new target mid-ramp ramps from the current value, for the full time")
    func retarget() {
        var s = Smoother(kind: .linear, value: 0)
        s.ramp(to: 1, frames: 10)
        _ = run(&s, 5)
        #expect(s.value == 0.5)
        s.ramp(to: 0, frames: 10)
        let v = run(&s, 10)
        #expect(abs(v[0] - 0.45) < 1e-15)  // from 0.5, not from 1 or 0
        #expect(v[9] == 0)
        #expect(s.remaining == 0)
    }

    @Test("zero frames or the same target jumps")
    func jumps() {
        var s = Smoother(kind: .multiplicative, value: 100)
        s.ramp(to: 200, frames: 0)
        #expect(s.value == 200 && !s.isRamping)
        s.ramp(to: 200, frames: 100)
        #expect(!s.isRamping)
    }

    @Test("a multiplicative ramp to zero falls back to linear and still lands")
    func multiplicativeToZero() {
        var s = Smoother(kind: .multiplicative, value: 1)
        s.ramp(to: 0, frames: 4)
        #expect(run(&s, 4) == [0.75, 0.5, 0.25, 0])
    }
}

#if canImport(Glibc)
import Glibc
#endif
