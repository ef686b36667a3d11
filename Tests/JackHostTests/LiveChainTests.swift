import TestSupport
import AudioEngine
import Foundation
import Parameters
import LV2
import Testing

extension JackTests {
    /// A chain hosted live as one JACK client: the built-in and plug-ins from three packages,
    /// every parameter of every slot moving (bypass toggles too) — what comes out of the ports
    /// equals the offline engine with the same chain, input and stamped events.
    @Suite struct LiveChainTests {
        static func chain() throws -> Processor {
            try Processor.chain([
                ("lp", .lowpassGain),
                ("drive", LivePluginTests.processor("http://drobilla.net/plugins/mda/Overdrive")),
                ("eq", LivePluginTests.processor("http://gareus.org/oss/lv2/fil4#stereo")),
                ("limit", LivePluginTests.processor("http://gareus.org/oss/lv2/dpl#stereo")),
            ])
        }

        @Test func aChainLiveEqualsTheOfflineRenderWithControlsMovingInEverySlot() throws {
            let processor = try Self.chain()
            // Every slot's bypass changes at least once across the moves, and its mix glides
            // through values between dry and wet.
            for slot in processor.slots {
                let moves = LivePluginTests.moves(processor.table)
                #expect(Set(moves.map { $0.1[slot.bypass]! }).count == 2, "\(slot.name).bypass moves")
                #expect(moves.contains { (1..<99).contains($0.1[slot.mix]!) }, "\(slot.name).mix blends")
            }
            let f = try LivePluginTests.expectLiveEqualsOffline(processor)
            // The chain reports its slots' outputs by SLOT.ID, and its latency (the limiter's).
            let status = f.host.status()
            #expect(status.latency == 64)
            #expect(status.outputs.map(\.id).contains("limit.latency"))
            #expect(status.outputs.map(\.id) == processor.outputs.map(\.id))
        }
    }
}
