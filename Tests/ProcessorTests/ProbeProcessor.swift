import AudioEngine
import Parameters

/// A test-only processor of another shape than the built-in: seven parameters of every kind
/// (continuous linear and logarithmic, a percentage, a level, a toggle, an integer and a
/// labelled enumeration). Its audio code writes, on channel `c`, the value of parameter
/// `c mod 7` as the engine passed it for that frame, so a render shows exactly what the
/// processor was given and when. Nothing outside this file knows it exists: every front end
/// reads its table.
enum ProbeProcessor {
    static let identifier = "test:probe"

    static let table = try! ParameterTable([
        ParameterSpec(id: "level", name: "Level", unit: .none, range: 0...1, taper: .linear,
                      defaultValue: 0.5, smoothing: .linear),
        ParameterSpec(id: "freq", name: "Freq", unit: .hertz, range: 20...20_000, taper: .logarithmic,
                      defaultValue: 440, smoothing: .multiplicative),
        ParameterSpec(id: "mix", name: "Mix", unit: .percent, range: 0...100, taper: .linear,
                      defaultValue: 50, smoothing: .linear),
        ParameterSpec(id: "drive", name: "Drive", unit: .decibels, range: -24...24, taper: .linear,
                      defaultValue: 0, smoothing: .linear),
        ParameterSpec(id: "bypass", name: "Bypass", unit: .none, range: 0...1, taper: .linear,
                      defaultValue: 0, smoothing: .linear, kind: .toggle),
        ParameterSpec(id: "voices", name: "Voices", unit: .none, range: 1...8, taper: .linear,
                      defaultValue: 4, smoothing: .linear, kind: .integer),
        ParameterSpec(id: "mode", name: "Mode", unit: .none, range: 0...2, taper: .linear,
                      defaultValue: 0, smoothing: .linear,
                      kind: .enumeration([ScalePoint(0, "Low"), ScalePoint(1, "Band"), ScalePoint(2, "High")])),
    ])

    static let processor = Processor(identifier: identifier, name: "Probe", table: table) { _, _, _ in
        PreparedKernel(kernel: ExternalKernel(context: nil, run: { _, controls, _, outputs, channels, frames in
            for c in 0..<channels {
                for i in 0..<frames { outputs[c][i] = controls[c % 7] }
            }
        }), owner: nil)
    }

    /// `frames` frames of `channels` channels through `engine`, in blocks of `block`, with
    /// `events[k]` given as events with the block holding their frame.
    static func render(_ engine: Engine, channels: Int = 7, frames: Int, block: Int,
                       events: [ParameterChange] = []) -> [[Float]] {
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: channels * frames)
        defer { buffer.deallocate() }
        buffer.initialize(repeating: .nan, count: channels * frames)
        let silence = [Float](repeating: 0, count: frames)
        var done = 0
        while done < frames {
            let n = min(block, frames - done)
            let blockEvents = events.filter { Int($0.frame) >= done && Int($0.frame) < done + n }.map { e in
                var event = e
                event.frame -= Int64(done)
                return event
            }
            silence.withUnsafeBufferPointer { s in
                var ins = [UnsafePointer<Float>](repeating: s.baseAddress! + done, count: channels)
                var outs = (0..<channels).map { buffer + $0 * frames + done }
                blockEvents.withUnsafeBufferPointer { e in engine.process(input: &ins, output: &outs, frames: n, events: e) }
            }
            done += n
        }
        let output = (0..<channels).map { c in Array(UnsafeBufferPointer(start: buffer + c * frames, count: frames)) }
        return output
    }
}
