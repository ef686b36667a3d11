@testable import AudioEngine
import Glibc
import Parameters
import TestSupport
import Testing

/// A live graph edit: slots and connections added and taken away while the engine runs. What
/// changes fades; what stays carries on, sample for sample.
@Suite("Graph edits while running")
struct GraphEditTests {
    let edits = ChainEditTests()
    var block: Int { edits.block }
    var fade: Int { edits.fade }
    let frames = 20_000
    var offerAt: Int { 40 * block }

    /// Built-in slots named `slots`, wired by `wires`.
    func graph(_ slots: [String], _ wires: [(String, String)]) throws -> Processor {
        let (order, routing) = try Processor.routing(slots: slots, connections: wires, sideInputs: slots.map { _ in 0 })
        return try Processor.graph(order.map { (slots[$0], Processor.lowpassGain) }, routing: routing)
    }

    /// The rows of slot `name` of `processor` set to `cutoff` and `gain`.
    func values(_ processor: Processor, _ name: String, cutoff: Double, gain: Double = 0) -> [ParameterIndex: Double] {
        let slot = processor.slots.first { $0.name == name }!
        return [slot.row(.cutoff): cutoff, slot.row(.gain): gain]
    }

    /// Runs `processor` (with `values`) over `input`, offering the edit's successor at `offerAt`.
    func edit(_ processor: Processor, _ values: [ParameterIndex: Double], _ edit: ChainEdit, input: [[Float]],
              newValues: (Processor) -> [ParameterIndex: Double] = { _ in [:] }) throws
        -> (output: [[Float]], switched: Int, edited: EditedChain) {
        let engine = Engine(processor: processor, initialValues: values)
        try engine.prepare(sampleRate: edits.sampleRate, maxFrames: block, channels: input.count)
        let exchange = EngineExchange(engine)
        let edited = try processor.applying(edit)
        let next = try engine.successor(running: edited.processor, origins: edited.origins, values: newValues(edited.processor),
                                        arriving: edited.arriving, staying: edited.staying, unfaded: edited.unfaded)
        let (output, tookOverAt) = edits.run(exchange, input, offering: next, at: offerAt)
        let switched = try #require(tookOverAt)
        #expect(exchange.isRunning(next))
        return (output, switched, edited)
    }

    func alone(_ input: [[Float]], cutoff: Double, gain: Double = 0) -> [[Float]] {
        EngineRun.reference(input, processor: .lowpassGain, values: [.cutoff: cutoff, .gain: gain], blockSize: block)
    }

    func maxDifference(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>) -> Float {
        zip(a, b).map { abs($0 - $1) }.max() ?? 0
    }

    @Test("a slot put on a connection fades in from passing it on; then the line runs through it")
    func insertOnConnection() throws {
        let before = try graph(["a"], [("input", "a"), ("a", "output")])
        let input = [Signal.noise(frames: frames, seed: 31)]
        let (output, switched, edited) = try edit(before, values(before, "a", cutoff: 3_000),
                                                  .insert(name: "b", processor: .lowpassGain, from: "a", to: "output"), input: input,
                                                  newValues: { values($0, "b", cutoff: 700, gain: 4) })
        #expect(switched == offerAt)  // nothing to fade out first
        #expect(edited.processor.identifier.hasSuffix("| input>a a>b b>output"))
        let first = alone(input, cutoff: 3_000)
        #expect(Array(output[0][..<offerAt]) == Array(first[0][..<offerAt]))
        let second = alone([Array(first[0][offerAt...])], cutoff: 700, gain: 4)
        let after = offerAt + fade + 1
        #expect(Array(output[0][after...]) == Array(second[0][(after - offerAt)...]))
    }

    @Test("a slot added as a new branch plays at once and its connections fade in: then the two branches summed")
    func newBranch() throws {
        let before = try graph(["a"], [("input", "a"), ("a", "output")])
        let input = [Signal.noise(frames: frames, seed: 32)]
        let (output, switched, edited) = try edit(before, values(before, "a", cutoff: 3_000),
                                                  .insert(name: "b", processor: .lowpassGain, from: "input", to: "output"), input: input,
                                                  newValues: { values($0, "b", cutoff: 500, gain: -3) })
        #expect(switched == offerAt)
        #expect(edited.origins.contains(.joined))
        let a = alone(input, cutoff: 3_000)
        // b's input fades in too (raised cosine), so that nothing in the branch starts with a step.
        let fadingIn = input[0][offerAt...].enumerated().map { i, x -> Float in
            let g = Float(sin(Double.pi / 2 * Double(min(i, fade)) / Double(fade)))
            return x * (g * g)
        }
        let b = alone([fadingIn], cutoff: 500, gain: -3)
        let after = offerAt + fade + 1
        let sum = (after..<frames).map { a[0][$0] + b[0][$0 - offerAt] }
        #expect(maxDifference(output[0][after...], sum[...]) < 1e-6)
    }

    @Test("a slot taken out fades to passing its input on; then its sources go straight on")
    func removeBridges() throws {
        let before = try graph(["a", "b"], [("input", "a"), ("a", "b"), ("b", "output")])
        let input = [Signal.noise(frames: frames, seed: 33)]
        let (output, switched, edited) = try edit(before, values(before, "a", cutoff: 2_000).merging(values(before, "b", cutoff: 300)) { $1 },
                                                  .remove("b"), input: input)
        #expect(switched > offerAt && switched <= offerAt + fade + block)
        #expect(edited.processor.identifier.hasSuffix("| input>a a>output"))
        let a = alone(input, cutoff: 2_000)
        #expect(Array(output[0][switched...]) == Array(a[0][switched...]))
    }

    @Test("a parallel branch taken out plays on while its connection fades out, with no dry signal let through")
    func removeBranch() throws {
        let before = try graph(["a", "b"], [("input", "a"), ("input", "b"), ("a", "output"), ("b", "output")])
        let input = [Signal.noise(frames: frames, seed: 35)]
        let (output, switched, edited) = try edit(before, values(before, "a", cutoff: 2_000).merging(values(before, "b", cutoff: 200, gain: 6)) { $1 },
                                                  .remove("b"), input: input)
        #expect(edited.processor.identifier.hasSuffix("| input>a a>output"))
        #expect(switched > offerAt && switched <= offerAt + fade + block)
        let a = alone(input, cutoff: 2_000), b = alone(input, cutoff: 200, gain: 6)
        #expect(Array(output[0][switched...]) == Array(a[0][switched...]))
        // While it fades: a plus a falling share of b (fed as before), never of the input.
        var last: Float = 1
        for i in offerAt..<switched where abs(b[0][i]) > 1e-3 {
            let share = (output[0][i] - a[0][i]) / b[0][i]
            #expect(share > -1e-3 && share < last + 1e-3, "frame \(i - offerAt): \(share) of b")
            last = share
        }
    }

    @Test("a connection taken away fades out; one made fades in", arguments: ["disconnect", "connect"])
    func connections(way: String) throws {
        // a feeds b, and (with the connection) the output beside b.
        let series: [(String, String)] = [("input", "a"), ("a", "b"), ("b", "output")]
        let before = try graph(["a", "b"], way == "disconnect" ? series + [("a", "output")] : series)
        let values = values(before, "a", cutoff: 2_500, gain: -2).merging(values(before, "b", cutoff: 400, gain: 3)) { $1 }
        let input = [Signal.noise(frames: frames, seed: 34)]
        let change: ChainEdit = way == "disconnect" ? .disconnect(from: "a", to: "output") : .connect(from: "a", to: "output")
        let (output, switched, _) = try edit(before, values, change, input: input)
        let a = alone(input, cutoff: 2_500, gain: -2)
        let ab = alone(a, cutoff: 400, gain: 3)
        let expected = way == "disconnect" ? ab[0] : zip(ab[0], a[0]).map { $1 + $0 }
        let settled = (way == "disconnect" ? switched : offerAt + fade + 1)
        #expect(maxDifference(output[0][settled...], expected[settled...]) < 1e-6)
        // Before the edit: the graph as it was.
        let wasExpected = way == "disconnect" ? zip(ab[0], a[0]).map { $1 + $0 } : ab[0]
        #expect(maxDifference(output[0][..<offerAt], wasExpected[..<offerAt]) < 1e-6)
    }

    @Test("a chain wired becomes its line's graph, edited: its slots carry on, the connection fades in")
    func chainWiredBecomesAGraph() throws {
        let before = try Processor.chain([("a", .lowpassGain), ("b", .lowpassGain)])
        let values = values(before, "a", cutoff: 2_500, gain: -2).merging(values(before, "b", cutoff: 400, gain: 3)) { $1 }
        let input = [Signal.noise(frames: frames, seed: 35)]
        let (output, _, edited) = try edit(before, values, .connect(from: "a", to: "output"), input: input)
        #expect(edited.processor.routing != nil)
        #expect(edited.processor.identifier.hasSuffix("| input>a a>b b>output a>output"))
        #expect(edited.origins == [.kept(0), .kept(1)], "no slot starts again")
        #expect(edited.processor.table.indices.map { edited.processor.table[$0].id } == before.table.indices.map { before.table[$0].id },
                "the same rows, by the same ids")
        let a = alone(input, cutoff: 2_500, gain: -2)
        let ab = alone(a, cutoff: 400, gain: 3)
        // The chain until the edit, sample for sample; the graph once the connection is in.
        #expect(Array(output[0][..<offerAt]) == Array(ab[0][..<offerAt]))
        let settled = offerAt + fade + 1
        #expect(maxDifference(output[0][settled...], zip(ab[0], a[0]).map { $1 + $0 }[settled...]) < 1e-6)
    }

    @Test("edits of a graph under a steady tone make no click",
          arguments: ["insert", "branch", "remove", "connect", "disconnect", "new input"])
    func noClick(edit change: String) throws {
        let before = try graph(["a", "b"], [("input", "a"), ("input", "b"), ("a", "output"), ("b", "output")])
        let values = values(before, "a", cutoff: 4_000).merging(values(before, "b", cutoff: 1_500, gain: -6)) { $1 }
        let edit: ChainEdit = switch change {
        case "insert": .insert(name: "n", processor: .lowpassGain, from: "a", to: "output")
        case "branch": .insert(name: "n", processor: .lowpassGain, from: "a", to: "b")
        case "remove": .remove("a")
        case "connect": .connect(from: "a", to: "b")
        case "disconnect": .disconnect(from: "b", to: "output")
        default: .connect(from: "key", to: "b")
        }
        if change == "disconnect" {
            // b would have no way out: refused, with the graph unchanged.
            #expect(throws: ChainError.graph(.noPathToOutput("b"))) { try before.applying(edit) }
            return
        }
        let tone = edits.sine(frames: 24_000)
        let (output, _, _) = try self.edit(before, values, edit, input: [tone],
                                           newValues: { $0.slots.contains { $0.name == "n" } ? self.values($0, "n", cutoff: 600, gain: 4) : [:] })
        let steady = edits.roughness(output[0], 2_000..<10_000)
        let edited = edits.roughness(output[0], 10_000..<24_000)
        #expect(steady > 0 && edited < 2 * steady, "steady \(steady), around the edit \(edited)")
    }

    @Test("a slot renamed carries on sample for sample: its values, its connections and its side chain follow its name",
          arguments: ["chain", "graph"])
    func rename(shape: String) throws {
        let before = shape == "chain"
            ? try Processor.chain([("a", .lowpassGain), ("b", .lowpassGain)])
            : try graph(["a", "b"], [("input", "a"), ("input", "b"), ("a", "output"), ("b", "output")])
        let values = values(before, "a", cutoff: 2_000, gain: -3).merging(values(before, "b", cutoff: 700, gain: 2)) { $1 }
        let input = [Signal.noise(frames: frames, seed: 35)]
        let unedited = EngineRun.reference(input, processor: before, values: values, blockSize: block)
        let (output, switched, edited) = try edit(before, values, .rename("A", to: "drive"), input: input)
        #expect(switched == offerAt)  // nothing fades
        #expect(edited.processor.slots.map(\.name) == ["drive", "b"])
        #expect(edited.processor.table.find("drive.cutoff") != nil && edited.processor.table.find("a.cutoff") == nil)
        #expect(edited.carry(values)[try #require(edited.processor.table.find("drive.cutoff"))] == 2_000)
        if shape == "graph" { #expect(edited.processor.identifier.hasSuffix("| input>drive input>b drive>output b>output")) }
        #expect(output[0] == unedited[0])
        #expect(throws: ChainError.duplicateName("B")) { try before.applying(.rename("a", to: "B")) }
        #expect(throws: ChainError.badName("no good")) { try before.applying(.rename("a", to: "no good")) }
        #expect(throws: ChainError.unknownSlot("zz", ["a", "b"])) { try before.applying(.rename("zz", to: "y")) }
        // Only the case of its own name.
        #expect(try before.applying(.rename("a", to: "A")).processor.slots.map(\.name) == ["A", "b"])
    }

    @Test("another rig swapped in keeps the slots both have (same name, same processor), in place or moved; the rest is new")
    func replaced() throws {
        let ab = try Processor.chain([("a", .lowpassGain), ("b", .lowpassGain)])
        let acb = try Processor.chain([("a", .lowpassGain), ("c", .lowpassGain), ("b", .lowpassGain)])
        let swap = ab.replaced(by: acb)
        #expect(swap.origins == [.kept(0), .added, .kept(1)])
        #expect(swap.carry(values(ab, "b", cutoff: 900))[try #require(acb.table.find("b.cutoff"))] == 900)
        let ba = try Processor.chain([("b", .lowpassGain), ("a", .lowpassGain)])
        #expect(ab.replaced(by: ba).origins == [.moved(1), .moved(0)])
        // From a chain to a graph, or to a processor alone: every slot new.
        let g = try graph(["a", "b"], [("input", "a"), ("a", "b"), ("b", "output")])
        #expect(ab.replaced(by: g).origins == [.added, .added])
        #expect(g.replaced(by: try graph(["a"], [("input", "a"), ("a", "output")])).origins == [.kept(0)])
        #expect(ab.replaced(by: .lowpassGain).origins == [.added])
    }

    @Test("a renamed slot's side chain follows it")
    func renameKeepsTheSideChain() throws {
        // Only the wiring is looked at: a built-in that says it takes a side chain will do.
        var keyed = Processor.lowpassGain
        keyed.sideInputs = 1
        let parts: [(String, Processor)] = [("a", .lowpassGain), ("c", keyed)]
        let (order, routing) = try Processor.routing(slots: parts.map(\.0), connections: [
            ("input", "a"), ("a", "c"), ("key", "c:sidechain"), ("c", "output"),
        ], sideInputs: parts.map(\.1.sideInputs))
        let before = try Processor.graph(order.map { parts[$0] }, routing: routing)
        let edited = try before.applying(.rename("c", to: "comp"))
        #expect(edited.processor.identifier.hasSuffix("| input>a a>comp key>comp:sidechain comp>output"))
    }

    @Test("graph edits that cannot be are refused, naming why")
    func refusals() throws {
        let series = try graph(["a", "b"], [("input", "a"), ("a", "b"), ("b", "output")])
        #expect(throws: ChainError.graph(.cycle(["a", "b"]))) { try series.applying(.connect(from: "b", to: "a")) }
        #expect(throws: ChainError.graph(.noOutput)) { try series.applying(.disconnect(from: "b", to: "output")) }
        #expect(throws: ChainError.unknownSlot("zz", ["a", "b"])) { try series.applying(.remove("zz")) }
        #expect(throws: ChainError.duplicateName("a")) {
            try series.applying(.insert(name: "a", processor: .lowpassGain, from: "a", to: "b"))
        }
        for refused: ChainEdit in [.move("a", to: 2), .add(name: nil, processor: .lowpassGain, position: 1),
                                   .disconnect(from: "input", to: "b"), .connect(from: "a", to: "b")] {
            #expect(throws: ChainError.self) { try series.applying(refused) }
        }
        // Ends with nothing before or after a colon (typed `chain connect input :` killed the host).
        for (end, problem) in [(":", "names no slot before ':'"), ("::", "has more than one ':'"), ("a:", "names no port after ':'")] {
            let malformed = ChainError.graph(.malformedEnd(end, problem))
            #expect(throws: malformed) { try series.applying(.connect(from: "input", to: end)) }
            #expect(throws: malformed) { try series.applying(.connect(from: end, to: "b")) }
            #expect(throws: malformed) { try series.applying(.insert(name: "x", processor: .lowpassGain, from: "input", to: end)) }
            #expect(throws: malformed) { try series.applying(.disconnect(from: "a", to: end)) }
        }
        #expect(throws: ChainError.graph(.unknownPort("b:main"))) { try series.applying(.connect(from: "input", to: "b:main")) }
        // A chain is the graph of its line: its own connections are there already.
        let chain = try Processor.chain([("a", .lowpassGain)])
        #expect(throws: ChainError.graphEdit("input>a is connected already")) { try chain.applying(.connect(from: "input", to: "a")) }
        #expect(throws: ChainError.graphEdit("a graph's slots are placed by their connections: chain connect FROM TO, chain disconnect FROM TO")) {
            let two = try Processor.chain([("a", .lowpassGain), ("b", .lowpassGain)])
            _ = try two.applying(.connect(from: "a", to: "output")).processor.applying(.move("a", to: 2))
        }
        // A slot in a line that meets another at a sum is bridged: its source has no other way on.
        let meeting = try graph(["lp", "lim", "n", "comp"], [("input", "lp"), ("input", "lim"), ("lp", "n"), ("n", "comp"),
                                                             ("lim", "comp"), ("comp", "output")])
        let bridged = try meeting.applying(.remove("n"))
        #expect(bridged.processor.identifier.hasSuffix("| input>lp input>lim lim>comp lp>comp comp>output"))
        #expect(bridged.arriving == ["lp>comp"] && bridged.staying == ["lp>n", "n>comp"] && bridged.unfaded.isEmpty)
        // Ends as the graph spells them, whatever the case typed.
        let connected = try series.applying(.connect(from: "INPUT", to: "B"))
        #expect(connected.processor.identifier.hasSuffix("| input>a a>b input>b b>output"))
    }
}
