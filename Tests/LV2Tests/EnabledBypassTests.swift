import AudioEngine
import Parameters
import LV2
import Testing
import TestSupport

/// A chain slot whose plug-in has its own on/off switch (`lv2:enabled`) is bypassed through it.
@Suite struct EnabledBypassTests {
    static func fil4() throws -> Processor {
        try Processor.plugin(try #require(PluginCatalog.plugin(uri: "http://gareus.org/oss/lv2/fil4#stereo")))
    }

    @Test func theEnabledPortIsFoundAndBypassSwitchesItInsteadOfCrossfading() throws {
        let eq = try Self.fil4()
        let enable = try #require(eq.enabledRow)
        #expect(eq.table[enable].id == "enable")
        let chain = try Processor.chain([("eq", eq)])
        let slot = chain.slots[0]
        let gain = slot.row(try eq.table.index(of: "gain"))
        let input = [Signal.noise(frames: 24_000, seed: 31), Signal.noise(frames: 24_000, seed: 32)]
        // Bypassed by the chain, and switched off by its own port: the same sound, sample for
        // sample — the plug-in's own fade, not the host's crossfade.
        let bypassed = EngineRun.reference(input, processor: chain, values: [gain: -9, slot.bypass: 1], blockSize: 256)
        let off = EngineRun.reference(input, processor: chain, values: [gain: -9, slot.row(enable): 0], blockSize: 256)
        let on = EngineRun.reference(input, processor: chain, values: [gain: -9], blockSize: 256)
        for c in 0..<2 {
            #expect(bypassed[c] == off[c])
            #expect(bypassed[c] != on[c])
        }
        // Switched while running: the plug-in fades, and the bypass lands within the 8-frame grid.
        let changes = [ParameterChange(slot.bypass, 1, frame: 6_000), ParameterChange(slot.bypass, 0, frame: 14_000)]
        let switched = EngineRun.reference(input, processor: chain, values: [gain: -9], blockSize: 256, changes: changes)
        let ownSwitch = [ParameterChange(slot.row(enable), 0, frame: 6_000), ParameterChange(slot.row(enable), 1, frame: 14_000)]
        let reference = EngineRun.reference(input, processor: chain, values: [gain: -9], blockSize: 256, changes: ownSwitch)
        for c in 0..<2 { #expect(switched[c] == reference[c]) }
    }
}
