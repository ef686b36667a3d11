import AudioEngine
import Glibc
import BinaryPlugins
import CClap
import CPluginKernel
import Parameters
import Platform
import PluginFormats

/// CLAP as a binary format: `.clap` files of `CLAP_PATH`, `~/.clap`, `/usr/lib/clap` and
/// `/usr/local/lib/clap`, every plug-in of each one's plug-in factory, run through the CLAP
/// bridge (`CClap`).
package struct CLAPBackend: BinaryBackend {
    package init() {}

    package var name: String { "CLAP" }
    package var prefix: String { "clap:" }

    package func folders() -> [String] {
        FormatFolders.list(variables: ["CLAP_PATH"], home: [".clap"], system: ["/usr/lib/clap", "/usr/local/lib/clap"])
    }

    package func isBinary(name: String) -> Bool { name.hasSuffix(".clap") }

    package var bridge: UnsafePointer<LV2_Descriptor> { detent_clap_bridge() }

    /// The library's `clap_entry`, initialised once for the process.
    static func entry(_ path: String) -> Result<UnsafeRawPointer, SharedLibrary.LoadFailure> {
        LoadedLibraries.open(path) { library in
            guard let entry = library.symbol("clap_entry") else { return "it has no clap_entry" }
            return detent_clap_open(entry, path) == 0 ? "its entry refused to start (or speaks an unknown CLAP version)" : nil
        }.map { UnsafeRawPointer($0.symbol("clap_entry")!) }
    }

    package func scan(_ path: String) -> [BinaryPlugin] {
        let file = PathString.name(of: path)
        let entry: UnsafeRawPointer
        switch Self.entry(path) {
        case .failure(let failure):
            return [BinaryPlugin(format: name, path: path, identifier: path, name: file, problem: "cannot be loaded: \(failure.reason)")]
        case .success(let found): entry = found
        }
        var plugins: [BinaryPlugin] = []
        for index in 0..<min(detent_clap_count(entry), 4096) {
            var description = DetentClapDescription()
            var features = [CChar](repeating: 0, count: 1024)
            guard detent_clap_describe(entry, index, &description, &features, features.count) != 0, let id = description.id else { continue }
            let pluginID = String(cString: id)
            var plugin = BinaryPlugin(
                format: name, path: path, identifier: prefix + pluginID, innerID: pluginID,
                name: description.name.map { String(cString: $0) } ?? pluginID,
                maker: description.vendor.map { String(cString: $0) } ?? "",
                version: description.version.map { String(cString: $0) } ?? "")
            let featureList = String(cString: features).split(separator: "|").map(String.init)
            plugin.isInstrument = featureList.contains("instrument")
            plugin.category = Self.category(featureList)
            read(&plugin, entry: entry)
            plugins.append(plugin)
        }
        return plugins
    }

    /// The listing's class from a plug-in's features: its first that is not a main kind or a
    /// channel layout (`compressor`, `reverb`), else its kind.
    static func category(_ features: [String]) -> String {
        let kinds = ["instrument", "audio-effect", "note-effect", "note-detector", "analyzer"]
        let layouts = ["mono", "stereo", "surround", "ambisonic"]
        if let detail = features.first(where: { !kinds.contains($0) && !layouts.contains($0) }) {
            return detail.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        }
        if features.contains("instrument") { return "Instrument" }
        if features.contains("analyzer") { return "Analyser" }
        return "Effect"
    }

    /// A plug-in's buses, parameters and latency, from an instance made for that.
    private func read(_ plugin: inout BinaryPlugin, entry: UnsafeRawPointer) {
        var error = [CChar](repeating: 0, count: 256)
        guard let instance = detent_clap_create(entry, plugin.innerID, 48_000, 4096, &error, error.count) else {
            plugin.problem = "cannot be made: \(String(cString: error))"
            return
        }
        defer { detent_clap_destroy(instance) }
        let shape = detent_clap_shape(instance)
        plugin.audioInputs = Int(shape.inputs)
        plugin.audioOutputs = Int(shape.outputs)
        plugin.sideInputs = Int(shape.sides)
        plugin.midiInput = shape.midi_input != 0
        plugin.midiOutput = shape.midi_output != 0
        plugin.keepsState = detent_clap_has_state(instance) != 0
        for index in 0..<shape.parameters {
            var p = DetentClapParameter()
            guard detent_clap_parameter(instance, index, &p) != 0 else {
                plugin.problem = "its parameter \(index) cannot be read"
                return
            }
            plugin.parameters.append(Self.parameter(p, instance: instance))
        }
        let latency = detent_clap_probe_latency(instance)
        if latency < 0 { plugin.problem = "refused to activate at 48 kHz" } else { plugin.latency = Int(latency) }
    }

    /// CLAP's parameter flags (`CLAP_PARAM_IS_*`) that the listing reads.
    enum Flag {
        static let stepped: UInt32 = 1 << 0, readOnly: UInt32 = 1 << 3, bypass: UInt32 = 1 << 4
    }

    static func parameter(_ p: DetentClapParameter, instance: OpaquePointer) -> BinaryParameter {
        let name = withUnsafeBytes(of: p.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let stepped = p.flags & Flag.stepped != 0
        let span = p.maximum - p.minimum
        var labels: [BinaryLabel] = []
        var steps = 0
        if stepped, span.isFinite, span >= 1, span <= 256 {
            steps = Int(span.rounded())
            for step in 0...steps {
                let value = p.minimum + Double(step)
                var text = [CChar](repeating: 0, count: 256)
                guard detent_clap_value_text(instance, p.id, value, &text, UInt32(text.count)) != 0 else { labels = []; break }
                labels.append(BinaryLabel(value: value, text: String(cString: text)))
            }
            // Texts that are only the number are no names.
            if labels.allSatisfy({ Double($0.text.trimmedWhitespace) != nil }) { labels = [] }
        }
        return BinaryParameter(id: p.id, name: name, unit: unit(p, instance: instance), minimum: p.minimum, maximum: p.maximum,
                               defaultValue: p.default_value, steps: steps == 1 && labels.isEmpty ? 1 : steps,
                               isOutput: p.flags & Flag.readOnly != 0,
                               isBypass: p.flags & Flag.bypass != 0, labels: labels)
    }

    /// The unit the plug-in's text for its default shows after the number (`-6.0 dB`).
    static func unit(_ p: DetentClapParameter, instance: OpaquePointer) -> String {
        var text = [CChar](repeating: 0, count: 256)
        guard detent_clap_value_text(instance, p.id, p.default_value, &text, UInt32(text.count)) != 0 else { return "" }
        let words = String(cString: text).split(separator: " ")
        guard words.count == 2, Double(words[0]) != nil else { return "" }
        return String(words[1])
    }

    package func instantiate(_ plugin: BinaryPlugin, layout: BinaryPortLayout, sampleRate: Double,
                             maxFrames: Int) throws(PluginError) -> any BinaryInstance {
        let entry: UnsafeRawPointer
        switch Self.entry(plugin.path) {
        case .failure(let failure): throw .libraryFailed(name: plugin.name, reason: failure.reason)
        case .success(let found): entry = found
        }
        var error = [CChar](repeating: 0, count: 256)
        guard let instance = detent_clap_create(entry, plugin.innerID, sampleRate, UInt32(maxFrames), &error, error.count) else {
            throw .libraryFailed(name: plugin.name, reason: String(cString: error))
        }
        let shape = detent_clap_shape(instance)
        guard Int(shape.inputs) == layout.inputs, Int(shape.outputs) == layout.outputs, Int(shape.sides) == layout.sides,
              Int(shape.parameters) == layout.parameters else {
            detent_clap_destroy(instance)
            throw .libraryFailed(name: plugin.name, reason: "it changed since it was listed (its buses or parameters differ); list the plug-ins again")
        }
        guard detent_clap_prepare(instance, UInt32(BinaryPortLayout.midiCapacity)) != 0 else {
            detent_clap_destroy(instance)
            throw .instantiationFailed(name: plugin.name)
        }
        return CLAPInstance(instance)
    }
}

/// One CLAP plug-in made for the kernel: the bridge's handle, destroyed with this.
final class CLAPInstance: BinaryInstance {
    private let instance: OpaquePointer
    init(_ instance: OpaquePointer) { self.instance = instance }
    var handle: UnsafeMutableRawPointer { UnsafeMutableRawPointer(instance) }
    var latency: Int { Int(detent_clap_latency(instance)) }

    func setTempo(_ beatsPerMinute: Double) { detent_clap_set_tempo(instance, beatsPerMinute) }

    func saveState() -> [UInt8]? {
        var bytes: UnsafeMutablePointer<UInt8>?
        var size = 0
        guard detent_clap_save_state(instance, &bytes, &size) != 0, let bytes else { return nil }
        defer { free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: size))
    }

    func restoreState(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { buffer in
            detent_clap_load_state(instance, buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, buffer.count) != 0
        } ? nil : "its state extension refused the bytes"
    }
    func takeOwnChanges() -> [(parameter: Int, value: Double)] {
        AudioEngine.takeOwnChanges { detent_clap_take_own_changes(instance, $0, $1, $2) }
    }

    /// The plug-in's text for `value` (`value_to_text`; a CLAP value is the row's).
    func text(_ parameter: BinaryParameter, value: Double) -> String? {
        var text = [CChar](repeating: 0, count: 256)
        guard detent_clap_value_text(instance, parameter.id, value, &text, UInt32(text.count)) != 0 else { return nil }
        return String(cString: text)
    }

    /// The value the plug-in reads from `text` (`text_to_value`).
    func value(_ parameter: BinaryParameter, text: String) -> Double? {
        var value = 0.0
        return text.withCString { detent_clap_text_value(instance, parameter.id, $0, &value) } != 0 ? value : nil
    }

    deinit { detent_clap_destroy(instance) }
}
