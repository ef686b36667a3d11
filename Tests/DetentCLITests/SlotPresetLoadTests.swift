import AudioEngine
@testable import DetentCLI
import Parameters
import RenderJobs
import Testing
import Rig

/// A live chain's presets: `preset load SLOT:NAME` (typed, OSC, the browser panel) sets that
/// slot's rows alone, as docs/chains.md promises, where it used to set every other slot back
/// to its defaults.
@Suite struct SlotPresetLoadTests {
    @Test("a slot's factory preset sets its slot's rows, and no other; a preset of the chain sets them all")
    func slotPresetSetsItsSlotAlone() throws {
        let chain = try Processor.chain([("lp", .lowpassGain), ("hp", .lowpassGain)])
        let source = StorePresetSource(store: ProcessorReference.store(for: chain), processor: chain)
        let slot = try source.valuesToLoad("lp:Telephone")
        let lp = chain.slots[0]
        #expect(Set(slot.keys) == Set(LowpassGain.table.indices.map { lp.row($0) }))
        #expect(slot[lp.row(.cutoff)] != LowpassGain.table[.cutoff].defaultValue, "Telephone's own cutoff")
        let hp = try source.valuesToLoad("hp:Default")
        #expect(Set(hp.keys) == Set(LowpassGain.table.indices.map { chain.slots[1].row($0) }))
    }
}
