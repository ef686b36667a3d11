import AudioEngine
import Parameters
import Synchronization
import Testing

/// A plug-in is made (and activated) with the values the engine starts from, not its
/// defaults: swh's delays size their line by their maximum delay then, so `--set max_delay=0`
/// must be there already, as it is for every later reactivation.
@Suite struct ActivationValuesTests {
    static let table = try! ParameterTable([
        ParameterSpec(id: "size", name: "Size", unit: .none, range: 0...10, taper: .linear, defaultValue: 1, smoothing: .linear),
        ParameterSpec(id: "mode", name: "Mode", unit: .none, range: 0...1, taper: .linear, defaultValue: 0, smoothing: .none,
                      kind: .toggle),
    ])

    /// What each kernel was made with, in order.
    final class Seen: Sendable {
        let values = Mutex<[[Double]?]>([])
    }

    /// A processor that records the starting values each kernel is made with.
    static func recording(into seen: Seen) -> Processor {
        Processor(identifier: "test:records-activation", name: "Records", table: table) { format in
            seen.values.withLock { $0.append(format.startingValues) }
            return PreparedKernel(kernel: ExternalKernel(context: nil, run: { _, _, inputs, outputs, channels, frames in
                for c in 0..<channels { outputs[c].update(from: inputs[c], count: frames) }
            }), owner: nil)
        }
    }

    @Test("a processor alone and in a chain is made with the values it starts from")
    func startingValuesReachTheKernel() throws {
        let seen = Seen()
        let alone = Self.recording(into: seen)
        let engine = Engine(processor: alone, initialValues: [ParameterIndex(0): 0, ParameterIndex(1): 1])
        try engine.prepare(sampleRate: 48_000, maxFrames: 256, channels: 2)
        let chain = try Processor.chain([("a", Self.recording(into: seen)), ("b", Self.recording(into: seen))])
        let b = chain.slots[1]
        let chained = Engine(processor: chain, initialValues: [b.row(ParameterIndex(0)): 7.5])
        try chained.prepare(sampleRate: 48_000, maxFrames: 256, channels: 1)
        #expect(seen.values.withLock { $0 } == [[0, 1], [1, 0], [7.5, 0]])
    }
}
