import TestSupport
import DSP

/// Runs whole signals through an `Engine` in blocks of a chosen size, the way the JACK
/// callback and the offline renderer do, with parameter changes sent before each block.
struct EngineHarness {
    let engine: Engine
    let sampleRate: Double

    init(sampleRate: Double = 48_000, channels: Int = 1, maxFrames: Int = 4096,
         values: [ParameterID: Double] = [:], smoothing: Double = 0.030) {
        engine = Engine(initialValues: values, smoothingTime: smoothing)
        engine.prepare(sampleRate: sampleRate, maxFrames: maxFrames, channels: channels)
        self.sampleRate = sampleRate
    }

    /// Processes `input` (one array per channel) in blocks of `blockSize`, sending each
    /// change (stamped with its frame) just before the block that contains it.
    func run(_ input: [[Float]], blockSize: Int, changes: [ParameterChange] = []) -> [[Float]] {
        let frames = input[0].count
        var output = input.map { [Float](repeating: .nan, count: $0.count) }
        var pending = changes[...]
        var start = 0
        let inPtrs = input.map { buf -> UnsafeMutablePointer<Float> in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: frames)
            p.initialize(from: buf, count: frames)
            return p
        }
        let outPtrs = input.map { _ in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
        defer { (inPtrs + outPtrs).forEach { $0.deallocate() } }
        while start < frames {
            let n = min(blockSize, frames - start)
            while let c = pending.first, c.frame < Int64(start + n) {
                engine.controls.send(c)
                pending.removeFirst()
            }
            let ins = inPtrs.map { UnsafePointer($0 + start) }
            let outs = outPtrs.map { $0 + start }
            ins.withUnsafeBufferPointer { i in
                outs.withUnsafeBufferPointer { o in
                    engine.process(input: i.baseAddress!, output: o.baseAddress!, frames: n)
                }
            }
            start += n
        }
        for c in output.indices { output[c] = Array(UnsafeBufferPointer(start: outPtrs[c], count: frames)) }
        return output
    }

    /// One channel through `run`.
    func run(_ mono: [Float], blockSize: Int = 256, changes: [ParameterChange] = []) -> [Float] {
        run([mono], blockSize: blockSize, changes: changes)[0]
    }
}

/// Test signals.
enum Signal {
    static func sine(frequency: Double, sampleRate: Double, frames: Int, amplitude: Double = 0.5) -> [Float] {
        (0..<frames).map { Float(amplitude * _sin(2 * .pi * frequency * Double($0) / sampleRate)) }
    }

    static func impulse(frames: Int) -> [Float] {
        var x = [Float](repeating: 0, count: frames)
        x[0] = 1
        return x
    }

    /// Deterministic white noise in −1…1.
    static func noise(frames: Int, seed: UInt64 = 1) -> [Float] {
        var rng = SplitMix64(seed: seed)
        return (0..<frames).map { _ in Float(rng.unit() * 2 - 1) }
    }
}

#if canImport(Glibc)
import Glibc
@inline(__always) func _sin(_ x: Double) -> Double { Glibc.sin(x) }
#endif
