import TextFormats
import AudioEngine
import OfflineRender
import Parameters
import Rig

/// The fields of a manifest line: `input`, `output`, `values`, and every option of `detent
/// render` that concerns one file, by its long name (`plugin`, `chain`, `graph`, `sidechain`,
/// `preset`, `set`, `automation`, `midi`, `bpm`, `tail`, `format`, `subtype`, `normalize`, …).
/// A graph's named inputs go in `input` as an object: `{"input": "a.wav", "key": "k.wav"}`.
///
/// A line's field replaces the command line's option of that name for that job, except
/// `set` and `values`, which apply after the command line's `--set`s (later ones win, per
/// parameter). Applying a line sets the very properties the command line fills, so a job is
/// checked and resolved by the same code as the command line; writing a line
/// (`--write-manifest`) reads them back the same way.
///
/// ```json
/// {"input": "a.wav", "output": "out/a.flac", "plugin": "builtin", "values": {"cutoff": 800, "gain": "-3dB"}, "tail": 2}
/// ```
package enum ManifestFields {
    /// The per-file options, in the order a written line holds them (`set` and `preset` are
    /// handled by ``apply(_:to:manifest:line:)`` beside them): ``RenderOption``'s, by name.
    package static var options: [RenderOption] { RenderOption.perFileOptions }

    /// Every field a line may hold.
    package static var keys: [String] { ["input", "output", "preset", "set", "values"] + options.map(\.name) }

    /// One job of a manifest: `command` with the line's fields applied, and the input and
    /// output (nil: named as the command line would name it) taken from the manifest's folder.
    package struct Job {
        package var options: RenderOptions
        package var input: String
        package var output: String?
    }

    /// `command`'s options with `members` (line `line` of `manifest`) applied.
    ///
    /// - Throws: ``CommandFailure`` (65) naming the line and the field that is unknown, missing
    ///   or of the wrong kind.
    package static func apply(_ members: [JSONMember], to command: RenderOptions, manifest: RenderManifest, line: Int) throws(CommandFailure) -> Job {
        func failure(_ reason: String) -> CommandFailure { CommandFailure("\(manifest.name):\(line): \(reason)", exitCode: 65) }
        /// A file of the manifest's, from its folder. A NUL byte (`\u0000`) would end the path
        /// where the system reads it, so that another file than the one written is opened: refused.
        func resolved(_ key: String, _ file: String) throws(JSONFieldProblem) -> String {
            if file == "-" { throw JSONFieldProblem("'\(key)': - (stdin or stdout) cannot be a job's file") }
            guard !file.utf8.contains(0) else { throw JSONFieldProblem("'\(key)': a path cannot hold a NUL byte (\\u0000)") }
            return manifest.resolve(file)
        }
        /// `value` read as a field of `kind`, the one way every JSON reader of options reads.
        func read(_ kind: RenderOption.Kind, _ key: String, _ value: JSONValue) throws(CommandFailure) -> RenderOption.Value {
            do throws(JSONFieldProblem) { return try RenderOption.value(json: value, kind: kind, key: key, path: resolved) } catch {
                throw failure(error.reason)
            }
        }
        func text(_ key: String, _ value: JSONValue) throws(CommandFailure) -> String {
            guard case .text(let text) = try read(.text, key, value) else { return "" }
            return text
        }
        func path(_ key: String, _ value: JSONValue) throws(CommandFailure) -> String {
            guard case .text(let text) = try read(.path, key, value) else { return "" }
            return text
        }
        var options = command
        var input: String?
        var output: String?
        var sets: [String] = []
        for member in members {
            let key = member.key, value = member.value
            switch key {
            case "input":
                // A graph's named inputs beside the main one: {"input": FILE, "key": FILE}.
                guard case .object(let pairs) = value else { input = try path(key, value); continue }
                var named: [String] = []
                for pair in pairs {
                    let file = try path("input." + pair.key, pair.value)
                    if pair.key == GraphRouting.mainInput { input = file } else { named.append(pair.key + "=" + file) }
                }
                options.namedInputs = named
            case "output": output = try path(key, value)
            case "preset":
                // A preset file by path (as `--preset` tells one from a name) is the manifest's.
                let reference = try text(key, value)
                let isPath = reference.contains("/") || reference.lowercased().hasSuffix(".json")
                if isPath {
                    options.starting.preset = try path(key, value)
                } else {
                    options.starting.preset = reference
                }
            case "set":
                if case .texts(let texts) = try read(.texts, key, value) { sets += texts }
            case "values":
                guard case .object(let values) = value else { throw failure("'values' is \(value.kindDescription), not an object of ID: value") }
                for entry in values { sets.append(entry.key + "=" + (try text("values." + entry.key, entry.value))) }
            default:
                guard let option = Self.options.first(where: { $0.name == key }) else {
                    throw failure("unknown field '\(key)' (known: \(keys.joined(separator: ", ")))")
                }
                option.apply(&options, try read(option.kind, key, value))
            }
        }
        guard let input else { throw failure("no 'input': every job names the file it renders") }
        options.starting.sets += sets
        return Job(options: options, input: input, output: output)
    }

    /// The line that renders `input` into `output` with `options` (and `values` over them)
    /// again, its paths written as `here` spells them.
    package static func line(input: String, output: String, options: RenderOptions, values: [(id: String, value: Double)],
                     paths here: ManifestPaths) -> String {
        let named = options.namedInputs.map { text in
            let (name, path) = Processor.slotNameAndReference(text)
            return JSONMember(name ?? "", .string(here.written(path)))
        }
        let inputValue: JSONValue = named.isEmpty ? .string(here.written(input))
            : .object([JSONMember(GraphRouting.mainInput, .string(here.written(input)))] + named)
        var members = [JSONMember("input", inputValue), JSONMember("output", .string(here.written(output)))]
        for option in self.options {
            let json: JSONValue? = switch option.read(options) {
            case nil: nil
            case .text(let text): .string(option.kind == .path ? here.written(text) : text)
            case .texts(let texts):
                .array(texts.map { text in
                    guard option.kind == .namedPaths else { return .string(text) }
                    let (name, path) = Processor.slotNameAndReference(text)
                    return .string((name.map { $0 + "=" } ?? "") + here.written(path))
                })
            case .number(let number): .number(number)
            case .whole(let number): .number(number)
            case .seed(let number): .number(Double(number))
            case .flag(let flag): flag ? .bool(true) : nil
            }
            if let json { members.append(JSONMember(option.name, json)) }
        }
        if let preset = options.starting.preset {
            let isPath = preset.contains("/") || preset.lowercased().hasSuffix(".json")
            members.append(JSONMember("preset", .string(isPath ? here.written(preset) : preset)))
        }
        if !options.starting.sets.isEmpty { members.append(JSONMember("set", .array(options.starting.sets.map { .string($0) }))) }
        if !values.isEmpty { members.append(JSONMember("values", .object(values.map { JSONMember($0.id, .number($0.value)) }))) }
        return JSONValue.object(members).compactText
    }
}
