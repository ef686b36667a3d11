import TestSupport
import Testing
@testable import AudioEngine

/// Audio files hold frames interleaved; the offline renderer hands such buffers to the engine
/// directly. They must sound exactly like the same channels in separate buffers, which is
/// how JACK delivers them.
@Suite("Interleaved buffers")
struct InterleavedBufferTests {
    /// Runs `input` (one array per channel) through a fresh engine as interleaved blocks of
    /// `blockSize`, in place, sending each change before the block that holds its frame.
    static func renderInterleaved(_ input: [[Float]], blockSize: Int, maxFrames: Int,
                                  changes: [ParameterChange]) -> (output: [[Float]], telemetry: TelemetrySnapshot) {
        let channels = input.count, frames = input[0].count
        let engine = Engine()
        try! engine.prepare(sampleRate: 48_000, maxFrames: maxFrames, channels: channels)
        var buffer = [Float](repeating: .nan, count: frames * channels)
        for c in 0..<channels { for i in 0..<frames { buffer[i * channels + c] = input[c][i] } }
        var pending = changes[...]
        var start = 0
        buffer.withUnsafeMutableBufferPointer { b in
            while start < frames {
                let n = min(blockSize, frames - start)
                while let change = pending.first, change.frame < Int64(start + n) {
                    #expect(engine.controls.trySend(change))
                    pending.removeFirst()
                }
                let block = b.baseAddress! + start * channels
                engine.process(interleaved: block, output: block, frames: n)
                start += n
            }
        }
        let output = (0..<channels).map { c in (0..<frames).map { buffer[$0 * channels + c] } }
        return (output, engine.telemetry.snapshot())
    }

    @Test("interleaved blocks give the output and meters of separate buffers",
          arguments: [1, 2, 3, 4, 5, 6, 9])
    func sameAsSeparate(channels: Int) {
        let input = (0..<channels).map { Signal.noise(frames: 5_000, seed: UInt64(20 + $0), amplitude: 0.9) }
        let harness = EngineHarness(channels: channels, maxFrames: 128)
        let expected = harness.run(input, blockSize: 300, changes: EngineTests.timeline)
        // maxFrames below the block size: blocks are split, and each piece must start at the
        // right frame of the interleaved buffer.
        let (output, telemetry) = Self.renderInterleaved(input, blockSize: 300, maxFrames: 128,
                                                         changes: EngineTests.timeline)
        for c in 0..<channels { #expect(output[c] == expected[c], "channel \(c) of \(channels)") }
        let reference = harness.engine.telemetry.snapshot()
        #expect(telemetry.peaks == reference.peaks)
        #expect(telemetry.rms(since: nil) == reference.rms(since: nil))
        #expect(telemetry.framesProcessed == 5_000)
    }
}
