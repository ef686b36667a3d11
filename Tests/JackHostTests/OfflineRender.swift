import DSP
import Testing
import TestSupport

/// The offline reference: an `Engine` driven block by block, the way the offline renderer
/// drives it, with each change sent just before the block that contains its frame.
enum OfflineRender {
    static func run(_ input: [[Float]], changes: [ParameterChange], values: [ParameterID: Double],
                    smoothing: Double, sampleRate: Double = 48_000, blockSize: Int = 256) -> [[Float]] {
        let engine = Engine(initialValues: values, smoothingTime: smoothing)
        engine.prepare(sampleRate: sampleRate, maxFrames: 8192, channels: input.count)
        let (output, allQueued) = EngineRun.render(engine, input, blockSize: blockSize,
                                                   changes: changes.sorted { $0.frame < $1.frame })
        #expect(allQueued)
        return output
    }
}
