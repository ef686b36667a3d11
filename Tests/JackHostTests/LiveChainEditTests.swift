import Control
import TestSupport
import AudioEngine
import Foundation
import JackHost
import Parameters
import LV2
import Testing

extension JackTests {
    /// Slots added, removed and moved while a chain plays on a real server.
    @Suite struct LiveChainEditTests {
        static let fade = Int((Engine.bypassFadeTime * 48_000).rounded())

        /// The chain's values by id: audible settings in every slot.
        static func values(_ processor: Processor) throws -> [ParameterIndex: Double] {
            var values: [ParameterIndex: Double] = [:]
            for (id, value) in [("lp.cutoff", 3_000.0), ("lp.resonance", 2), ("drive.drive", 0.6), ("eq.gain", -9)] {
                if let row = processor.table.find(id) { values[row] = value }
            }
            return values
        }

        @Test func removingTheLastSlotLeavesTheOthersSampleExactOutsideTheFade() throws {
            let chain = try Processor.chain([
                ("lp", .lowpassGain),
                ("drive", LivePluginTests.processor("http://drobilla.net/plugins/mda/Overdrive")),
                ("eq", LivePluginTests.processor("http://gareus.org/oss/lv2/fil4#stereo")),
            ])
            let f = try LiveFixture(input: LiveHostAudioTests.stereo(), values: try Self.values(chain), processor: chain)
            f.host.allowChainEdits(resolve: { try LivePluginTests.processor($0) }, changed: { _ in })
            let engineStart = try f.play()
            try f.waitForRecording(0.4)
            let after = try f.host.editChain(.remove("eq"))
            #expect(after.slots.map(\.name) == ["lp", "drive"])
            #expect(f.host.table.textIDs.first == "lp.bypass" && f.host.table.find("eq.gain") == nil)
            try f.waitForRecording(1)

            let whole = f.offlineReference(engineStart: engineStart, changes: [])
            let lead = [Float](repeating: 0, count: Int(engineStart))
            let two = try Processor.chain([("lp", .lowpassGain), ("drive", chain.slots[1].processor)])
            let rest = EngineRun.reference(f.input.map { lead + $0 }, processor: two, values: try Self.values(two),
                                           smoothing: LiveFixture.smoothing, blockSize: f.server.period)
                .map { Array($0[Int(engineStart)...]) }
            let recorded = f.recorder.recording
            for c in 0..<2 {
                // Up to the edit, the three slots; from a fade after it, the two, exactly.
                let lastOfWhole = recorded[c].indices.first { recorded[c][$0] != whole[c][$0] } ?? recorded[c].count
                let firstOfRest = (recorded[c].indices.last { recorded[c][$0] != rest[c][$0] } ?? -1) + 1
                #expect(lastOfWhole >= Int(0.4 * Double(recorded[c].count)), "channel \(c + 1) is the whole chain's until the edit")
                #expect(firstOfRest > lastOfWhole, "channel \(c + 1) changed at the edit")
                #expect(firstOfRest - lastOfWhole <= Self.fade + 2 * f.server.period,
                        "channel \(c + 1): the change took \(firstOfRest - lastOfWhole) frames")
                // No click: the largest step across the change is no larger than the sound's own
                // before or after it.
                let step = { (range: Range<Int>) in range.dropFirst().map { abs(recorded[c][$0] - recorded[c][$0 - 1]) }.max() ?? 0 }
                let steady = max(step(0..<lastOfWhole), step(firstOfRest..<recorded[c].count))
                #expect(step(lastOfWhole..<firstOfRest + 1) <= 1.05 * steady)
            }
        }

        @Test func slotsAddedMovedAndRemovedBringTheirValuesMappingsAndPresetsAlong() throws {
            let chain = try Processor.chain([("lp", .lowpassGain), ("drive", LivePluginTests.processor("http://drobilla.net/plugins/mda/Overdrive"))])
            let f = try LiveFixture(input: LiveHostAudioTests.stereo(), values: try Self.values(chain), processor: chain)
            f.host.allowChainEdits(resolve: { reference in
                reference == "builtin" ? .lowpassGain : try LivePluginTests.processor(reference)
            }, changed: { _ in })
            let drive = try chain.table.index(of: "drive.drive")
            _ = f.host.updateMIDIControls { $0.assign(drive, to: 20) }
            let before = f.host.targets()
            let added = try f.host.editChain(.add(reference: "builtin", name: "tone", position: 1))
            #expect(added.slots.map(\.name) == ["tone", "lp", "drive"])
            let moved = try f.host.editChain(.move("drive", to: 1))
            #expect(moved.slots.map(\.name) == ["drive", "tone", "lp"])
            let table = f.host.table
            let targets = f.host.targets()
            // Every value followed its parameter to its new row; the new slot starts at its defaults.
            for id in chain.table.indices {
                #expect(targets[try table.index(of: chain.table[id].id)] == before[id], "\(chain.table[id].id)")
            }
            #expect(targets[try table.index(of: "tone.cutoff")] == LowpassGain.table[.cutoff].defaultValue)
            // So did the controller mapped to drive.drive.
            #expect(f.host.midiControls?.controllers[try table.index(of: "drive.drive")] == 20)
            #expect(throws: ChainEditError.self) { try f.host.editChain(.remove("nothing")) }
            #expect(throws: ChainEditError.self) { try f.host.editChain(.move("lp", to: 4)) }
            // The host runs the new chain: setting a new row is heard in status.
            f.host.set([try table.index(of: "tone.gain"): -12])
            #expect(f.host.status().values[try table.index(of: "tone.gain")] == -12)
            // A renamed slot's values and controllers follow its new ids.
            let renamed = try f.host.editChain(.rename("drive", to: "crunch"))
            #expect(renamed.slots.map(\.name) == ["crunch", "tone", "lp"])
            let now = f.host.table
            #expect(f.host.targets()[try now.index(of: "crunch.drive")] == before[drive])
            #expect(f.host.midiControls?.controllers[try now.index(of: "crunch.drive")] == 20)
            #expect(throws: ChainEditError.self) { try f.host.editChain(.rename("crunch", to: "lp")) }
        }
    }
}
