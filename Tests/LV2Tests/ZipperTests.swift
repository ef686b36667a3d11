import AudioEngine
import Parameters
import LV2
import Testing
import TestSupport

/// A plug-in control port takes one value per `run()`, so a host that writes a moving control
/// once per period (as JACK hosts do) steps through the sweep. The engine writes gliding
/// controls on its own fine grid instead. Measured here: the energy of each render's
/// difference from a render whose control moves at every sample (interval 1), for a
/// 20 Hz → 10 kHz cutoff sweep over 2 s on noise, through swh's IIR lowpasses, which write
/// their coefficients straight from the control at each `run` (plug-ins that smooth their
/// own controls, such as zam's EQs, gain nothing from this and are not the subject).
@Suite("Plug-in zipper")
struct ZipperTests {
    static let frames = 96_000
    static let period = 256

    struct Sweep {
        let uri: String
        let id: String
        let from: Double, to: Double
        let fixed: [String: Double]
        /// The control's value at frame `t` of the sweep (the smoother's path).
        func value(at t: Double, multiplicative: Bool) -> Double {
            let x = min(max(t / Double(ZipperTests.frames), 0), 1)
            return multiplicative ? from * Foundation.pow(to / from, x) : from + (to - from) * x
        }
    }

    static let sweeps = [
        Sweep(uri: "http://plugin.org.uk/swh-plugins/buttlow_iir", id: "cutoff", from: 20, to: 10_000,
              fixed: ["resonance": 1.2]),
        Sweep(uri: "http://plugin.org.uk/swh-plugins/lowpass_iir", id: "cutoff", from: 20, to: 10_000,
              fixed: ["stages": 2]),
    ]

    /// The render of `sweep` over noise: gliding on the engine's grid of `interval` frames,
    /// or (`stepped`) jumping once per 256-frame period to the sweep's value at its middle.
    static func render(_ sweep: Sweep, interval: Int, stepped: Bool = false) throws -> [Float] {
        let processor = try Processor.plugin(PluginSearch.find(sweep.uri))
        let table = processor.table
        let id = try table.index(of: sweep.id)
        var values: [ParameterIndex: Double] = [id: sweep.from]
        for (name, value) in sweep.fixed { values[try table.index(of: name)] = value }
        let multiplicative = table[id].smoothing == .multiplicative
        let engine = Engine(processor: processor, initialValues: values, queueCapacity: frames / period + 2,
                            controlInterval: interval)
        try engine.prepare(sampleRate: 48_000, maxFrames: period, channels: 1)
        var changes: [ParameterChange] = []
        if stepped {
            for start in stride(from: 0, to: frames, by: period) {
                let v = sweep.value(at: Double(start + period / 2), multiplicative: multiplicative)
                changes.append(ParameterChange(id, v, frame: Int64(start), rampFrames: 0))
            }
        } else {
            changes.append(ParameterChange(id, sweep.to, frame: 0, rampFrames: Int32(frames)))
        }
        let input = [Signal.noise(frames: frames, seed: 11, amplitude: 0.25)]
        let (output, queued) = EngineRun.render(engine, input, blockSize: period, changes: changes)
        #expect(queued)
        return output[0]
    }

    static func energy(_ a: [Float], minus b: [Float]) -> Double {
        var sum = 0.0
        for i in a.indices { let d = Double(a[i]) - Double(b[i]); sum += d * d }
        return sum
    }

    @Test("host smoothing leaves at least 20 dB less zipper than one step per 256-frame period",
          arguments: sweeps.indices)
    func zipper(index: Int) throws {
        let sweep = Self.sweeps[index]
        let ideal = try Self.render(sweep, interval: 1)
        let smoothed = try Self.render(sweep, interval: Int(Engine.externalInterval))
        let stepped = try Self.render(sweep, interval: 1, stepped: true)
        let stepError = Self.energy(stepped, minus: ideal), smoothError = Self.energy(smoothed, minus: ideal)
        #expect(stepError > 0 && smoothError > 0, "the sweep must move the plug-in")
        let improvement = 10 * Foundation.log10(stepError / smoothError)
        #expect(improvement >= 20, "\(sweep.uri): \(improvement) dB")
    }
}

import Foundation
