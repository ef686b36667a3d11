@testable import AudioEngine
import Glibc
import Parameters
import TestSupport
import Testing

/// A live chain edit: a successor engine takes over from a running one at a block boundary,
/// slots that stay carry on untouched, a slot added or removed crossfades with its input.
@Suite("Chain edits while running")
struct ChainEditTests {
    let sampleRate = 48_000.0
    let block = 256
    /// The bypass and presence crossfade, in frames.
    var fade: Int { Int((Engine.bypassFadeTime * sampleRate).rounded()) }

    /// Runs `engine` through `exchange` over `input` in blocks, offering `next` at block
    /// `offerAt`; returns the output and the frame where `next` took over (nil if never).
    func run(_ exchange: EngineExchange, _ input: [[Float]], offering next: Engine?, at offerAt: Int,
             changes: [(frame: Int, send: (Engine) -> Void)] = []) -> (output: [[Float]], tookOverAt: Int?) {
        let frames = input[0].count
        var output = input.map { _ in [Float](repeating: 0, count: frames) }
        var tookOverAt: Int?
        var start = 0
        var pending = changes[...]
        while start < frames {
            let n = min(block, frames - start)
            if start == offerAt, let next { exchange.offer(next) }
            let (pointer, tookOver) = exchange.engineForBlock()
            if tookOver { tookOverAt = start }
            let engine = Unmanaged<Engine>.fromOpaque(pointer).takeUnretainedValue()
            while let change = pending.first, change.frame < start + n {
                change.send(engine)
                pending.removeFirst()
            }
            let ins = input.map { Array($0[start..<start + n]) }
            var outs = input.map { _ in [Float](repeating: 0, count: n) }
            ins.withPointers { i in
                outs.withMutablePointers { o in engine.process(input: i, output: o, frames: n) }
            }
            for c in input.indices { output[c].replaceSubrange(start..<start + n, with: outs[c]) }
            start += n
        }
        return (output, tookOverAt)
    }

    func sine(frames: Int, hz: Double = 220) -> [Float] {
        let step = 2 * Double.pi * hz / sampleRate
        return (0..<frames).map { i -> Float in Float(0.5 * sin(step * Double(i))) }
    }

    /// The largest second difference of `signal` in `range`: a click stands out as a spike.
    func roughness(_ signal: [Float], _ range: Range<Int>) -> Float {
        range.dropFirst(2).map { abs(signal[$0] - 2 * signal[$0 - 1] + signal[$0 - 2]) }.max() ?? 0
    }

    @Test("removing the last slot fades it out, then the first carries on exactly as if alone")
    func removeLast() throws {
        let chain = try Processor.chain([("a", .lowpassGain), ("c", .lowpassGain)])
        let a = chain.slots[0], c = chain.slots[1]
        let values: [ParameterIndex: Double] = [a.row(.cutoff): 2_000, a.row(.resonance): 2, c.row(.cutoff): 300, c.row(.gain): 6]
        let engine = Engine(processor: chain, initialValues: values)
        try engine.prepare(sampleRate: sampleRate, maxFrames: block, channels: 2)
        let exchange = EngineExchange(engine)
        let frames = 20_000
        let input = [Signal.noise(frames: frames, seed: 11), Signal.noise(frames: frames, seed: 12)]
        let remaining = try Processor.chain([("a", .lowpassGain)])
        let next = try engine.successor(running: remaining, origins: [.kept(0)], values: [:])
        let offerAt = 40 * block
        let (output, tookOverAt) = run(exchange, input, offering: next, at: offerAt)
        let switched = try #require(tookOverAt)
        #expect(switched > offerAt && switched <= offerAt + fade + block)
        #expect(exchange.isRunning(next))
        // Before: the whole chain; after: slot a alone, sample for sample.
        let whole = EngineRun.reference(input, processor: chain, values: values, blockSize: block)
        let alone = EngineRun.reference(input, processor: .lowpassGain, values: [.cutoff: 2_000, .resonance: 2], blockSize: block)
        for ch in 0..<2 {
            #expect(Array(output[ch][..<offerAt]) == Array(whole[ch][..<offerAt]))
            #expect(Array(output[ch][switched...]) == Array(alone[ch][switched...]))
        }
    }

    @Test("adding a slot after a single processor fades it in; before, the processor alone, after, both in series")
    func addAfterSingle() throws {
        let values: [ParameterIndex: Double] = [.cutoff: 5_000, .gain: -3]
        let engine = Engine(processor: .lowpassGain, initialValues: values)
        try engine.prepare(sampleRate: sampleRate, maxFrames: block, channels: 1)
        let exchange = EngineExchange(engine)
        let chain = try Processor.chain([("a", .lowpassGain), ("c", .lowpassGain)])
        let c = chain.slots[1]
        let added: [ParameterIndex: Double] = [c.row(.cutoff): 800, c.row(.resonance): 3]
        let next = try engine.successor(running: chain, origins: [.kept(0), .added], values: added)
        let frames = 16_384
        let input = [Signal.noise(frames: frames, seed: 21)]
        let offerAt = 16 * block
        let (output, tookOverAt) = run(exchange, input, offering: next, at: offerAt)
        #expect(tookOverAt == offerAt)  // nothing to fade out first
        // The kept slot's values carried over under their new ids.
        #expect(next.currentValue(chain.slots[0].row(.cutoff)) == 5_000)
        let first = EngineRun.reference(input, processor: .lowpassGain, values: values, blockSize: block)
        #expect(Array(output[0][..<offerAt]) == Array(first[0][..<offerAt]))
        // c starts fresh at the take-over, on what a has made; after its fade-in, exactly that.
        let tail = [Array(first[0][offerAt...])]
        let second = EngineRun.reference(tail, processor: .lowpassGain, values: [.cutoff: 800, .resonance: 3], blockSize: block)
        let after = offerAt + fade + 1
        #expect(Array(output[0][after...]) == Array(second[0][(after - offerAt)...]))
    }

    @Test("adding, removing and moving slots under a steady tone makes no click", arguments: ["add", "remove", "move"])
    func noClick(edit: String) throws {
        let chain = try Processor.chain([("a", .lowpassGain), ("b", .lowpassGain)])
        let a = chain.slots[0], b = chain.slots[1]
        let values: [ParameterIndex: Double] = [a.row(.cutoff): 4_000, b.row(.cutoff): 1_500, b.row(.gain): -6]
        let engine = Engine(processor: chain, initialValues: values)
        try engine.prepare(sampleRate: sampleRate, maxFrames: block, channels: 1)
        let exchange = EngineExchange(engine)
        let next: Engine
        switch edit {
        case "add":
            let three = try Processor.chain([("a", .lowpassGain), ("n", .lowpassGain), ("b", .lowpassGain)])
            next = try engine.successor(running: three, origins: [.kept(0), .added, .kept(1)],
                                        values: [three.slots[1].row(.cutoff): 600, three.slots[1].row(.gain): 4])
        case "remove":
            next = try engine.successor(running: try Processor.chain([("b", .lowpassGain)]), origins: [.kept(1)], values: [:])
        default:
            next = try engine.successor(running: try Processor.chain([("b", .lowpassGain), ("a", .lowpassGain)]),
                                        origins: [.moved(1), .moved(0)], values: [:])
        }
        let frames = 24_000
        let (output, tookOverAt) = run(exchange, [sine(frames: frames)], offering: next, at: 40 * block)
        _ = try #require(tookOverAt)
        let steady = roughness(output[0], 2_000..<10_000)
        let edited = roughness(output[0], 10_000..<frames)
        // A 220 Hz tone's second difference is tiny; a click's is a step the size of the signal.
        #expect(steady > 0 && edited < 2 * steady, "steady \(steady), around the edit \(edited)")
    }

    /// The largest magnitude of `signal` in `range`.
    func peak(_ signal: [Float], _ range: Range<Int>) -> Float {
        range.map { abs(signal[$0]) }.max() ?? 0
    }

    @Test("moving a slot that attenuates never swells the level: the output dips out and back in around the move",
          arguments: [-20.0, 12.0])
    func moveDoesNotSwell(gain: Double) throws {
        let chain = try Processor.chain([("a", .lowpassGain), ("b", .lowpassGain)])
        let a = chain.slots[0], b = chain.slots[1]
        let values: [ParameterIndex: Double] = [a.row(.cutoff): 20_000, a.row(.gain): gain, b.row(.cutoff): 20_000,
                                                b.row(.gain): -6]
        let engine = Engine(processor: chain, initialValues: values)
        try engine.prepare(sampleRate: sampleRate, maxFrames: block, channels: 1)
        let exchange = EngineExchange(engine)
        let edited = try chain.applying(.move("a", to: 2))
        let next = try engine.successor(running: edited.processor, origins: edited.origins, values: [:])
        let frames = 24_000, offerAt = 40 * block
        let tone = sine(frames: frames)
        let (output, tookOverAt) = run(exchange, [tone], offering: next, at: offerAt)
        let switched = try #require(tookOverAt)
        #expect(switched > offerAt && switched <= offerAt + fade + block)
        let steady = peak(output[0], 2_000..<offerAt)
        // Never louder than the chain in either order (the two are the same here), and back to
        // it one fade after the take-over.
        let around = peak(output[0], offerAt..<frames)
        #expect(around <= steady * 1.01, "steady \(steady), around the move \(around)")
        let back = switched + fade + 1
        #expect(abs(peak(output[0], back..<frames) - steady) < steady * 0.01)
        // The dip is short: silent for at most a block, no longer than two fades and a block.
        let quiet = (offerAt..<frames).filter { abs(output[0][$0]) < steady * 0.5 && abs(tone[$0]) > 0.4 }
        #expect(!quiet.isEmpty && quiet.last! - quiet.first! < 2 * fade + block)
        #expect(roughness(output[0], offerAt..<frames) < 2 * roughness(output[0], 2_000..<offerAt))
    }

    @Test("a change sent to the old engine just before the take-over lands on the new one, on its new row")
    func queuedChangeCarriesOver() throws {
        let chain = try Processor.chain([("a", .lowpassGain), ("c", .lowpassGain)])
        let engine = Engine(processor: chain)
        try engine.prepare(sampleRate: sampleRate, maxFrames: block, channels: 1)
        let exchange = EngineExchange(engine)
        let three = try Processor.chain([("n", .lowpassGain), ("a", .lowpassGain), ("c", .lowpassGain)])
        let next = try engine.successor(running: three, origins: [.added, .moved(0), .moved(1)], values: [:])
        exchange.offer(next)
        // Still fading out a and c: the change reaches the old engine's queue only.
        _ = exchange.engineForBlock()
        #expect(!exchange.isRunning(next))
        engine.controls.send(ParameterChange(chain.slots[1].row(.gain), -20))
        var blocks = 0
        while !exchange.isRunning(next) && blocks < 10 {
            let (pointer, _) = exchange.engineForBlock()
            let running = Unmanaged<Engine>.fromOpaque(pointer).takeUnretainedValue()
            let silence = [[Float](repeating: 0, count: block)]
            var out = silence
            silence.withPointers { i in out.withMutablePointers { o in running.process(input: i, output: o, frames: block) } }
            blocks += 1
        }
        #expect(exchange.isRunning(next))
        let gain = three.slots[2].row(.gain)
        // It glides there over the smoothing time from where it was.
        #expect(next.render(frames: 4_096) && next.currentValue(gain) == -20)
    }

    @Test("an edit withdrawn before it takes over leaves the old engine running with every slot back")
    func withdrawn() throws {
        let chain = try Processor.chain([("a", .lowpassGain), ("c", .lowpassGain)])
        let engine = Engine(processor: chain, initialValues: [chain.slots[1].row(.gain): -12])
        try engine.prepare(sampleRate: sampleRate, maxFrames: block, channels: 1)
        let exchange = EngineExchange(engine)
        let next = try engine.successor(running: try Processor.chain([("a", .lowpassGain)]), origins: [.kept(0)], values: [:])
        exchange.offer(next)
        _ = exchange.engineForBlock()
        #expect(exchange.withdraw(next) == .withdrawn)
        #expect(exchange.withdraw(next) == .takenOver)
        for _ in 0..<8 { _ = exchange.engineForBlock(); _ = engine.render(frames: block) }
        #expect(exchange.isRunning(engine))
        // c is back: a full-scale DC input comes out 12 dB down.
        let level = engine.renderConstant(1, frames: 8_192).last!
        #expect(abs(level - 0.2512) < 0.001)
    }

    @Test("an offer the audio thread is reading cannot be withdrawn (and freed) until it lets go")
    func withdrawWaitsForTheReader() throws {
        let chain = try Processor.chain([("a", .lowpassGain), ("c", .lowpassGain)])
        let engine = Engine(processor: chain)
        try engine.prepare(sampleRate: sampleRate, maxFrames: block, channels: 1)
        let exchange = EngineExchange(engine)
        let next = try engine.successor(running: try Processor.chain([("a", .lowpassGain)]), origins: [.kept(0)], values: [:])
        exchange.offer(next)
        // The audio thread's first step: it holds the offer while it reads the hand-over tables.
        let claimed = try #require(exchange.claimOffer())
        #expect(claimed == Unmanaged.passUnretained(next).toOpaque())
        #expect(exchange.claimOffer() == nil)
        #expect(exchange.withdraw(next) == .busy)
        exchange.releaseClaim(claimed)
        #expect(exchange.withdraw(next) == .withdrawn)
        #expect(exchange.claimOffer() == nil)
        #expect(exchange.isRunning(engine))
    }
}

extension Engine {
    /// Runs `frames` frames of silence; true (for use in expectations).
    fileprivate func render(frames: Int) -> Bool {
        _ = renderConstant(0, frames: frames)
        return true
    }

    /// The output of a constant mono input.
    fileprivate func renderConstant(_ value: Float, frames: Int) -> [Float] {
        let input = [[Float](repeating: value, count: frames)]
        var output = [[Float](repeating: 0, count: frames)]
        input.withPointers { i in output.withMutablePointers { o in process(input: i, output: o, frames: frames) } }
        return output[0]
    }
}

extension Array where Element == [Float] {
    /// Channel pointers for `Engine.process`.
    fileprivate func withPointers<R>(_ body: (UnsafePointer<UnsafePointer<Float>>) -> R) -> R {
        let buffers = map { channel in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: Swift.max(1, channel.count))
            p.initialize(from: channel, count: channel.count)
            return UnsafePointer(p)
        }
        defer { buffers.forEach { UnsafeMutablePointer(mutating: $0).deallocate() } }
        return buffers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    fileprivate mutating func withMutablePointers(_ body: (UnsafePointer<UnsafeMutablePointer<Float>>) -> Void) {
        let frames = first?.count ?? 0
        let buffers = map { _ in UnsafeMutablePointer<Float>.allocate(capacity: Swift.max(1, frames)) }
        defer { buffers.forEach { $0.deallocate() } }
        buffers.withUnsafeBufferPointer { body($0.baseAddress!) }
        for c in indices { self[c] = [Float](UnsafeBufferPointer(start: buffers[c], count: frames)) }
    }
}
