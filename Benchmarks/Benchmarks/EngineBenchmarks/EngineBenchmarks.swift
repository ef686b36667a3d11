import Benchmark
import AudioEngine
import Parameters
import ReferenceSVF

/// Stereo blocks of 256 frames: a common JACK period. Each benchmark iteration is one block,
/// so throughput × 256 is frames per second.
let frames = 256
let channels = 2

/// Buffers shared by every benchmark: noise in, scratch out.
final class Buffers: @unchecked Sendable {
    let input: [UnsafeMutablePointer<Float>]
    let output: [UnsafeMutablePointer<Float>]
    let inputTable: UnsafeMutablePointer<UnsafePointer<Float>>
    let outputTable: UnsafeMutablePointer<UnsafeMutablePointer<Float>>

    init() {
        var seed: UInt32 = 1
        input = (0..<channels).map { _ in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: frames)
            for i in 0..<frames {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                p[i] = Float(seed >> 8) / Float(1 << 24) * 2 - 1
            }
            return p
        }
        output = (0..<channels).map { _ in .allocate(capacity: frames) }
        inputTable = .allocate(capacity: channels)
        outputTable = .allocate(capacity: channels)
        for c in 0..<channels {
            inputTable[c] = UnsafePointer(input[c])
            outputTable[c] = output[c]
        }
    }
}

let buffers = Buffers()

func makeEngine() -> Engine {
    let engine = Engine(initialValues: [.cutoff: 1_000, .resonance: 0.707, .gain: -6])
    try! engine.prepare(sampleRate: 48_000, maxFrames: frames, channels: channels)
    return engine
}

let benchmarks: @Sendable () -> Void = {
    let metrics: [BenchmarkMetric] = [.throughput, .wallClock, .mallocCountTotal, .instructions]
    let configuration = Benchmark.Configuration(metrics: metrics, scalingFactor: .kilo, maxDuration: .seconds(3))

    // The engine with settled parameters.
    Benchmark("Engine steady, 256×2", configuration: configuration) { benchmark in
        let engine = makeEngine()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            engine.process(input: buffers.inputTable, output: buffers.outputTable, frames: frames)
        }
        benchmark.stopMeasurement()
        blackHole(buffers.output[0][0])
    }

    // The engine while every parameter glides (ramps far longer than the run), so each frame
    // steps three smoothers and coefficients are refreshed every 8 frames.
    Benchmark("Engine smoothing all parameters, 256×2", configuration: configuration) { benchmark in
        let engine = makeEngine()
        let long = Int32.max / 2
        engine.controls.send(ParameterChange(.cutoff, 20_000, rampFrames: long))
        engine.controls.send(ParameterChange(.resonance, 10, rampFrames: long))
        engine.controls.send(ParameterChange(.gain, 12, rampFrames: long))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            engine.process(input: buffers.inputTable, output: buffers.outputTable, frames: frames)
        }
        benchmark.stopMeasurement()
        blackHole(buffers.output[0][0])
    }

    // The peer: the plain scalar C loop with the same coefficients.
    Benchmark("Reference scalar SVF (C, -O3), 256×2", configuration: configuration) { benchmark in
        // Simper's coefficients, for his form of the tick.
        let (g, k) = Lowpass.prototype(cutoff: 1_000, q: 0.707, sampleRate: 48_000)
        let a1 = 1 / (1 + g * (g + k)), a2 = g * a1, a3 = g * a2
        // −6 dB as the amplitude the gain stage multiplies by.
        let gain = Float(RealtimeMath.exp2(-6.0 / 20 * RealtimeMath.log2Of10))
        var states = [reference_svf_state](repeating: reference_svf_state(ic1: 0, ic2: 0), count: channels)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            reference_svf_process(
                UnsafePointer(buffers.inputTable).withMemoryRebound(to: UnsafePointer<Float>?.self, capacity: channels) { $0 },
                UnsafePointer(buffers.outputTable).withMemoryRebound(to: UnsafeMutablePointer<Float>?.self, capacity: channels) { $0 },
                Int32(channels), Int32(frames), Float(a1), Float(a2), Float(a3), gain, &states)
        }
        benchmark.stopMeasurement()
        blackHole(buffers.output[0][0])
    }
}
