import AudioEngine
import Parameters
import Testing
import TestSupport

/// A test processor with latency: each channel delayed by `latency` frames, times `level`;
/// it reports the latency as a plug-in does, so a chain's bypass must line up with it.
private final class DelayLine: KernelReports, @unchecked Sendable {
    static let table = try! ParameterTable([
        ParameterSpec(id: "level", name: "Level", unit: .none, range: 0...1, taper: .linear,
                      defaultValue: 1, smoothing: .linear),
    ])

    static func processor(latency: Int) -> Processor {
        Processor(identifier: "test:delay-\(latency)", name: "Delay \(latency)", table: table) { format in
            let line = DelayLine(latency: latency, channels: format.channels)
            return PreparedKernel(kernel: ExternalKernel(context: line.state, run: { context, controls, inputs, outputs, channels, frames in
                let state = context!.assumingMemoryBound(to: Int.self)
                let latency = state[0]
                let rings = UnsafeMutableRawPointer(state + 2).assumingMemoryBound(to: Float.self)
                for c in 0..<channels {
                    var k = state[1]
                    for i in 0..<frames {
                        let ring = rings + c * latency
                        let x = inputs[c][i]
                        outputs[c][i] = ring[k] * controls[0]
                        ring[k] = x
                        k = (k + 1) % latency
                    }
                    if c == channels - 1 { state[1] = k }
                }
            }, reset: { context in
                let state = context!.assumingMemoryBound(to: Int.self)
                let rings = UnsafeMutableRawPointer(state + 2).assumingMemoryBound(to: Float.self)
                rings.update(repeating: 0, count: state[0] * 8)
                state[1] = 0
            }), owner: line)
        }
    }

    let state: UnsafeMutableRawPointer
    let latency: Int

    init(latency: Int, channels: Int) {
        precondition(channels <= 8)
        self.latency = latency
        state = .allocate(byteCount: 16 + latency * 8 * 4, alignment: 8)
        state.initializeMemory(as: UInt8.self, repeating: 0, count: 16 + latency * 8 * 4)
        state.storeBytes(of: latency, as: Int.self)
    }

    deinit { state.deallocate() }

    func takeMessages() -> [String] { [] }
    var outputValues: [OutputValue] { [] }
}

@Suite("Chains")
struct ChainTests {
    let sampleRate = 48_000.0

    @Test("a chain's table joins its slots' rows as SLOT.ID, each slot's bypass and mix first, even for one part")
    func table() throws {
        let chain = try Processor.chain([("lp", .lowpassGain), ("out", .lowpassGain)])
        #expect(chain.table.textIDs == ["lp.bypass", "lp.mix", "lp.cutoff", "lp.resonance", "lp.gain",
                                         "out.bypass", "out.mix", "out.cutoff", "out.resonance", "out.gain"])
        #expect(chain.slots.map(\.name) == ["lp", "out"])
        #expect(chain.slots[1].first == ParameterIndex(7) && chain.slots[1].bypass == ParameterIndex(5)
            && chain.slots[1].mix == ParameterIndex(6))
        let mix = chain.table[chain.slots[0].mix]
        #expect(mix.unit == .percent && mix.range == 0...100 && mix.defaultValue == 100 && mix.smoothing == .linear)
        // A controller number turns one knob: the first slot's.
        #expect(chain.table.specs.compactMap(\.midiController) == [74, 71, 7])
        #expect(chain.table[try chain.table.index(of: "out.gain")].glidesInAmplitude)
        #expect(chain.table[try chain.table.index(of: "lp.bypass")].kind == .toggle)
        #expect(Processor.chainParts(of: chain.identifier)!.map(\.name) == ["lp", "out"])
        #expect(Processor.chainParts(of: chain.identifier)!.map(\.identifier) == [LowpassGain.identifier, LowpassGain.identifier])
        let single = try Processor.chain([("eq", .lowpassGain)])
        #expect(single.table.textIDs == ["eq.bypass", "eq.mix", "eq.cutoff", "eq.resonance", "eq.gain"] && single.slots.count == 1)
    }

    @Test("a chain with no slots, a bad or repeated slot name, or a chain inside is refused, naming the slot")
    func refused() throws {
        #expect(throws: ChainError.empty) { try Processor.chain([]) }
        #expect(throws: ChainError.duplicateName("A")) { try Processor.chain([("a", .lowpassGain), ("A", .lowpassGain)]) }
        #expect(throws: ChainError.badName("a.b")) { try Processor.chain([("a.b", .lowpassGain), ("c", .lowpassGain)]) }
        #expect(throws: ChainError.badName("")) { try Processor.chain([("", .lowpassGain), ("c", .lowpassGain)]) }
        let inner = try Processor.chain([("a", .lowpassGain), ("b", .lowpassGain)])
        #expect(throws: ChainError.nested("x")) { try Processor.chain([("x", inner), ("c", .lowpassGain)]) }
    }

    @Test("two built-ins in a chain sound exactly as one rendered after the other, controls fixed or moving in both, for any blocks",
          arguments: [1, 64, 256, 1000, 4096])
    func builtInsInSeries(block: Int) throws {
        let frames = 12_000
        let input = [Signal.noise(frames: frames, seed: 3), Signal.noise(frames: frames, seed: 4)]
        let first: [ParameterIndex: Double] = [.cutoff: 3_000, .resonance: 4, .gain: -3]
        let second: [ParameterIndex: Double] = [.cutoff: 500, .resonance: 0.7, .gain: 6]
        let firstChanges = [ParameterChange(.cutoff, 200, frame: 1_000), ParameterChange(.gain, -20, frame: 5_003)]
        let secondChanges = [ParameterChange(.cutoff, 8_000, frame: 2_500), ParameterChange(.resonance, 9, frame: 7_777)]
        let one = EngineRun.reference(input, values: first, changes: firstChanges)
        let expected = EngineRun.reference(one, values: second, changes: secondChanges)

        let chain = try Processor.chain([("a", .lowpassGain), ("b", .lowpassGain)])
        let a = chain.slots[0], b = chain.slots[1]
        var values: [ParameterIndex: Double] = [:]
        for (id, v) in first { values[a.row(id)] = v }
        for (id, v) in second { values[b.row(id)] = v }
        let changes = firstChanges.map { ParameterChange(a.row($0.parameter), $0.value, frame: $0.frame) }
            + secondChanges.map { ParameterChange(b.row($0.parameter), $0.value, frame: $0.frame) }
        let output = EngineRun.reference(input, processor: chain, values: values, blockSize: block, changes: changes)
        #expect(output == expected)
    }

    @Test("a chain's meters read its output, whether its last slot is bypassed or not", arguments: [0.0, 1.0])
    func meters(lastBypassed: Double) throws {
        let chain = try Processor.chain([("a", .lowpassGain), ("b", .lowpassGain)])
        let engine = Engine(processor: chain, initialValues: [chain.slots[1].bypass: lastBypassed, chain.slots[1].row(.gain): -12])
        try engine.prepare(sampleRate: sampleRate, maxFrames: 512, channels: 2)
        let input = [Signal.noise(frames: 5_000, seed: 5), Signal.noise(frames: 5_000, seed: 6)]
        let output = EngineRun.render(engine, input, blockSize: 512).output
        let snapshot = engine.telemetry.snapshot()
        for c in 0..<2 {
            let peak = output[c].map(abs).max()!
            let squares = output[c].reduce(0.0) { $0 + Double($1) * Double($1) }
            #expect(abs(snapshot.peaks[c] - peak) < 1e-6)
            #expect(abs(snapshot.sumOfSquares[c] - squares) < 1e-3 * squares)
        }
    }

    @Test("a chain's latency is the sum of its slots'; a bypassed slot passes its input delayed by its own latency, for blocks shorter or longer than it",
          arguments: [16, 256])
    func bypassKeepsTiming(block: Int) throws {
        let chain = try Processor.chain([("d", DelayLine.processor(latency: 100)), ("e", DelayLine.processor(latency: 37))])
        let engine = Engine(processor: chain, initialValues: [
            chain.slots[0].bypass: 1, chain.slots[0].row(ParameterIndex(0)): 0.5, chain.slots[1].row(ParameterIndex(0)): 0.25])
        try engine.prepare(sampleRate: sampleRate, maxFrames: 256, channels: 1)
        #expect(engine.latencyAtCurrentValues() == 137)
        let input = Signal.noise(frames: 4_000, seed: 9)
        let output = EngineRun.render(engine, [input], blockSize: block).output[0]
        // d bypassed: its input, 100 frames later; then e at level 0.25, 37 more.
        for i in 137..<4_000 { #expect(abs(output[i] - 0.25 * input[i - 137]) < 1e-6) }
        #expect(output[0..<137].allSatisfy { $0 == 0 })
    }

    @Test("switching a slot's bypass crossfades in 10 ms with no click, at the frame it was asked for, live as offline")
    func bypassWithoutClick() throws {
        let chain = try Processor.chain([("d", DelayLine.processor(latency: 64)), ("b", .lowpassGain)])
        let frames = 24_000
        let input = Signal.sine(frequency: 220, frames: frames)
        let values: [ParameterIndex: Double] = [chain.slots[0].row(ParameterIndex(0)): 0.2, chain.slots[1].row(.cutoff): 20_000]
        let changes = [ParameterChange(ParameterIndex(0), 1, frame: 6_000), ParameterChange(ParameterIndex(0), 0, frame: 15_000)]
        let output = EngineRun.reference([input], processor: chain, values: values, blockSize: 256, changes: changes)[0]
        #expect(output == EngineRun.reference([input], processor: chain, values: values, blockSize: 97, changes: changes)[0])
        #expect(output == EngineRun.reference([input], processor: chain, values: values, blockSize: 5, changes: changes)[0])
        let secondDifference: [Float] = (2..<frames).map { (i: Int) -> Float in
            let d: Float = output[i] - 2 * output[i - 1] + output[i - 2]
            return abs(d)
        }
        let steady = secondDifference[2_000..<5_000].max()! / 0.2  // the sine's own, at full level
        // (From frame 1000: the sine's first sample, out of the delay, starts with a kink of its own.)
        // The sine fade's corners leave at most a small bend; a hard switch at the same frames
        // (the slot's output, then its delayed input) is what a click looks like.
        #expect(secondDifference[1_000...].max()! < 3 * steady)
        var bypassed = values
        bypassed[ParameterIndex(0)] = 1
        let dry = EngineRun.reference([input], processor: chain, values: bypassed, blockSize: 256)[0]
        let wetAll = EngineRun.reference([input], processor: chain, values: values, blockSize: 256)[0]
        let hard = (0..<frames).map { $0 >= 6_000 && $0 < 15_000 ? dry[$0] : wetAll[$0] }
        let hardSecond: [Float] = (1_000..<frames).map { (i: Int) -> Float in abs(hard[i] - 2 * hard[i - 1] + hard[i - 2]) }
        #expect(hardSecond.max()! > 20 * steady)
        // Before the switch, the slot's output (level 0.2); 10 ms after, its delayed input.
        let fade = Int(Engine.bypassFadeTime * sampleRate)
        let peakBefore = output[4_000..<6_000].map(abs).max()!, peakAfter = output[(6_000 + fade)..<14_000].map(abs).max()!
        #expect(abs(peakBefore - 0.2 * 0.5) < 0.01 && abs(peakAfter - 0.5) < 0.01)
        // And the crossfade starts exactly at the frame: the sample before it is all slot output.
        let wet = EngineRun.reference([input], processor: chain, values: values, blockSize: 256)[0]
        #expect(output[..<6_000] == wet[..<6_000])
        #expect(output[6_001] != wet[6_001])
    }

    @Test("switching a transparent slot's bypass keeps the level: the fade's gains sum to one")
    func bypassOfATransparentSlotStaysLevel() throws {
        let chain = try Processor.chain([("d", DelayLine.processor(latency: 64))])
        let input = Signal.sine(frequency: 220, frames: 24_000)
        let values: [ParameterIndex: Double] = [chain.slots[0].row(ParameterIndex(0)): 1]
        let changes = [ParameterChange(ParameterIndex(0), 1, frame: 6_000), ParameterChange(ParameterIndex(0), 0, frame: 15_000)]
        let output = EngineRun.reference([input], processor: chain, values: values, blockSize: 256, changes: changes)[0]
        // An equal-power fade between the slot's output and its own delayed input, which are
        // the same here, peaks at √2 × 0.5 in the middle of each fade.
        #expect(output.map(abs).max()! <= 0.5 * 1.0001)
        #expect(output[5_000..<24_000].map(abs).max()! >= 0.499)
    }

    @Test("a slot's mix blends its input, delayed by its latency, with its output: linearly, whatever the blocks")
    func mixBlendsAlignedInput() throws {
        let chain = try Processor.chain([("d", DelayLine.processor(latency: 64)), ("e", DelayLine.processor(latency: 1))])
        let d = chain.slots[0], e = chain.slots[1]
        let input = Signal.noise(frames: 6_000, seed: 21)
        let values: [ParameterIndex: Double] = [d.row(ParameterIndex(0)): 0.2, d.mix: 50, e.mix: 25]
        let output = EngineRun.reference([input], processor: chain, values: values, blockSize: 256)[0]
        // d: half of 0.2 × its input 64 frames late, half its input as late; e: a quarter of
        // that one frame late, three quarters of it as late.
        for i in 65..<6_000 { #expect(abs(output[i] - 0.6 * input[i - 65]) < 1e-6) }
        #expect(output == EngineRun.reference([input], processor: chain, values: values, blockSize: 7)[0])
        var dry = values
        dry[d.mix] = 0
        dry[e.mix] = 0
        var bypassed = values
        bypassed[d.bypass] = 1
        bypassed[e.bypass] = 1
        #expect(EngineRun.reference([input], processor: chain, values: dry, blockSize: 256)[0]
            == EngineRun.reference([input], processor: chain, values: bypassed, blockSize: 256)[0])
    }

    @Test("a moved mix glides from its value to the new one, with no step")
    func mixGlides() throws {
        let chain = try Processor.chain([("d", DelayLine.processor(latency: 16))])
        let d = chain.slots[0]
        let input = [Float](repeating: 0.5, count: 12_000)
        let values: [ParameterIndex: Double] = [d.row(ParameterIndex(0)): 0]
        let changes = [ParameterChange(d.mix, 0, frame: 4_000)]
        let output = EngineRun.reference([input], processor: chain, values: values, blockSize: 256, changes: changes)[0]
        // Level 0: the output is the dry share alone, from 0 before the change to 0.5 after
        // the glide, each step no larger than the glide's.
        #expect(output[1_000..<4_000].allSatisfy { $0 == 0 })
        #expect(output[6_000..<12_000].allSatisfy { abs($0 - 0.5) < 1e-6 })
        let steps = (4_000..<6_000).map { abs(output[$0] - output[$0 - 1]) }
        #expect(steps.max()! < 0.5 / 1_000)
    }
}
