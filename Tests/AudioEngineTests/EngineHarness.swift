import Testing
import Parameters
import TestSupport
import AudioEngine

/// Runs whole signals through an `Engine` in blocks of a chosen size, the way the JACK
/// callback and the offline renderer do, with parameter changes sent before each block.
struct EngineHarness {
    let engine: Engine
    let sampleRate: Double

    init(sampleRate: Double = 48_000, channels: Int = 1, maxFrames: Int = 4096,
         values: [ParameterIndex: Double] = [:], smoothing: Double = 0.030) {
        engine = Engine(initialValues: values, smoothingTime: smoothing)
        try! engine.prepare(sampleRate: sampleRate, maxFrames: maxFrames, channels: channels)
        self.sampleRate = sampleRate
    }

    /// Processes `input` (one array per channel) in blocks of `blockSize`, sending each
    /// change (stamped with its frame) just before the block that contains it.
    func run(_ input: [[Float]], blockSize: Int, changes: [ParameterChange] = []) -> [[Float]] {
        let (output, allQueued) = EngineRun.render(engine, input, blockSize: blockSize, changes: changes)
        #expect(allQueued)
        return output
    }

    /// One channel through `run`.
    func run(_ mono: [Float], blockSize: Int = 256, changes: [ParameterChange] = []) -> [Float] {
        run([mono], blockSize: blockSize, changes: changes)[0]
    }
}
