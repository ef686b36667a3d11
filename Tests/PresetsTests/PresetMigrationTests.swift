import AudioEngine
import Testing
import Parameters
import TestSupport
@testable import Presets

@Suite("Migration of older preset formats")
struct PresetMigrationTests {
    @Test("there is one migration step per older format")
    func stepCount() {
        #expect(PresetMigration.steps.count == Preset.formatVersion)
    }

    @Test("a format-0 file loads: parameters become values, q becomes resonance")
    func format0() throws {
        let (preset, warnings) = try decode(PresetFixtures.format0Warm, source: "Warm Pad.json")
        #expect(preset == Preset(
            name: "Warm Pad", author: "Early Adopter", comment: "Saved before preset files had a format version.",
            values: ParameterValues(table: LowpassGain.table, [.cutoff: 1800, .resonance: 1.2, .gain: -4.5])))
        #expect(warnings == [PresetWarning(.migrated(from: 0, to: Preset.formatVersion), source: "Warm Pad.json")])
    }

    @Test("a migrated preset is validated like any other: clamping and unknown ids still warn, in file order")
    func format0Validated() throws {
        let (preset, warnings) = try decode(PresetFixtures.format0Odd, source: "Odd.json")
        let top = LowpassGain.table[.resonance].range.upperBound
        #expect(preset.values == ParameterValues(table: LowpassGain.table, [.resonance: top]))
        #expect(warnings == [
            PresetWarning(.migrated(from: 0, to: Preset.formatVersion), source: "Odd.json"),
            PresetWarning(.clamped(LowpassGain.table[.resonance], written: "40", clampedTo: top), source: "Odd.json"),
            PresetWarning(.unknownParameter("drive", valid: LowpassGain.table.textIDs), source: "Odd.json"),
        ])
    }

    @Test("a format-0 user preset saved again is written in the current format and loads without warnings")
    func resave() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let path = store.userDirectory + "/Warm Pad.json"
        try writeFile(PresetFixtures.format0Warm, to: path)
        let old = try store.load(named: "warm pad")
        #expect(old.warnings.map(\.problem) == [.migrated(from: 0, to: Preset.formatVersion)])

        try store.save(old.preset, replacing: true)
        #expect(try readFile(path) == PresetCodec.encode(old.preset))
        let new = try store.load(named: "Warm Pad")
        #expect(new.preset == old.preset)
        #expect(new.warnings.isEmpty)
    }

    @Test("format 0 is assumed only when formatVersion is absent; an explicit 0 migrates too")
    func explicitZero() throws {
        let (preset, warnings) = try decode(#"{"formatVersion": 0, "name": "Z", "parameters": {"q": 2}}"#)
        #expect(preset.values == ParameterValues(table: LowpassGain.table, [.resonance: 2]))
        #expect(warnings.map(\.problem) == [.migrated(from: 0, to: Preset.formatVersion)])
    }
}
