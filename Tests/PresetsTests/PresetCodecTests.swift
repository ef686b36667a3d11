import TextFormats
import AudioEngine
import Foundation
import Testing
import Parameters
@testable import Presets

@Suite("Preset format: round trips and validation")
struct PresetCodecTests {
    /// A preset document with the given `values` object text and extra top-level members.
    private func document(values: String, extra: String = "") -> String {
        """
        {"formatVersion": \(Preset.formatVersion), "name": "Test",\(extra) "values": {\(values)}}
        """
    }

    private func error(_ text: String) -> PresetError? {
        do {
            _ = try decode(text)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Round trips

    static let presets: [Preset] = [
        Preset(name: "Plain"),
        Preset(name: "Dark", author: "Someone", comment: "Line one\nline \"two\"\tand a tab",
               values: ParameterValues(table: LowpassGain.table, [.cutoff: 2_500, .resonance: 0.707, .gain: -6.5])),
        Preset(name: "Lo/Fi ../ é 🎹", values: ParameterValues(table: LowpassGain.table, [.cutoff: 20, .resonance: 10, .gain: -60])),
        Preset(name: "Odd numbers", values: ParameterValues(table: LowpassGain.table, [.cutoff: 1234.5678901234, .resonance: 0.5000001, .gain: 11.999999])),
        Preset(name: "With MIDI", values: ParameterValues(table: LowpassGain.table, [.cutoff: 440]), midi: .object([
            JSONMember("channel", .number("1")),
            JSONMember("cc", .array([
                .object([JSONMember("cc", .number("74")), JSONMember("parameter", .string("cutoff"))]),
                .object([JSONMember("cc", .number("7.50E1")), JSONMember("curve", .null), JSONMember("on", .bool(true))]),
            ])),
        ])),
        Preset(name: "With state", values: ParameterValues(table: LowpassGain.table), state: .folder(path: "With state.state", files: ["hall.wav", "b.flac"])),
        Preset(name: "Shipped state", values: ParameterValues(table: LowpassGain.table), state: .preset(uri: "http://example.org/pset#one")),
        Preset(name: "Chain state", values: ParameterValues(table: LowpassGain.table), state: .slots([
            "conv": .folder(path: "Chain state.state/conv", files: ["hall.wav"]), "zero": .preset(uri: "http://example.org/pset#two"),
        ])),
    ]

    @Test("a state's files must lie inside its folder; a folder must be named")
    func stateValidation() {
        for bad in [#""state": {"folder": "x.state", "files": ["../hall.wav"]},"#, #""state": {"folder": "x.state", "files": ["/tmp/a.wav"]},"#,
                    #""state": {"files": []},"#, #""state": {"folder": 3},"#, #""state": "x.state","#,
                    #""state": {"slots": []},"#, #""state": {"slots": {"a": "x.state"}},"#,
                    #""state": {"slots": {"a": {"folder": "x.state/a", "files": ["../../b.wav"]}}},"#,
                    #""state": {"slots": {"a": {"slots": {}}}},"#] {
            #expect(error(document(values: "", extra: " " + bad)) != nil, "\(bad)")
        }
    }

    @Test("encode then decode gives back the same preset, with no warnings", arguments: presets)
    func roundTrip(preset: Preset) throws {
        let (decoded, warnings) = try decode(PresetCodec.encode(preset))
        #expect(decoded == preset)
        #expect(warnings.isEmpty)
    }

    @Test("decode then encode of a canonical file gives back the same text", arguments: presets)
    func textRoundTrip(preset: Preset) throws {
        let text = PresetCodec.encode(preset)
        #expect(PresetCodec.encode(try decode(text).preset) == text)
    }

    @Test("writes the current format, every parameter in table order")
    func layout() {
        let preset = Preset(name: "Dark", comment: "c", values: ParameterValues(table: LowpassGain.table, [.cutoff: 2_500]))
        let expected = "{\n  \"formatVersion\": \(Preset.formatVersion),\n  \"name\": \"Dark\",\n  \"comment\": \"c\",\n  \"values\": {\n"
            + LowpassGain.table.ids.map { id in
                let value = id == .cutoff ? 2_500 : LowpassGain.table[id].defaultValue
                return "    \"\(id.id)\": \(value == value.rounded() ? String(Int(value)) : String(value))"
            }.joined(separator: ",\n")
            + "\n  }\n}\n"
        #expect(PresetCodec.encode(preset) == expected)
    }

    // MARK: Validation

    @Test("missing parameters take the table default")
    func missingValues() throws {
        let (preset, warnings) = try decode(document(values: #""cutoff": 500"#))
        #expect(warnings.isEmpty)
        for id in LowpassGain.table.ids {
            #expect(preset.values[id] == (id == .cutoff ? 500 : LowpassGain.table[id].defaultValue))
        }
    }

    @Test("an unknown parameter is ignored with a warning naming it and the valid ids")
    func unknownParameter() throws {
        let (preset, warnings) = try decode(document(values: #""drive": 3, "cutoff": 500"#), source: "x.json")
        #expect(preset.values == ParameterValues(table: LowpassGain.table, [.cutoff: 500]))
        #expect(warnings == [PresetWarning(.unknownParameter("drive", valid: LowpassGain.table.textIDs), source: "x.json")])
        #expect(warnings[0].description == "x.json: unknown parameter 'drive' ignored (valid ids: cutoff, resonance, gain)")
    }

    @Test("an unknown top-level field is ignored with a warning")
    func unknownField() throws {
        let (preset, warnings) = try decode(document(values: "", extra: #" "colour": "red","#))
        #expect(preset == Preset(name: "Test"))
        #expect(warnings == [PresetWarning(.unknownField("colour"), source: "test.json")])
    }

    @Test("parameter ids are read ignoring case", arguments: LowpassGain.table.ids)
    func idCase(id: ParameterIndex) throws {
        let value = LowpassGain.table[id].range.upperBound
        let (preset, _) = try decode(document(values: "\"\(id.id.uppercased())\": \(value)"))
        #expect(preset.values[id] == value)
    }

    @Test("an out-of-range value is clamped to the nearest end of the table range, with a warning",
          arguments: LowpassGain.table.ids.flatMap { id in
              let range = LowpassGain.table[id].range
              let span = range.upperBound - range.lowerBound
              return [(id, range.lowerBound - span), (id, range.upperBound + span), (id, range.upperBound * 10)]
          })
    func clamping(id: ParameterIndex, value: Double) throws {
        let written = String(value)
        let (preset, warnings) = try decode(document(values: "\"\(id.id)\": \(written)"), source: "x.json")
        let expected = value < LowpassGain.table[id].range.lowerBound ? LowpassGain.table[id].range.lowerBound : LowpassGain.table[id].range.upperBound
        #expect(preset.values[id] == expected)
        #expect(warnings == [PresetWarning(.clamped(LowpassGain.table[id], written: written, clampedTo: expected), source: "x.json")])
        let spec = LowpassGain.table[id]
        #expect(warnings.first?.description == "x.json: \(id.id) value \(written) is out of range "
            + "(\(spec.format(spec.range.lowerBound, ascii: true)) … \(spec.format(spec.range.upperBound, ascii: true))); "
            + "clamped to \(spec.format(expected, ascii: true))")
    }

    @Test("values at the ends of the range are kept without a warning", arguments: LowpassGain.table.ids)
    func rangeEnds(id: ParameterIndex) throws {
        for value in [LowpassGain.table[id].range.lowerBound, LowpassGain.table[id].range.upperBound] {
            let (preset, warnings) = try decode(document(values: "\"\(id.id)\": \(value)"))
            #expect(preset.values[id] == value)
            #expect(warnings.isEmpty)
        }
    }

    @Test("a value that is not finite is an error naming the field", arguments: ["NaN", "Infinity", "-Infinity", "1e999", "-1e400"])
    func nonFinite(text: String) {
        let error = error(document(values: "\"gain\": \(text)"))
        #expect(error == PresetError(.notFinite(field: "values.gain", text: text), source: "test.json"))
        #expect(error?.description == "test.json: \"values.gain\" is \(text), which is not a finite number")
        #expect(error?.category == .data)
    }

    @Test("a value that is not a number is an error naming the field and what was found", arguments: [
        (#""800 Hz""#, "a string"), ("null", "null"), ("true", "a boolean"), ("[800]", "an array"), (#"{"v": 1}"#, "an object"),
    ])
    func nonNumeric(text: String, found: String) {
        #expect(error(document(values: "\"cutoff\": \(text)"))
            == PresetError(.wrongType(field: "values.cutoff", expected: "a number", found: found), source: "test.json"))
    }

    @Test("the same parameter twice (in any case) is an error")
    func duplicateParameter() {
        #expect(error(document(values: #""cutoff": 500, "Cutoff": 600"#))
            == PresetError(.duplicateParameter("cutoff"), source: "test.json"))
    }

    @Test("malformed JSON is an error with the line and column")
    func malformed() {
        let text = "{\n  \"formatVersion\": 1,\n  \"name\": \"Test\",\n  \"values\": {\"cutoff\": 500,}\n}\n"
        let error = error(text)
        #expect(error == PresetError(.malformedJSON(JSONParseError(
            line: 4, column: 28, message: "expected a member name in quotes, found '}'")), source: "test.json"))
        #expect(error?.description == "test.json: malformed JSON at line 4, column 28: expected a member name in quotes, found '}'")
        #expect(error?.category == .data)
    }

    @Test("a newer format version is an error saying which versions are read")
    func newerFormat() {
        let newer = Preset.formatVersion + 1
        let error = error(#"{"formatVersion": \#(newer), "name": "Test", "values": {}, "envelopes": []}"#)
        #expect(error == PresetError(.newerFormat(found: newer, newestKnown: Preset.formatVersion), source: "test.json"))
        #expect(error?.description == "test.json: written in preset format \(newer), but this Detent reads formats up to "
            + "\(Preset.formatVersion); update Detent to read it")
    }

    @Test("a format version that is not a whole number of 0 or more is an error",
          arguments: [("1.5", "1.5"), ("-1", "-1"), (#""1""#, #""1""#), ("null", "null"), ("NaN", "NaN")])
    func invalidVersion(text: String, shown: String) {
        #expect(error(#"{"formatVersion": \#(text), "name": "Test", "values": {}}"#)
            == PresetError(.invalidFormatVersion(shown), source: "test.json"))
    }

    @Test("the document must be an object with a name and values", arguments: [
        ("[1, 2]", PresetError.Problem.notAnObject(found: "an array")),
        (#""Dark""#, .notAnObject(found: "a string")),
        (#"{"formatVersion": 1, "values": {}}"#, .missingField("name")),
        (#"{"formatVersion": 1, "name": "Test"}"#, .missingField("values")),
        (#"{"formatVersion": 1, "name": 7, "values": {}}"#, .wrongType(field: "name", expected: "a string", found: "a number")),
        (#"{"formatVersion": 1, "name": "Test", "values": [500]}"#,
         .wrongType(field: "values", expected: "an object of parameter values", found: "an array")),
        (#"{"formatVersion": 1, "name": "Test", "author": 3, "values": {}}"#,
         .wrongType(field: "author", expected: "a string", found: "a number")),
        (#"{"formatVersion": 1, "name": "Test", "comment": [], "values": {}}"#,
         .wrongType(field: "comment", expected: "a string", found: "an array")),
        (#"{"formatVersion": 1, "name": "", "values": {}}"#, .invalidName(name: "", reason: "a name must not be empty")),
        (#"{"formatVersion": 1, "name": "a\u001bb", "values": {}}"#,
         .invalidName(name: "a\u{1B}b", reason: "a name must not contain control characters")),
        (#"{"formatVersion": 1, "name": "Test", "values": {}, "midi": [1, NaN]}"#, .notFinite(field: "midi[1]", text: "NaN")),
    ])
    func structure(text: String, problem: PresetError.Problem) {
        #expect(error(text) == PresetError(problem, source: "test.json"))
    }

    @Test("a null author, comment or midi field is the same as none")
    func nulls() throws {
        let (preset, warnings) = try decode(#"{"formatVersion": 1, "name": "T", "author": null, "comment": null, "midi": null, "values": {}}"#)
        #expect(preset == Preset(name: "T"))
        #expect(warnings.isEmpty)
    }

    @Test("a file larger than the limit is refused before parsing")
    func tooLarge() {
        let bytes = [UInt8](repeating: 0x20, count: PresetCodec.maximumFileSize + 1)
        #expect(throws: PresetError(.tooLarge(limit: PresetCodec.maximumFileSize), source: "big.json")) {
            _ = try PresetCodec.decode(bytes, source: "big.json")
        }
    }

    @Test("error categories decide the exit status: usage, data or I/O")
    func categories() {
        #expect(PresetError(.notFound("x")).category == .usage)
        #expect(PresetError(.alreadyExists("x")).category == .usage)
        #expect(PresetError(.factoryReadOnly("x")).category == .usage)
        #expect(PresetError(.nameClash(name: "x", existing: "X")).category == .usage)
        #expect(PresetError(.fileExists(path: "x")).category == .usage)
        #expect(PresetError(.missingField("name")).category == .data)
        #expect(PresetError(.io("cannot read: x")).category == .io)
    }

    @Test("messages show control characters instead of sending them to the terminal")
    func printable() {
        let error = PresetError(.notFound("evil\u{1B}[2J"), source: "dir/\u{7}.json")
        #expect(error.description == "dir/\\u{7}.json: no preset named 'evil\\u{1b}[2J' (see 'detent preset list')")
        #expect(!error.description.unicodeScalars.contains { $0.properties.generalCategory == .control })
        // Bidirectional controls would reorder the rest of the line: shown, not sent.
        #expect(PresetName.quoted("Dark\u{202E}txt.exe") == "'Dark\\u{202e}txt.exe'")
        #expect(PresetName.printable("a\u{2067}b\u{200D}c") == "a\\u{2067}b\u{200D}c")  // ZWJ (emoji) stays
    }
}
