import AudioEngine
import Testing
import Parameters

/// Drives an `Engine` over whole signals in blocks, the way the JACK callback and the
/// offline renderer do: each change is sent (never coalesced) just before the block that
/// contains its frame. The one reference every test compares against.
public enum EngineRun {
    /// The output of `engine` for `input` (one array per channel); `changes` in time order.
    ///
    /// - Returns: the output, and whether every change fit in the queue with its frame.
    /// `sides`: side-chain signals by slot index (one array per channel, as long as `input`);
    /// a key −k is a graph's named input k instead.
    public static func render(_ engine: Engine, _ input: [[Float]], blockSize: Int,
                              changes: [ParameterChange] = [], sides: [Int: [[Float]]] = [:]) -> (output: [[Float]], allQueued: Bool) {
        let frames = input[0].count
        var pending = changes[...]
        var allQueued = true
        let ins = input.map { signal -> UnsafeMutablePointer<Float> in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: max(1, frames))
            p.initialize(from: signal, count: frames)
            return p
        }
        let outs = input.map { _ in UnsafeMutablePointer<Float>.allocate(capacity: max(1, frames)) }
        let keyed = sides.sorted { $0.key < $1.key }
        let keys = keyed.map { _, signal in
            signal.map { channel -> UnsafeMutablePointer<Float> in
                let p = UnsafeMutablePointer<Float>.allocate(capacity: max(1, frames))
                p.initialize(from: channel, count: frames)
                return p
            }
        }
        let tables = keys.map { _ in UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: input.count) }
        defer { (ins + outs + keys.flatMap { $0 }).forEach { $0.deallocate() }; tables.forEach { $0.deallocate() } }
        var start = 0
        while start < frames {
            let n = min(blockSize, frames - start)
            while let c = pending.first, c.frame < Int64(start + n) {
                if !engine.controls.trySend(c) { allQueued = false }
                pending.removeFirst()
            }
            let i = ins.map { UnsafePointer($0 + start) }
            let o = outs.map { $0 + start }
            for (k, key) in keys.enumerated() {
                for c in 0..<input.count { tables[k][c] = UnsafePointer(key[c % key.count] + start) }
            }
            let sideInputs = keyed.indices.map {
                Engine.SideInput(slot: keyed[$0].key, channels: UnsafePointer(tables[$0]), stride: 1, namedInput: max(0, -keyed[$0].key))
            }
            i.withUnsafeBufferPointer { ib in
                o.withUnsafeBufferPointer { ob in
                    sideInputs.withUnsafeBufferPointer { sb in
                        engine.process(input: ib.baseAddress!, output: ob.baseAddress!, frames: n, sides: sb)
                    }
                }
            }
            start += n
        }
        return (outs.map { Array(UnsafeBufferPointer(start: $0, count: frames)) }, allQueued)
    }

    /// What a fresh engine makes of `input`: the law the offline renderer and the live host
    /// are held to. The engine starts at `values` with `smoothing` (nil: the engine's default)
    /// and runs in blocks of `blockSize` frames (nil: the whole signal as one block).
    /// `changes` may come in any order (a stable sort keeps same-frame ones as given); the
    /// queue has room for all of them at once, and the test fails should one not get in.
    public static func reference(_ input: [[Float]], processor: Processor = .lowpassGain,
                                 values: [ParameterIndex: Double] = [:], smoothing: Double? = nil,
                                 sampleRate: Double = 48_000, blockSize: Int? = nil, changes: [ParameterChange] = [],
                                 sides: [Int: [[Float]]] = [:],
                                 sourceLocation: SourceLocation = #_sourceLocation) -> [[Float]] {
        let block = blockSize ?? max(1, input[0].count)
        let capacity = changes.count + 1
        let engine = smoothing.map { Engine(processor: processor, initialValues: values, smoothingTime: $0, queueCapacity: capacity) }
            ?? Engine(processor: processor, initialValues: values, queueCapacity: capacity)
        try! engine.prepare(sampleRate: sampleRate, maxFrames: block, channels: input.count)
        let (output, allQueued) = render(engine, input, blockSize: block, changes: changes.sorted { $0.frame < $1.frame }, sides: sides)
        #expect(allQueued, "every change reached the engine", sourceLocation: sourceLocation)
        return output
    }
}
