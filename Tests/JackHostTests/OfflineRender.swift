import DSP
import Testing

/// The offline reference: an `Engine` driven block by block, the way the offline renderer
/// drives it, with each change sent just before the block that contains its frame.
enum OfflineRender {
    static func run(_ input: [[Float]], changes: [ParameterChange], values: [ParameterID: Double],
                    smoothing: Double, sampleRate: Double = 48_000, blockSize: Int = 256) -> [[Float]] {
        let engine = Engine(initialValues: values, smoothingTime: smoothing)
        engine.prepare(sampleRate: sampleRate, maxFrames: 8192, channels: input.count)
        let frames = input[0].count
        var pending = changes.sorted { $0.frame < $1.frame }[...]
        let ins = input.map { signal -> UnsafeMutablePointer<Float> in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: frames)
            p.initialize(from: signal, count: frames)
            return p
        }
        let outs = input.map { _ in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
        defer { (ins + outs).forEach { $0.deallocate() } }
        var start = 0
        while start < frames {
            let n = min(blockSize, frames - start)
            while let c = pending.first, c.frame < Int64(start + n) {
                #expect(engine.controls.trySend(c))
                pending.removeFirst()
            }
            let i = ins.map { UnsafePointer($0 + start) }
            let o = outs.map { $0 + start }
            i.withUnsafeBufferPointer { ib in
                o.withUnsafeBufferPointer { ob in engine.process(input: ib.baseAddress!, output: ob.baseAddress!, frames: n) }
            }
            start += n
        }
        return outs.map { Array(UnsafeBufferPointer(start: $0, count: frames)) }
    }
}

/// Test signals.
enum Signal {
    static func sine(frequency: Double, frames: Int, sampleRate: Double = 48_000, amplitude: Double = 0.5) -> [Float] {
        (0..<frames).map { Float(amplitude * sin(2 * .pi * frequency * Double($0) / sampleRate)) }
    }

    /// Deterministic white noise in −amplitude…amplitude (SplitMix64).
    static func noise(frames: Int, seed: UInt64, amplitude: Float = 0.5) -> [Float] {
        var state = seed
        return (0..<frames).map { _ in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return amplitude * Float(Double(z >> 11) / Double(1 << 53) * 2 - 1)
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
