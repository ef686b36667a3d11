import AudioEngine
import Foundation
import Testing
import Parameters
import TestSupport
@testable import Presets

@Suite("Text of preset list and show")
struct PresetTextTests {
    private let dark = Preset(name: "Dark", author: "Detent", comment: "Warm.", values: ParameterValues(table: LowpassGain.table, [.cutoff: 2_500]))

    @Test("the list aligns columns; a broken row's reason does not widen them")
    func listTable() {
        let rows = [
            PresetListing(name: "Dark", origin: .factory(fileName: "Dark.json"),
                          status: .valid(LoadedPreset(preset: dark, origin: .factory(fileName: "Dark.json")))),
            PresetListing(name: "Mine", origin: .user(path: "/p/Mine.json", overridesFactory: false),
                          status: .broken(PresetError(.missingField("values"), source: "/p/Mine.json"))),
        ]
        let values = LowpassGain.table.ids.map { LowpassGain.table[$0].format(dark.values[$0]) }
        let headers = LowpassGain.table.ids.map { LowpassGain.table[$0].name.uppercased() }
        // Each column is as wide as its widest cell plus two spaces.
        func pad(_ cells: [String], _ widths: [Int]) -> String {
            zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count + 2) }.joined()
        }
        let widths = [4, 7] + zip(headers, values).map { max($0.count, $1.count) }
        let expected = pad(["NAME", "SOURCE"] + headers.dropLast(), widths) + headers.last! + "\n"
            + pad(["Dark", "factory"] + values.dropLast(), widths) + values.last! + "\n"
            + pad(["Mine", "user"], widths) + "broken: missing the \"values\" field\n"
        #expect(PresetText.listTable(rows, table: LowpassGain.table) == expected)
    }

    @Test("list --json writes one object per preset that a JSON parser reads back")
    func listJSON() throws {
        let row = PresetListing(name: "Dark", origin: .user(path: "/p/Dark.json", overridesFactory: true),
                                status: .valid(LoadedPreset(preset: dark, origin: .user(path: "/p/Dark.json", overridesFactory: true))))
        let line = PresetText.listJSONLine(row)
        #expect(!line.contains("\n"))
        let object = try jsonObject(line)
        #expect(object["name"] as? String == "Dark" && object["source"] as? String == "user")
        #expect(object["overridesFactory"] as? Bool == true && object["path"] as? String == "/p/Dark.json")
        #expect(object["status"] as? String == "valid" && object["comment"] as? String == "Warm.")
        let values = try #require(object["values"] as? [String: Double])
        #expect(values == Dictionary(uniqueKeysWithValues: LowpassGain.table.ids.map { ($0.id, dark.values[$0]) }))

        let broken = PresetListing(name: "Bad", origin: .user(path: "/p/Bad.json", overridesFactory: false),
                                   status: .broken(PresetError(.missingField("name"), source: "/p/Bad.json")))
        let brokenObject = try jsonObject(PresetText.listJSONLine(broken))
        #expect(brokenObject["status"] as? String == "broken" && brokenObject["error"] as? String == "missing the \"name\" field")
    }

    @Test("show prints the details, then one line per parameter formatted by the table")
    func show() {
        let text = PresetText.show(LoadedPreset(preset: dark, origin: .factory(fileName: "Dark.json")))
        var expected = "Name:     Dark\nSource:   factory (Dark.json)\nAuthor:   Detent\nComment:  Warm.\n\nID         NAME       VALUE\n"
        for id in LowpassGain.table.ids {
            let idCell = id.id + String(repeating: " ", count: 11 - id.id.count)
            let nameCell = LowpassGain.table[id].name + String(repeating: " ", count: 11 - LowpassGain.table[id].name.count)
            expected += idCell + nameCell + LowpassGain.table[id].format(dark.values[id]) + "\n"
        }
        #expect(text == expected)
    }

    @Test("free text with control characters is shown escaped, never sent to the terminal")
    func controlCharacters() {
        var preset = dark
        preset.comment = "line\u{1B}[2Jtwo\nthree"
        let text = PresetText.show(LoadedPreset(preset: preset, origin: .file(path: "/p/x.json")))
        #expect(text.contains("Comment:  line\\u{1b}[2Jtwo\\u{a}three\n"))
        #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" })
    }
}
