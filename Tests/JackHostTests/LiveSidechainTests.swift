import Control
import TestSupport
import AudioEngine
import Foundation
import Parameters
import LV2
import Testing

extension JackTests {
    /// A keyed compressor live: its slot gets side-chain ports of its own, a player's key
    /// reaches them through `--connect-sidechain`, and the output ducks exactly as the offline
    /// engine keyed by the same signal.
    @Suite struct LiveSidechainTests {
        static let frames = 72_000

        /// A tone for the main input; a key silent but for noise in its middle third.
        static func signals() -> (tone: [Float], key: [Float]) {
            let tone = Signal.sine(frequency: 1_000, frames: frames, amplitude: 0.25)
            let noise = Signal.noise(frames: frames, seed: 3, amplitude: 0.7)
            let key = (0..<frames).map { $0 >= frames / 3 && $0 < 2 * frames / 3 ? noise[$0] : 0 }
            return (tone, key)
        }

        static func level(_ signal: [Float], _ range: Range<Int>) -> Double {
            10 * log10(signal[range].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(range.count) + 1e-30)
        }

        @Test func aKeyedSlotsPortsCarryTheKeyAndTheOutputDucksAsOffline() throws {
            let processor = try Processor.chain([
                ("lp", .lowpassGain), ("comp", LivePluginTests.processor("urn:zamaudio:ZamComp")),
            ])
            let table = processor.table
            let values: [ParameterIndex: Double] = [
                try #require(table.find("comp.sidech")): 1, try #require(table.find("comp.thr")): -30,
                try #require(table.find("comp.rat")): 20,
            ]
            let (tone, key) = Self.signals()
            let f = try LiveFixture(input: [tone], values: values, processor: processor, key: key)
            let host = try #require(f.host.clientName)
            let engineStart = try f.play()
            // JACK shows a connection from the cycle after it is made: by now the graph has settled.
            #expect(f.player.connections(of: "\(f.player.name):out_2") == ["\(host):comp-sc_1"],
                    "the key goes to the keyed slot's side-chain port, and nowhere else")
            #expect(f.player.connections(of: "\(f.player.name):out_1") == ["\(host):in_1"])
            try f.waitForRecording(1)
            let recorded = f.recorder.recording[0]
            let expected = f.offlineReference(engineStart: engineStart, changes: [])[0]
            #expect(firstDifference(recorded, expected) == "none")
            let third = Self.frames / 3
            let before = Self.level(recorded, 4_800..<third), during = Self.level(recorded, third + 4_800..<2 * third)
            #expect(before - during >= 10, "before \(before) dB, while the key sounds \(during) dB")
        }
    }
}

extension JackTests.LiveSidechainTests {
    /// A graph live: a named input's ports (`key_1`) feed a side-chain edge, a parallel branch
    /// joins at the output, and what comes out equals the offline engine's graph.
    @Test func aGraphsNamedInputIsAPortAndTheGraphPlaysAsOffline() throws {
        let parts = [("lp", Processor.lowpassGain), ("comp", try JackTests.LivePluginTests.processor("urn:zamaudio:ZamComp"))]
        let (order, routing) = try Processor.routing(slots: parts.map(\.0), connections: [
            ("input", "lp"), ("input", "comp"), ("key", "comp:sidechain"), ("lp", "output"), ("comp", "output"),
        ], sideInputs: parts.map(\.1.sideInputs))
        let processor = try Processor.graph(order.map { parts[$0] }, routing: routing)
        let table = processor.table
        let values: [ParameterIndex: Double] = [
            try #require(table.find("comp.sidech")): 1, try #require(table.find("comp.thr")): -30,
            try #require(table.find("comp.rat")): 20, try #require(table.find("lp.cutoff")): 500,
        ]
        let (tone, key) = Self.signals()
        let f = try LiveFixture(input: [tone], values: values, processor: processor, key: key)
        let host = try #require(f.host.clientName)
        let engineStart = try f.play()
        #expect(f.player.connections(of: "\(f.player.name):out_2") == ["\(host):key_1"])
        try f.waitForRecording(1)
        let recorded = f.recorder.recording[0]
        let expected = f.offlineReference(engineStart: engineStart, changes: [])[0]
        #expect(recorded.contains { abs($0) > 1e-3 })
        #expect(firstDifference(recorded, expected) == "none")
    }

    /// `processor` playing a tone, with edits allowed, its `comp` keyed from a new named input
    /// `voice` once it has played 0.3 s: the rig's identifier then ends with `making`, and the
    /// input has its port.
    static func keyedFromVoice(_ processor: Processor, values: [ParameterIndex: Double], making: String) throws
        -> (LiveFixture, engineStart: Int64) {
        let (tone, _) = Self.signals()
        let f = try LiveFixture(input: [tone], values: values, processor: processor)
        f.host.allowChainEdits(resolve: { _ in .lowpassGain }, changed: { _ in })
        let host = try #require(f.host.clientName)
        let engineStart = try f.play()
        try f.waitForRecording(0.3)
        let keyed = try f.host.editChain(.connect(from: "voice", to: "comp:sidechain"))
        #expect(keyed.identifier.hasSuffix(making), "\(keyed.identifier)")
        #expect(f.player.ports(matching: "^\(host):voice_") == ["\(host):voice_1"])
        return (f, engineStart)
    }

    /// A chain wired while it plays becomes its line's graph: a compressor keyed from a new
    /// named input gets the input's ports, and the slots play on, sample for sample the chain's
    /// until the edit.
    @Test func aChainWiredLiveBecomesAGraphWithTheNewInputsPorts() throws {
        let processor = try Processor.chain([("lp", .lowpassGain), ("comp", try JackTests.LivePluginTests.processor("urn:zamaudio:ZamComp"))])
        let (f, engineStart) = try Self.keyedFromVoice(processor, values: [try #require(processor.table.find("lp.cutoff")): 500],
                                                       making: "| input>lp lp>comp voice>comp:sidechain comp>output")
        try f.waitForRecording(1)
        // The key is silent: the graph sounds as the chain did, throughout.
        let recorded = f.recorder.recording[0]
        let expected = f.offlineReference(engineStart: engineStart, changes: [])[0]
        #expect(recorded.contains { abs($0) > 1e-3 })
        #expect(firstDifference(recorded, expected) == "none")
    }

    /// A graph edited while it plays: a connection from a new named input makes its ports, and
    /// a parallel branch taken out fades away, leaving the other branch exactly as if alone.
    @Test func aGraphEditedLiveGainsPortsAndLosesABranchCleanly() throws {
        let parts = [("lp", Processor.lowpassGain), ("comp", try JackTests.LivePluginTests.processor("urn:zamaudio:ZamComp"))]
        let (order, routing) = try Processor.routing(slots: parts.map(\.0), connections: [
            ("input", "lp"), ("input", "comp"), ("lp", "output"), ("comp", "output"),
        ], sideInputs: parts.map(\.1.sideInputs))
        let processor = try Processor.graph(order.map { parts[$0] }, routing: routing)
        let values: [ParameterIndex: Double] = [try #require(processor.table.find("lp.cutoff")): 500,
                                                try #require(processor.table.find("comp.thr")): -30]
        let (f, engineStart) = try Self.keyedFromVoice(processor, values: values,
                                                       making: "| input>lp input>comp voice>comp:sidechain lp>output comp>output")
        #expect(throws: ChainEditError.self) { try f.host.editChain(.move("lp", to: 2)) }
        try f.waitForRecording(0.5)
        let after = try f.host.editChain(.remove("comp"))
        #expect(after.identifier.hasSuffix("| input>lp lp>output"))
        #expect(f.host.table.find("comp.thr") == nil)
        try f.waitForRecording(1)

        let recorded = f.recorder.recording[0]
        let whole = f.offlineReference(engineStart: engineStart, changes: [])[0]
        let lead = [Float](repeating: 0, count: Int(engineStart))
        let lp = EngineRun.reference([lead + Self.signals().tone], processor: .lowpassGain, values: [.cutoff: 500],
                                     smoothing: LiveFixture.smoothing, blockSize: f.server.period)[0]
        let rest = Array(lp[Int(engineStart)...])
        // Up to the removal (the silent key changed nothing), both branches; from a fade after
        // it, lp alone, exactly.
        let lastOfWhole = recorded.indices.first { recorded[$0] != whole[$0] } ?? recorded.count
        let firstOfRest = (recorded.indices.last { recorded[$0] != rest[$0] } ?? -1) + 1
        #expect(lastOfWhole >= Int(0.5 * Double(recorded.count)), "the whole graph's until the removal")
        #expect(firstOfRest > lastOfWhole && firstOfRest - lastOfWhole <= JackTests.LiveChainEditTests.fade + 2 * f.server.period,
                "the change took \(firstOfRest - lastOfWhole) frames")
    }
}
