import AudioEngine
import Foundation
import Parameters
import LV2
import Testing
import TestSupport

/// Output parameters: a plug-in's numeric `patch:readable` properties are output values, like
/// its output ports, from the `patch:Set` and `patch:Put` messages it writes — asked for once
/// with a `patch:Get`. The LV2 specification's own example (`eg-params`, lv2-examples) has an
/// `lfo` it reports only when asked, and a `spring` that, once set, decays by 0.001 a run and
/// is reported on every run; it has no audio, so the signal passes through it.
@Suite struct ReadablePropertyTests {
    static let uri = "http://lv2plug.in/plugins/eg-params"

    @Test func readablePropertiesAreOutputsAndAPluginOfMessagesOnlyIsHostable() throws {
        let plugin = try PluginSearch.find(Self.uri)
        #expect(plugin.isHostable, "\(plugin.unhostableReason ?? "")")
        #expect(plugin.numericReadableProperties.map(\.id) == ["lfo", "spring"])
        let processor = try Processor.plugin(plugin)
        #expect(processor.outputs.map(\.id) == ["lfo", "spring"])
        // Writable ones stay rows, readable or not.
        #expect(processor.table.ids.map { processor.table[$0].id }.contains("spring"))
    }

    @Test func toldValuesAreOutputValuesAndTheSignalPassesThrough() throws {
        let processor = try Processor.plugin(PluginSearch.find(Self.uri))
        let spring = try processor.table.index(of: "spring")
        let engine = Engine(processor: processor, initialValues: [spring: 0.5], smoothingTime: 0)
        try engine.prepare(sampleRate: 48_000, maxFrames: 256, channels: 2)
        func outputs() -> [String: Double] {
            Dictionary(engine.kernelReports!.outputValues.map { ($0.id, $0.value) }, uniquingKeysWith: { $1 })
        }
        let tone = (0..<2_560).map { Float(sin(Double($0) * 0.05) * 0.5) }
        let (first, _) = EngineRun.render(engine, [Array(tone[..<256]), Array(tone[..<256])], blockSize: 256)
        #expect(first[0] == Array(tone[..<256]) && first[1] == Array(tone[..<256]))
        let told = outputs()
        #expect(told["lfo"] == 0, "the reply to the patch:Get: \(told)")
        let afterOne = try #require(told["spring"])
        #expect(afterOne < 0.5 && afterOne > 0.49)
        _ = EngineRun.render(engine, [tone, tone], blockSize: 256)
        let later = try #require(outputs()["spring"])
        #expect(later < afterOne - 0.005, "spring decays as the plug-in says: \(afterOne) then \(later)")
    }
}
