import Parameters
import TextFormats

/// One plug-in of a format whose plug-ins are binaries that must be opened to be read (VST2,
/// VST3, CLAP), as a scan found it: everything `detent plugins` lists and a processor's table
/// needs, so that listing and finding plug-ins never opens a binary again while it is unchanged
/// (the scan index keeps these). Made in the scanning child and sent to the parent as one JSON
/// line (``json`` and ``init(json:)``).
package struct BinaryPlugin: Sendable, Hashable {
    /// `VST2`, `VST3`, `CLAP`.
    package var format: String
    /// The binary (a VST2 `.so`) or bundle (`.vst3`, a `.clap` file) it lives in.
    package var path: String
    /// What presets record and `--plugin` takes exactly: `vst2:ID`, `vst3:CLASSID`, `clap:ID`.
    package var identifier: String
    /// The format's own id inside the binary: a VST2 shell's sub-plug-in id (decimal, empty
    /// for a plain one), a VST3 class id (32 hex digits), a CLAP plug-in id.
    package var innerID: String
    package var name: String
    package var maker: String
    /// `Instrument`, `Effect`, or the format's category (`Fx|Dynamics`, `audio-effect`).
    package var category: String
    package var version: String
    /// Channels of the main input and output buses, and of the side-chain input (0: none).
    package var audioInputs: Int
    package var audioOutputs: Int
    package var sideInputs: Int
    package var midiInput: Bool
    package var midiOutput: Bool
    package var isInstrument: Bool
    /// The plug-in's parameters in the order it gives them.
    package var parameters: [BinaryParameter]
    /// It keeps a state of its own beyond its parameters (VST2 chunks, VST3 component state,
    /// CLAP `state`), which presets and sessions keep beside their values.
    package var keepsState: Bool = false
    /// The names of its own programs where its format lists them apart from its parameters
    /// (a VST3 program-change parameter's list), in order; VST2's are a row of their own.
    package var programs: [String] = []
    /// Its latency at its defaults, as the scan saw it (the instance reports its own).
    package var latency: Int
    /// Why it cannot be hosted (it crashed or hung while loading, has no audio), or nil.
    package var problem: String?

    package init(format: String, path: String, identifier: String, innerID: String = "", name: String, maker: String = "",
                 category: String = "Effect", version: String = "", audioInputs: Int = 0, audioOutputs: Int = 0,
                 sideInputs: Int = 0, midiInput: Bool = false, midiOutput: Bool = false, isInstrument: Bool = false,
                 parameters: [BinaryParameter] = [], latency: Int = 0, problem: String? = nil) {
        self.format = format
        self.path = path
        self.identifier = identifier
        self.innerID = innerID
        self.name = name
        self.maker = maker
        self.category = category
        self.version = version
        self.audioInputs = audioInputs
        self.audioOutputs = audioOutputs
        self.sideInputs = sideInputs
        self.midiInput = midiInput
        self.midiOutput = midiOutput
        self.isInstrument = isInstrument
        self.parameters = parameters
        self.latency = latency
        self.problem = problem
    }

    /// Why Detent cannot host it, or nil when it can.
    package var unhostableReason: String? {
        if let problem { return problem }
        if audioInputs == 0 && audioOutputs == 0 { return "has no audio ports" }
        if audioInputs > 128 || audioOutputs > 128 { return "has more than 128 audio channels" }
        return nil
    }

    /// The parameters a host writes (not read-only), in order.
    package var inputParameters: [BinaryParameter] { parameters.filter { !$0.isOutput } }
    /// The read-only ones (meters).
    package var outputParameters: [BinaryParameter] { parameters.filter(\.isOutput) }
}

/// One parameter of a binary plug-in. Values are the plug-in's own ("plain"): CLAP's are;
/// VST3's are when its mapping from the normalized 0…1 is linear (else 0…1); VST2's are 0…1.
package struct BinaryParameter: Sendable, Hashable {
    /// The format's id: a VST2 index, a VST3 `ParamID`, a CLAP `clap_id`.
    package var id: UInt32
    package var name: String
    /// The unit or label the plug-in gives (`dB`, `ms`; empty when none).
    package var unit: String
    package var minimum: Double
    package var maximum: Double
    package var defaultValue: Double
    /// 0: continuous; 1: on/off; n: n + 1 values from minimum to maximum.
    package var steps: Int
    /// A meter or other value the plug-in reports and the host never writes.
    package var isOutput: Bool
    /// The plug-in's bypass parameter (VST3 `kIsBypass`, CLAP's bypass flag).
    package var isBypass: Bool
    /// Named values (VST3 list parameters, a CLAP stepped parameter's texts), or empty.
    package var labels: [BinaryLabel]
    /// Its values run from `minimum` to `maximum` by equal ratios, not in a straight line (a
    /// VST2 parameter whose display text shows so: ``VST2Curve``): its knob and its glide too.
    package var logarithmic: Bool

    package init(id: UInt32, name: String, unit: String = "", minimum: Double = 0, maximum: Double = 1, defaultValue: Double = 0,
                 steps: Int = 0, isOutput: Bool = false, isBypass: Bool = false, labels: [BinaryLabel] = [],
                 logarithmic: Bool = false) {
        self.id = id
        self.name = name
        self.unit = unit
        self.minimum = minimum
        self.maximum = maximum
        self.defaultValue = defaultValue
        self.steps = steps
        self.isOutput = isOutput
        self.isBypass = isBypass
        self.labels = labels
        self.logarithmic = logarithmic
    }
}

extension BinaryParameter {
    /// Where `value` (as its row holds it) is in its range, 0…1, by its curve: the value a
    /// VST2 plug-in takes for a row's value.
    package func normalized(_ value: Double) -> Double {
        guard minimum < maximum else { return min(max(value, 0), 1) }
        return (logarithmic && minimum > 0 ? Taper.logarithmic : .linear).normalized(min(max(value, minimum), maximum),
                                                                                     in: minimum...maximum)
    }

    /// Its value at `normalized` (0…1) of its range, by its curve: a VST2 plug-in's own 0…1
    /// value as its row holds it (``normalized(_:)``'s inverse).
    package func value(normalized: Double) -> Double {
        guard minimum < maximum else { return normalized }
        return (logarithmic && minimum > 0 ? Taper.logarithmic : .linear).value(atNormalized: min(max(normalized, 0), 1),
                                                                                  in: minimum...maximum)
    }
}

/// A named value of a stepped parameter.
package struct BinaryLabel: Sendable, Hashable {
    package var value: Double
    package var text: String
    package init(value: Double, text: String) {
        self.value = value
        self.text = text
    }
}

extension BinaryPlugin {
    /// One JSON object (the scan's line, and the index's record).
    package var json: JSONValue {
        .object([
            JSONMember("format", .string(format)), JSONMember("path", .string(path)),
            JSONMember("identifier", .string(identifier)), JSONMember("innerID", .string(innerID)),
            JSONMember("name", .string(name)), JSONMember("maker", .string(maker)),
            JSONMember("category", .string(category)), JSONMember("version", .string(version)),
            JSONMember("audioInputs", .number(audioInputs)), JSONMember("audioOutputs", .number(audioOutputs)),
            JSONMember("sideInputs", .number(sideInputs)), JSONMember("midiInput", .bool(midiInput)),
            JSONMember("midiOutput", .bool(midiOutput)), JSONMember("isInstrument", .bool(isInstrument)),
            JSONMember("latency", .number(latency)), JSONMember("problem", .string(problem)),
            JSONMember("keepsState", .bool(keepsState)),
            JSONMember("programs", .array(programs.map { .string($0) })),
            JSONMember("parameters", .array(parameters.map(\.json))),
        ])
    }

    /// The plug-in a JSON object describes, or nil when it is not one this build wrote.
    package init?(json: JSONValue) {
        guard case .string(let format)? = json.member("format"), case .string(let path)? = json.member("path"),
              case .string(let identifier)? = json.member("identifier"), case .string(let name)? = json.member("name"),
              case .array(let rows)? = json.member("parameters") else { return nil }
        func text(_ key: String) -> String { if case .string(let s)? = json.member(key) { return s } else { return "" } }
        func count(_ key: String) -> Int { json.member(key)?.doubleValue.flatMap { $0.isFinite ? Int($0) : nil } ?? 0 }
        func flag(_ key: String) -> Bool { if case .bool(let b)? = json.member(key) { return b } else { return false } }
        var parameters: [BinaryParameter] = []
        for row in rows {
            guard let parameter = BinaryParameter(json: row) else { return nil }
            parameters.append(parameter)
        }
        var problem: String?
        if case .string(let s)? = json.member("problem") { problem = s }
        self.init(format: format, path: path, identifier: identifier, innerID: text("innerID"), name: name, maker: text("maker"),
                  category: text("category"), version: text("version"), audioInputs: count("audioInputs"),
                  audioOutputs: count("audioOutputs"), sideInputs: count("sideInputs"), midiInput: flag("midiInput"),
                  midiOutput: flag("midiOutput"), isInstrument: flag("isInstrument"), parameters: parameters,
                  latency: count("latency"), problem: problem)
        keepsState = flag("keepsState")
        if case .array(let names)? = json.member("programs") {
            programs = names.compactMap { if case .string(let name) = $0 { name } else { nil } }
        }
    }
}

extension BinaryParameter {
    package var json: JSONValue {
        .object([
            JSONMember("id", .number(id)), JSONMember("name", .string(name)), JSONMember("unit", .string(unit)),
            JSONMember("min", .number(minimum)), JSONMember("max", .number(maximum)), JSONMember("default", .number(defaultValue)),
            JSONMember("steps", .number(steps)), JSONMember("output", .bool(isOutput)), JSONMember("bypass", .bool(isBypass)),
            JSONMember("labels", .array(labels.map { .array([.number($0.value), .string($0.text)]) })),
            JSONMember("log", .bool(logarithmic)),
        ])
    }

    package init?(json: JSONValue) {
        guard let id = json.member("id")?.doubleValue, id >= 0, id <= Double(UInt32.max),
              case .string(let name)? = json.member("name"),
              let minimum = json.member("min")?.doubleValue, let maximum = json.member("max")?.doubleValue,
              let value = json.member("default")?.doubleValue else { return nil }
        var labels: [BinaryLabel] = []
        if case .array(let pairs)? = json.member("labels") {
            for pair in pairs {
                guard case .array(let two) = pair, two.count == 2, let v = two[0].doubleValue, case .string(let t) = two[1] else { return nil }
                labels.append(BinaryLabel(value: v, text: t))
            }
        }
        func flag(_ key: String) -> Bool { if case .bool(let b)? = json.member(key) { return b } else { return false } }
        var unit = ""
        if case .string(let s)? = json.member("unit") { unit = s }
        self.init(id: UInt32(id), name: name, unit: unit, minimum: minimum, maximum: maximum, defaultValue: value,
                  steps: Int(json.member("steps")?.doubleValue ?? 0), isOutput: flag("output"), isBypass: flag("bypass"),
                  labels: labels, logarithmic: flag("log"))
    }
}
