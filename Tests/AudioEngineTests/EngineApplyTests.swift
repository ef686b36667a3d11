import AudioEngine
import Testing
import Parameters
import TestSupport

/// Events given to `Engine.process` with the audio (how MIDI control changes arrive), against
/// the same changes queued with frame stamps: one splitter serves both.
@Suite("Changes given with the audio")
struct EngineApplyTests {
    /// Processes `input` (mono) in blocks of `block` frames, each with the changes whose
    /// frames fall in it as events (frames within the block).
    static func split(_ input: [Float], changes: [ParameterChange], values: [ParameterIndex: Double],
                      block: Int = 256) -> [Float] {
        let engine = Engine(initialValues: values, smoothingTime: 0.005)
        try! engine.prepare(sampleRate: 48_000, maxFrames: 256, channels: 1)
        var output = [Float](repeating: .nan, count: input.count)
        var done = 0
        while done < input.count {
            let n = min(block, input.count - done)
            let events = changes.filter { Int($0.frame) >= done && Int($0.frame) < done + n }.map { change in
                var event = change
                event.frame -= Int64(done)
                return event
            }
            input.withUnsafeBufferPointer { i in
                output.withUnsafeMutableBufferPointer { o in
                    var ins = [i.baseAddress! + done]
                    var outs = [o.baseAddress! + done]
                    events.withUnsafeBufferPointer { e in
                        engine.process(input: &ins, output: &outs, frames: n, events: e)
                    }
                }
            }
            done += n
        }
        return output
    }

    /// One frame processed with `change` as an event at its start.
    static func apply(_ change: ParameterChange, to engine: Engine) {
        var x: Float = 0, y: Float = 0
        withUnsafePointer(to: &x) { xp in
            withUnsafeMutablePointer(to: &y) { yp in
                var ins = [xp], outs = [yp]
                var event = change
                event.frame = 0
                [event].withUnsafeBufferPointer { engine.process(input: &ins, output: &outs, frames: 1, events: $0) }
            }
        }
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
        let values: [ParameterIndex: Double] = [.cutoff: 2_000, .resonance: 1]
        let applied = Self.split(input, changes: changes, values: values)
        // However the caller cuts its blocks.
        #expect(Self.split(input, changes: changes, values: values, block: 100) == applied)
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
        try! engine.prepare(sampleRate: 48_000, maxFrames: 64, channels: 1)
        Self.apply(ParameterChange(.cutoff, 1e9, rampFrames: 0), to: engine)
        #expect(engine.currentValue(.cutoff) == 20_000)
        Self.apply(ParameterChange(.cutoff, .nan, rampFrames: 0), to: engine)
        #expect(engine.currentValue(.cutoff) == 20_000)
    }
}
