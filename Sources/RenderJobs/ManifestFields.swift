import TextFormats
import AudioEngine
import OfflineRender
import Parameters

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
    /// How a field's JSON value becomes an option's value.
    package enum Binding {
        /// A string (a JSON number is taken as its text: `"tail": 2`).
        case text(WritableKeyPath<RenderOptions, String?>)
        /// A path, taken from the manifest's folder when relative.
        case path(WritableKeyPath<RenderOptions, String?>)
        /// A string or an array of them (a repeated option).
        case texts(WritableKeyPath<RenderOptions, [String]>)
        /// Files for names (`--sidechain SLOT=FILE`, `--input NAME=FILE`): an object of NAME:
        /// path, a `NAME=PATH` string or an array of them (`--sidechain`'s PATH alone too),
        /// each path taken from the manifest's folder when relative.
        case namedPaths(WritableKeyPath<RenderOptions, [String]>)
        case number(WritableKeyPath<RenderOptions, Double?>)
        case integer(WritableKeyPath<RenderOptions, Int?>)
        case flag(WritableKeyPath<RenderOptions, Bool>)
    }

    /// The per-file options, in the order a written line holds them (`set` and `preset` are
    /// handled by ``apply(_:to:manifest:line:)`` beside them).
    package static var options: [(key: String, binding: Binding)] {
        [
            ("plugin", .texts(\.plugin.plugins)),
            ("chain", .path(\.plugin.chain)),
            ("graph", .path(\.plugin.graph)),
            ("sidechain", .namedPaths(\.sidechains)),
            ("automation", .path(\.automation)),
            ("midi", .path(\.midi)),
            ("bpm", .number(\.bpm)),
            ("tail", .text(\.tail)),
            ("format", .text(\.format)),
            ("subtype", .text(\.subtype)),
            ("dither", .text(\.encoder.dither)),
            ("no-dither", .flag(\.encoder.noDither)),
            ("quality", .number(\.encoder.quality)),
            ("bitrate", .integer(\.encoder.bitrate)),
            ("compression", .integer(\.encoder.compression)),
            ("normalize", .text(\.normalize)),
            ("loudness", .flag(\.loudness)),
            ("block", .integer(\.kernelFrames)),
            ("no-metadata", .flag(\.noMetadata)),
        ]
    }

    /// Every field a line may hold.
    package static var keys: [String] { ["input", "output", "preset", "set", "values"] + options.map(\.key) }

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
        func text(_ key: String, _ value: JSONValue) throws(CommandFailure) -> String {
            switch value {
            case .string(let text): return text
            case .number(let text): return text
            default: throw failure("'\(key)' is \(value.kindDescription), not a string")
            }
        }
        /// `path` from the manifest's folder. A NUL byte (`\u0000`) would end the path where the
        /// system reads it, so that another file than the one written is opened: refused.
        func resolved(_ key: String, _ path: String) throws(CommandFailure) -> String {
            guard !path.utf8.contains(0) else { throw failure("'\(key)': a path cannot hold a NUL byte (\\u0000)") }
            return manifest.resolve(path)
        }
        func path(_ key: String, _ value: JSONValue) throws(CommandFailure) -> String {
            guard case .string(let path) = value, !path.isEmpty else {
                throw failure("'\(key)' is \(value.kindDescription), not a path")
            }
            if path == "-" { throw failure("'\(key)': - (stdin or stdout) cannot be a job's file") }
            return try resolved(key, path)
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
                options.starting.preset = isPath ? try resolved(key, reference) : reference
            case "set":
                switch value {
                case .array(let items): for item in items { sets.append(try text(key, item)) }
                default: sets.append(try text(key, value))
                }
            case "values":
                guard case .object(let values) = value else { throw failure("'values' is \(value.kindDescription), not an object of ID: value") }
                for entry in values { sets.append(entry.key + "=" + (try text("values." + entry.key, entry.value))) }
            default:
                guard let binding = binding(named: key) else {
                    throw failure("unknown field '\(key)' (known: \(keys.joined(separator: ", ")))")
                }
                switch binding {
                case .text(let property): options[keyPath: property] = try text(key, value)
                case .path(let property): options[keyPath: property] = try path(key, value)
                case .texts(let property):
                    switch value {
                    case .array(let items):
                        var texts: [String] = []
                        for item in items { texts.append(try text(key, item)) }
                        options[keyPath: property] = texts
                    default: options[keyPath: property] = [try text(key, value)]
                    }
                case .namedPaths(let property):
                    var texts: [String] = []
                    func add(_ text: String) throws(CommandFailure) {
                        let (name, file) = Processor.slotNameAndReference(text)
                        guard !file.isEmpty, file != "-" else { throw failure("'\(key)': \(text) names no file") }
                        texts.append((name.map { $0 + "=" } ?? "") + (try resolved(key, file)))
                    }
                    switch value {
                    case .object(let pairs): for pair in pairs { try add(pair.key + "=" + (try text(key + "." + pair.key, pair.value))) }
                    case .array(let items): for item in items { try add(try text(key, item)) }
                    default: try add(try text(key, value))
                    }
                    options[keyPath: property] = texts
                case .number(let property):
                    guard let number = value.doubleValue else { throw failure("'\(key)' is \(value.kindDescription), not a number") }
                    options[keyPath: property] = number
                case .integer(let property):
                    guard case .number(let digits) = value, let number = Int(digits) else {
                        throw failure("'\(key)' is \(value.kindDescription), not a whole number")
                    }
                    options[keyPath: property] = number
                case .flag(let property):
                    guard case .bool(let flag) = value else { throw failure("'\(key)' is \(value.kindDescription), not true or false") }
                    options[keyPath: property] = flag
                }
            }
        }
        guard let input else { throw failure("no 'input': every job names the file it renders") }
        options.starting.sets += sets
        return Job(options: options, input: input, output: output)
    }

    private static func binding(named key: String) -> Binding? {
        options.first { $0.key == key }?.binding
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
        for (key, binding) in self.options {
            let value: JSONValue? = switch binding {
            case .text(let property): options[keyPath: property].map { .string($0) }
            case .path(let property): options[keyPath: property].map { .string(here.written($0)) }
            case .texts(let property):
                options[keyPath: property].isEmpty ? nil : .array(options[keyPath: property].map { .string($0) })
            case .namedPaths(let property):
                options[keyPath: property].isEmpty ? nil : .array(options[keyPath: property].map { text in
                    let (name, path) = Processor.slotNameAndReference(text)
                    return .string((name.map { $0 + "=" } ?? "") + here.written(path))
                })
            case .number(let property): options[keyPath: property].map { .number($0) }
            case .integer(let property): options[keyPath: property].map { .number($0) }
            case .flag(let property): options[keyPath: property] ? .bool(true) : nil
            }
            if let value { members.append(JSONMember(key, value)) }
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
