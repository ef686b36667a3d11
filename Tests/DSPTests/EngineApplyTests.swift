import DSP
import Testing
import TestSupport

/// `Engine.apply`: a change made on the audio thread between two `process` calls (how MIDI
/// control changes arrive) against the same change queued with a frame stamp.
@Suite("Changes applied between process calls")
struct EngineApplyTests {
    /// Processes `input` (mono) cut at each change's frame, applying the change there.
    static func split(_ input: [Float], changes: [ParameterChange], values: [ParameterID: Double]) -> [Float] {
        let engine = Engine(initialValues: values, smoothingTime: 0.005)
        engine.prepare(sampleRate: 48_000, maxFrames: 256, channels: 1)
        var output = [Float](repeating: .nan, count: input.count)
        var done = 0
        func process(until end: Int) {
            guard end > done else { return }
            input.withUnsafeBufferPointer { i in
                output.withUnsafeMutableBufferPointer { o in
                    var ins = [i.baseAddress! + done]
                    var outs = [o.baseAddress! + done]
                    engine.process(input: &ins, output: &outs, frames: end - done)
                }
            }
            done = end
        }
        for change in changes {
            process(until: Int(change.frame))
            engine.apply(change)
        }
        process(until: input.count)
        return output
    }

    @Test("a change applied where the block is cut sounds exactly like the same change queued for that frame")
    func sameAsQueued() {
        let input = Signal.noise(frames: 6_000, seed: 3)
        let changes = [
            ParameterChange(.cutoff, 300, frame: 37),
            ParameterChange(.gain, -9, frame: 38),
            ParameterChange(.resonance, 7, frame: 1_001),
            ParameterChange(.cutoff, 12_000, frame: 1_300),  // mid-glide of the first
            ParameterChange(.gain, -60, frame: 4_000, rampFrames: 0),
        ]
        let values: [ParameterID: Double] = [.cutoff: 2_000, .resonance: 1]
        let applied = Self.split(input, changes: changes, values: values)
        let queued = EngineRun.reference([input], values: values, smoothing: 0.005, blockSize: 256, changes: changes)[0]
        #expect(applied == queued)
        // And the changes did something: the output is not the unchanged engine's.
        let unchanged = EngineRun.reference([input], values: values, smoothing: 0.005, blockSize: 256)[0]
        #expect(applied[..<37] == unchanged[..<37])
        #expect(applied[37] != unchanged[37] || applied[38] != unchanged[38] || applied[39] != unchanged[39])
        #expect(applied[4_000...].allSatisfy { $0 == 0 })
    }

    @Test("values outside the range are clamped, non-finite ones ignored, unknown indices too")
    func outOfRange() {
        let engine = Engine(initialValues: [.cutoff: 1_000], smoothingTime: 0)
        engine.prepare(sampleRate: 48_000, maxFrames: 64, channels: 1)
        engine.apply(ParameterChange(.cutoff, 1e9, rampFrames: 0))
        #expect(engine.currentValue(.cutoff) == 20_000)
        engine.apply(ParameterChange(.cutoff, .nan, rampFrames: 0))
        #expect(engine.currentValue(.cutoff) == 20_000)
    }
}
