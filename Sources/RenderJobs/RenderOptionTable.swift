import AudioEngine
import TextFormats

/// Every option of a render, once: its name on the command line (and as a manifest's field),
/// the key Python's `detent.render` sends it by, how its value is read, and where it goes in
/// ``RenderOptions``. The readers of the command line's plain lines (`PlainRenderArguments`),
/// of manifest lines (``ManifestFields``) and of Python's requests (`RenderRequest`) all read
/// this table, and Python asks it which keys it may send (`detent_render_options`), so a new
/// option is added here and nowhere else but in `RenderCommand`'s declaration (its help),
/// which a test holds to the table.
package struct RenderOption: Sendable {
    /// How an option takes its value.
    package enum Kind: Sendable, Equatable {
        /// One text value (a JSON number is taken as its text: `"tail": 2`).
        case text
        /// One path: a manifest's relative path is taken from the manifest's folder.
        case path
        /// A text value each time it is given (`--plugin`, `--set`); an array in JSON.
        case texts
        /// Files for names, each time it is given (`--sidechain SLOT=FILE`, `--input
        /// NAME=FILE`); in JSON an object of NAME: path too, paths taken from a manifest's folder.
        case namedPaths
        case number
        case whole
        /// A whole number from 0 to 2⁶⁴ − 1 (`--seed`).
        case seed
        /// No value on the command line; true or false in JSON.
        case flag

        /// Given more than once on a command line, each value is kept.
        package var repeats: Bool { self == .texts || self == .namedPaths }
    }

    /// A value read by any reader, before it goes into ``RenderOptions``.
    package enum Value: Sendable, Equatable {
        case text(String)
        case texts([String])
        case number(Double)
        case whole(Int)
        case seed(UInt64)
        case flag(Bool)
    }

    /// The long name without its dashes (`out-dir`); the manifest's field has the same name.
    package let name: String
    /// The one-letter name (`-o`), if any.
    package let short: Character?
    package let kind: Kind
    /// A value taken whatever it looks like, even starting with `-` (`--normalize -23`).
    package let anyValue: Bool
    /// A manifest line may set it for its job (one file's options).
    package let perFile: Bool
    /// The key Python's `detent.render` sends it by (nil: not offered there).
    package let python: String?
    /// Puts a value in place (a value of another kind than the option's is ignored: each
    /// reader makes the option's own).
    package let apply: @Sendable (inout RenderOptions, Value) -> Void
    /// The value set, for writing a manifest line (nil: not set).
    package let read: @Sendable (RenderOptions) -> Value?

    /// How the command line spells it.
    package var flagName: String { "--" + name }
}

extension RenderOption {
    /// The table. Closures rather than key paths: a plain render line is read at every
    /// start-up, where instantiating key paths would cost more than the reading.
    package static let all: [RenderOption] = [
        text("output", short: "o", python: "output", get: { $0.output }, set: { $0.output = $1 }),
        text("out-dir", python: "out_dir", get: { $0.outDir }, set: { $0.outDir = $1 }),
        texts("plugin", perFile: true, python: "plugins", get: { $0.plugin.plugins }, set: { $0.plugin.plugins = $1 }, add: { $0.plugin.plugins.append($1) }),
        text("chain", .path, perFile: true, python: "chain", get: { $0.plugin.chain }, set: { $0.plugin.chain = $1 }),
        text("graph", .path, perFile: true, python: "graph", get: { $0.plugin.graph }, set: { $0.plugin.graph = $1 }),
        texts("sidechain", .namedPaths, perFile: true, python: "sidechains", get: { $0.sidechains }, set: { $0.sidechains = $1 },
              add: { $0.sidechains.append($1) }),
        texts("input", .namedPaths, python: "named_inputs", get: { $0.namedInputs }, set: { $0.namedInputs = $1 }, add: { $0.namedInputs.append($1) }),
        text("preset", python: "preset", get: { $0.starting.preset }, set: { $0.starting.preset = $1 }),
        texts("set", python: "sets", get: { $0.starting.sets }, set: { $0.starting.sets = $1 }, add: { $0.starting.sets.append($1) }),
        text("automation", .path, perFile: true, python: "automation", get: { $0.automation }, set: { $0.automation = $1 }),
        text("midi", .path, perFile: true, python: "midi", get: { $0.midi }, set: { $0.midi = $1 }),
        text("midi-out", python: "midi_out", get: { $0.midiOut }, set: { $0.midiOut = $1 }),
        number("bpm", perFile: true, python: "bpm", get: { $0.bpm }, set: { $0.bpm = $1 }),
        whole("rate", python: "rate", get: { $0.rate }, set: { $0.rate = $1 }),
        whole("channels", python: "channels", get: { $0.channels }, set: { $0.channels = $1 }),
        text("tail", perFile: true, python: "tail", get: { $0.tail }, set: { $0.tail = $1 }),
        text("format", perFile: true, python: "format", get: { $0.format }, set: { $0.format = $1 }),
        text("subtype", perFile: true, python: "subtype", get: { $0.subtype }, set: { $0.subtype = $1 }),
        text("dither", perFile: true, python: "dither", get: { $0.encoder.dither }, set: { $0.encoder.dither = $1 }),
        flag("no-dither", perFile: true, python: "no_dither", get: { $0.encoder.noDither }, set: { $0.encoder.noDither = $1 }),
        number("quality", perFile: true, python: "quality", get: { $0.encoder.quality }, set: { $0.encoder.quality = $1 }),
        whole("bitrate", perFile: true, python: "bitrate", get: { $0.encoder.bitrate }, set: { $0.encoder.bitrate = $1 }),
        whole("compression", perFile: true, python: "compression", get: { $0.encoder.compression }, set: { $0.encoder.compression = $1 }),
        text("normalize", anyValue: true, perFile: true, python: "normalize", get: { $0.normalize }, set: { $0.normalize = $1 }),
        flag("loudness", perFile: true, python: "loudness", get: { $0.loudness }, set: { $0.loudness = $1 }),
        text("measure", get: { $0.measures }, set: { $0.measures = $1 }),
        whole("jobs", python: "jobs", get: { $0.jobs }, set: { $0.jobs = $1 }),
        whole("block-frames", get: { $0.blockFrames }, set: { $0.blockFrames = $1 }),
        whole("block", perFile: true, python: "block", get: { $0.kernelFrames }, set: { $0.kernelFrames = $1 }),
        whole("control-interval", get: { $0.controlInterval }, set: { $0.controlInterval = $1 }),
        whole("io-threads", get: { $0.ioThreads }, set: { $0.ioThreads = $1 }),
        flag("no-metadata", perFile: true, python: "no_metadata", get: { $0.noMetadata }, set: { $0.noMetadata = $1 }),
        flag("in-process", get: { $0.inProcess }, set: { $0.inProcess = $1 }),
        flag("force", python: "force", get: { $0.force }, set: { $0.force = $1 }),
        flag("quiet", get: { $0.quiet }, set: { $0.quiet = $1 }),
        flag("json", get: { $0.json }, set: { $0.json = $1 }),
        text("manifest", python: "manifest", get: { $0.batch.manifest }, set: { $0.batch.manifest = $1 }),
        text("write-manifest", get: { $0.batch.writeManifest }, set: { $0.batch.writeManifest = $1 }),
        texts("vary", get: { $0.batch.variations }, set: { $0.batch.variations = $1 }, add: { $0.batch.variations.append($1) }),
        whole("variants", get: { $0.batch.variants }, set: { $0.batch.variants = $1 }),
        RenderOption(name: "seed", short: nil, kind: .seed, anyValue: false, perFile: false, python: nil,
                     apply: { options, value in if case .seed(let seed) = value { options.batch.seed = seed } },
                     read: { $0.batch.seed.map { .seed($0) } }),
        text("shard", anyValue: true, get: { $0.batch.shard }, set: { $0.batch.shard = $1 }),
        flag("skip-existing", get: { $0.batch.skipExisting }, set: { $0.batch.skipExisting = $1 }),
    ]

    /// The options by command-line name (`--out-dir`, `-o`).
    package static let byFlag: [String: RenderOption] = {
        var table: [String: RenderOption] = [:]
        for option in all {
            table[option.flagName] = option
            if let short = option.short { table["-" + String(short)] = option }
        }
        return table
    }()

    /// The options a manifest line may set, in the order a written line holds them.
    package static var perFileOptions: [RenderOption] { all.filter(\.perFile) }

    /// The option Python sends by `key`.
    package static func python(_ key: String) -> RenderOption? { all.first { $0.python == key } }


    // The makers, one per kind.

    private static func text(_ name: String, _ kind: Kind = .text, short: Character? = nil, anyValue: Bool = false,
                             perFile: Bool = false, python: String? = nil, get: @escaping @Sendable (RenderOptions) -> String?,
                             set: @escaping @Sendable (inout RenderOptions, String) -> Void) -> RenderOption {
        return RenderOption(name: name, short: short, kind: kind, anyValue: anyValue, perFile: perFile, python: python,
                            apply: { options, value in if case .text(let text) = value { set(&options, text) } },
                            read: { get($0).map { .text($0) } })
    }

    private static func texts(_ name: String, _ kind: Kind = .texts, perFile: Bool = false, python: String? = nil,
                              get: @escaping @Sendable (RenderOptions) -> [String],
                              set: @escaping @Sendable (inout RenderOptions, [String]) -> Void,
                              add: @escaping @Sendable (inout RenderOptions, String) -> Void) -> RenderOption {
        return RenderOption(name: name, short: nil, kind: kind, anyValue: false, perFile: perFile, python: python,
                            apply: { options, value in
                                switch value {
                                case .text(let text): add(&options, text)
                                case .texts(let texts): set(&options, texts)
                                default: break
                                }
                            },
                            read: { options in get(options).isEmpty ? nil : .texts(get(options)) })
    }

    private static func number(_ name: String, perFile: Bool = false, python: String? = nil, get: @escaping @Sendable (RenderOptions) -> Double?,
                               set: @escaping @Sendable (inout RenderOptions, Double) -> Void) -> RenderOption {
        return RenderOption(name: name, short: nil, kind: .number, anyValue: false, perFile: perFile, python: python,
                            apply: { options, value in if case .number(let number) = value { set(&options, number) } },
                            read: { get($0).map { .number($0) } })
    }

    private static func whole(_ name: String, perFile: Bool = false, python: String? = nil, get: @escaping @Sendable (RenderOptions) -> Int?,
                              set: @escaping @Sendable (inout RenderOptions, Int) -> Void) -> RenderOption {
        return RenderOption(name: name, short: nil, kind: .whole, anyValue: false, perFile: perFile, python: python,
                            apply: { options, value in if case .whole(let number) = value { set(&options, number) } },
                            read: { get($0).map { .whole($0) } })
    }

    private static func flag(_ name: String, perFile: Bool = false, python: String? = nil, get: @escaping @Sendable (RenderOptions) -> Bool,
                             set: @escaping @Sendable (inout RenderOptions, Bool) -> Void) -> RenderOption {
        return RenderOption(name: name, short: nil, kind: .flag, anyValue: false, perFile: perFile, python: python,
                            apply: { options, value in if case .flag(let flag) = value { set(&options, flag) } },
                            read: { get($0) ? .flag(true) : nil })
    }
}

/// Why a JSON value cannot be an option's: one line (`'tail' is a boolean, not a string`),
/// which each reader puts in its words (a manifest's file and line before it).
package struct JSONFieldProblem: Error, Sendable {
    package let reason: String
    package init(_ reason: String) { self.reason = reason }
}

extension RenderOption {
    /// The value `json` gives this option, as a manifest's field or a Python request's key
    /// `key`: text from a string or a number (`"tail": 2`), several from one or an array
    /// (files for names from an object of NAME: path too), numbers, whole numbers, true or
    /// false. `path` makes each path the reader's (a manifest's: checked, and taken from its
    /// folder when relative). The one reader of JSON values every JSON reader of options uses.
    package static func value(json: JSONValue, kind: Kind, key: String,
                              path: (_ key: String, _ path: String) throws(JSONFieldProblem) -> String) throws(JSONFieldProblem) -> Value {
        func text(_ key: String, _ value: JSONValue) throws(JSONFieldProblem) -> String {
            switch value {
            case .string(let text): return text
            case .number(let text): return text
            default: throw JSONFieldProblem("'\(key)' is \(value.kindDescription), not a string")
            }
        }
        func items(_ value: JSONValue) -> [JSONValue] {
            if case .array(let items) = value { return items }
            return [value]
        }
        switch kind {
        case .text: return .text(try text(key, json))
        case .path:
            guard case .string(let file) = json, !file.isEmpty else { throw JSONFieldProblem("'\(key)' is \(json.kindDescription), not a path") }
            return .text(try path(key, file))
        case .texts:
            var texts: [String] = []
            for item in items(json) { texts.append(try text(key, item)) }
            return .texts(texts)
        case .namedPaths:
            var pairs: [String] = []
            if case .object(let members) = json {
                for member in members { pairs.append(member.key + "=" + (try text(key + "." + member.key, member.value))) }
            } else {
                for item in items(json) { pairs.append(try text(key, item)) }
            }
            var texts: [String] = []
            for pair in pairs {
                let (name, file) = Processor.slotNameAndReference(pair)
                guard !file.isEmpty, file != "-" else { throw JSONFieldProblem("'\(key)': \(pair) names no file") }
                texts.append((name.map { $0 + "=" } ?? "") + (try path(key, file)))
            }
            return .texts(texts)
        case .number:
            guard let number = json.doubleValue else { throw JSONFieldProblem("'\(key)' is \(json.kindDescription), not a number") }
            return .number(number)
        case .whole, .seed:
            guard case .number(let digits) = json, let number = Int(digits), kind == .whole || number >= 0 else {
                throw JSONFieldProblem("'\(key)' is \(json.kindDescription), not a whole number")
            }
            return kind == .whole ? .whole(number) : .seed(UInt64(number))
        case .flag:
            guard case .bool(let flag) = json else { throw JSONFieldProblem("'\(key)' is \(json.kindDescription), not true or false") }
            return .flag(flag)
        }
    }
}
