import AudioEngine
import Foundation
import Testing
import Parameters
import TestSupport
@testable import Presets

@Suite("Factory presets")
struct FactoryPresetTests {
    private let folder = packageRoot + "/Presets"

    @Test("the embedded presets are exactly the files in Presets/, text for text")
    func embeddedMatchesFiles() throws {
        let files = try folderContents(folder).filter { $0.hasSuffix(".json") }
        #expect(FactoryPreset.all.map(\.fileName) == files)
        for preset in FactoryPreset.all {
            #expect(try readFile(folder + "/" + preset.fileName) == preset.jsonText, "\(preset.fileName)")
        }
    }

    @Test("there are at least six, each read without a warning, named after its file, with an author and a comment")
    func wellFormed() throws {
        #expect(FactoryPreset.all.count >= 6)
        var keys: Set<String> = []
        for factory in FactoryPreset.all {
            let (preset, warnings) = try factory.decode()
            #expect(warnings.isEmpty, "\(factory.fileName)")
            #expect(try PresetFileName.fileName(for: preset.name) == factory.fileName)
            #expect(preset.author?.isEmpty == false && preset.comment?.isEmpty == false, "\(factory.fileName)")
            #expect(keys.insert(PresetName.key(preset.name)).inserted, "\(factory.fileName) repeats a name")
        }
    }

    @Test("each preset's values are what an independent JSON parser reads in its file, defaults filled in")
    func valuesMatchFiles() throws {
        for factory in FactoryPreset.all {
            let object = try jsonObject(factory.jsonText)
            let written = try #require(object["values"] as? [String: Double])
            let values = try factory.decode().preset.values
            for id in LowpassGain.table.ids {
                #expect(values[id] == written[id.id] ?? LowpassGain.table[id].defaultValue, "\(factory.fileName) \(id.id)")
            }
        }
    }

    @Test("the factory Default is the parameter table's defaults")
    func defaultIsTable() throws {
        let factory = try #require(FactoryPreset.all.first { $0.fileName == "Default.json" })
        #expect(try factory.decode().preset.values == ParameterValues(table: LowpassGain.table))
    }

    /// The values of the factory preset `name`.
    private func values(_ name: String) throws -> ParameterValues {
        try #require(FactoryPreset.all.first { $0.fileName == name + ".json" }).decode().preset.values
    }

    /// Each character preset moves away from Open (the filter wide open, flat, at unity gain)
    /// in the direction its name promises.
    @Test("the musical intent holds relative to Open", arguments: [
        ("Dark", ParameterIndex.cutoff, -1.0), ("Muffled", .cutoff, -1), ("Telephone", .cutoff, -1),
        ("Resonant", .resonance, 1), ("Telephone", .resonance, 1), ("Resonant", .gain, -1), ("Quiet", .gain, -1),
        ("Muffled", .resonance, -1),
    ])
    func intent(name: String, id: ParameterIndex, direction: Double) throws {
        #expect((try values(name)[id] - values("Open")[id]) * direction > 0)
    }

    @Test("Open passes everything: the top of the cutoff range, a flat Q, unity gain")
    func open() throws {
        let open = try values("Open")
        #expect(open[.cutoff] == LowpassGain.table[.cutoff].range.upperBound)
        #expect(abs(open[.resonance] - 1 / 2.0.squareRoot()) < 0.001)  // Butterworth: no peak
        #expect(open[.gain] == 0)
    }

    @Test("Muffled sits below Dark, and Dark below Telephone's band edge")
    func cutoffOrder() throws {
        func cutoff(_ name: String) throws -> Double { try values(name)[.cutoff] }
        #expect(try cutoff("Muffled") < cutoff("Dark"))
        #expect(try cutoff("Dark") < cutoff("Telephone"))
    }
}
