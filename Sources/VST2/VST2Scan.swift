import BinaryPlugins
import CVst2
import Parameters
import Platform

/// Reads the plug-ins of one VST2 library (in the scanning child): each is opened through the
/// library's entry point, asked what it is, and closed. A shell library (category
/// `kPlugCategShell`, Waves-style) lists sub-plug-ins, each read as a plug-in of its own by
/// opening the entry point again with its id. A plug-in with chunks keeps state; one with
/// programs gets a program row (``VST2Programs``).
enum VST2Scan {
    /// The sample rate and block size plug-ins are opened with for reading.
    static let sampleRate = 48_000.0, maxFrames: Int32 = 512

    /// Every plug-in of the library at `path` (each parameter swept for what it shows when
    /// `sweeping`): none when it is not a VST2 plug-in (a `.so`
    /// without the entry point: a support library beside the plug-ins), one failed entry when
    /// it cannot be loaded or refuses to open.
    static func plugins(in path: String, backend: VST2Backend, sweeping: Bool) -> [BinaryPlugin] {
        let library: SharedLibrary
        switch LoadedLibraries.open(path) {
        case .success(let opened): library = opened
        case .failure(let failure): return [failed(path, backend: backend, "cannot be loaded: \(failure.reason)")]
        }
        guard let entry = library.vst2Entry else { return [] }
        var failure: UnsafePointer<CChar>?
        guard let record = detent_vst2_open(entry, 0, sampleRate, maxFrames, &failure) else {
            return [failed(path, backend: backend, failure.map { String(cString: $0) } ?? "failed to open")]
        }
        var info = DetentVst2Info()
        detent_vst2_info(record, &info)
        guard info.category == shellCategory else {
            defer { detent_vst2_close(record) }
            return [read(record, info: info, path: path, backend: backend, shell: nil, sweeping: sweeping)]
        }
        var members: [(id: Int32, name: String)] = []
        while members.count < 10_000 {
            var id: Int32 = 0
            let name = filled { id = detent_vst2_shell_next(record, $0, $1) }
            if id == 0 { break }
            members.append((id, name))
        }
        detent_vst2_close(record)
        return members.map { member in
            guard let sub = detent_vst2_open(entry, member.id, sampleRate, maxFrames, &failure) else {
                var plugin = failed(path, backend: backend, failure.map { String(cString: $0) } ?? "failed to open")
                plugin.identifier = backend.prefix + decimal(member.id)
                plugin.innerID = decimal(member.id)
                plugin.name = member.name.isEmpty ? plugin.name : member.name
                return plugin
            }
            defer { detent_vst2_close(sub) }
            var subInfo = DetentVst2Info()
            detent_vst2_info(sub, &subInfo)
            return read(sub, info: subInfo, path: path, backend: backend, shell: member, sweeping: sweeping)
        }
    }

    static let shellCategory: Int32 = 10

    /// An id as the identifier and ``BinaryPlugin/innerID`` write it: unsigned decimal.
    static func decimal(_ id: Int32) -> String { String(UInt32(bitPattern: id)) }

    /// The id an ``BinaryPlugin/innerID`` names (0: none, a plain plug-in).
    static func shellID(_ innerID: String) -> Int32 { UInt32(innerID).map { Int32(bitPattern: $0) } ?? 0 }

    static func failed(_ path: String, backend: VST2Backend, _ reason: String) -> BinaryPlugin {
        BinaryPlugin(format: backend.name, path: path, identifier: path, name: PathString.name(of: path), problem: reason)
    }

    /// One open plug-in as a listing entry.
    static func read(_ record: OpaquePointer, info: DetentVst2Info, path: String, backend: VST2Backend,
                     shell member: (id: Int32, name: String)?, sweeping: Bool) -> BinaryPlugin {
        func text(_ which: DetentVst2Text) -> String { filled { detent_vst2_text(record, which, $0, $1) } }
        let stem = PathString.split(PathString.name(of: path)).stem
        let name = [text(DETENT_VST2_EFFECT_NAME), member?.name ?? "", text(DETENT_VST2_PRODUCT), stem].first { !$0.isEmpty } ?? stem
        let isInstrument = info.is_synth != 0
        let version = info.vendor_version != 0 ? info.vendor_version : info.version
        var parameters = (0..<max(0, info.parameters)).map { k in parameter(record, index: k, sweeping: sweeping) }
        if let programs = VST2Programs.row(record, count: info.programs) { parameters.append(programs) }
        var problem: String?
        if info.double_only != 0 {
            problem = "runs only in double precision"
        } else if (info.flags & replacingFlag) == 0 && info.accumulates_only == 0 {
            problem = "has no process function"
        }
        let id = member?.id ?? info.unique_id
        var plugin = BinaryPlugin(
            format: backend.name, path: path, identifier: backend.prefix + decimal(id), innerID: member.map { decimal($0.id) } ?? "",
            name: name, maker: text(DETENT_VST2_VENDOR), category: isInstrument ? "Instrument" : category(info.category),
            version: versionText(version), audioInputs: Int(info.inputs), audioOutputs: Int(info.outputs),
            sideInputs: 0, midiInput: info.receives_midi != 0 || isInstrument, midiOutput: info.sends_midi != 0,
            isInstrument: isInstrument, parameters: parameters, latency: max(0, Int(info.latency)), problem: problem)
        plugin.keepsState = info.keeps_chunks != 0
        return plugin
    }

    static let replacingFlag: Int32 = 1 << 4

    /// A VST2 version as text: DPF and JUCE pack `major.minor.micro` into bytes (0x040100 is
    /// 4.1.0); a smaller number is the plug-in's own (`1012`); 0 is none.
    static func versionText(_ version: Int32) -> String {
        guard version > 0 else { return "" }
        guard version >= 0x10000 else { return String(version) }
        return "\(version >> 16).\((version >> 8) & 0xFF).\(version & 0xFF)"
    }

    /// A parameter's row, its value right after opening as the default. Its values are the
    /// plug-in's own where its display text shows a curve (``VST2Curve``), with the label as
    /// the unit; a stepped one showing names is an enumeration; otherwise they run 0…1, with
    /// no unit (the label is the plug-in's own value's, which would print as `0.50 ms`).
    static func parameter(_ record: OpaquePointer, index: Int32, sweeping: Bool) -> BinaryParameter {
        var info = DetentVst2ParameterInfo()
        detent_vst2_parameter(record, index, &info)
        let name = withUnsafeBytes(of: &info.name) { cleaned($0) }
        let label = withUnsafeBytes(of: &info.unit) { cleaned($0) }
        let value = info.value.isFinite ? min(max(Double(info.value), 0), 1) : 0
        let steps = Int(max(0, info.steps))
        var parameter = BinaryParameter(id: UInt32(index), name: name.isEmpty ? "Parameter \(index + 1)" : name,
                                        minimum: 0, maximum: 1, defaultValue: value, steps: steps)
        guard steps != 1, sweeping else { return parameter }
        // Every step of a stepped one; 33 points and the default across a continuous one.
        let points = steps > 1 && steps <= 256 ? (0...steps).map { Double($0) / Double(steps) }
            : (0...32).map { Double($0) / 32 } + [value]
        let samples = points.map { n in
            (normalized: n, text: filled { detent_vst2_parameter_display(record, index, Float(n), $0, $1) })
        }
        _ = filled { detent_vst2_parameter_display(record, index, Float(value), $0, $1) }  // as it was
        if let fit = VST2Curve.fit(samples) {
            parameter.minimum = fit.range.lowerBound
            parameter.maximum = fit.range.upperBound
            parameter.unit = fit.unit.isEmpty ? label : fit.unit
            parameter.logarithmic = fit.taper == .logarithmic
            // The default as shown (10.0 ms, not the float arithmetic's 10.0000003): the last
            // sample, or a stepped one's nearest step.
            let at = steps > 1 && steps <= 256 ? Int((value * Double(steps)).rounded()) : samples.count - 1
            parameter.defaultValue = VST2Curve.shown(samples[at].text)?.value ?? fit.taper.value(atNormalized: value, in: fit.range)
        } else if steps > 1, steps <= 256, Set(samples.map { $0.text.lowercased() }).count == samples.count,
                  samples.allSatisfy({ !$0.text.isEmpty && VST2Curve.shown($0.text) == nil }) {
            parameter.labels = samples.map { BinaryLabel(value: $0.normalized, text: $0.text) }
        }
        return parameter
    }

    /// The VST2 category's name, as listings show it.
    static func category(_ number: Int32) -> String {
        switch number {
        case 2: "Instrument"
        case 3: "Analysis"
        case 4: "Mastering"
        case 5: "Spacializer"
        case 6: "RoomFx"
        case 7: "SurroundFx"
        case 8: "Restoration"
        case 9: "OfflineProcess"
        case 10: "Shell"
        case 11: "Generator"
        default: "Effect"
        }
    }

    /// A plug-in's text: up to its first zero byte, invalid UTF-8 repaired, spaces trimmed.
    static func cleaned(_ bytes: UnsafeRawBufferPointer) -> String {
        let used = bytes.prefix { $0 != 0 }
        return String(decoding: used, as: UTF8.self).trimmedWhitespace
    }

    /// What a C function writes into a text buffer, as a Swift string.
    static func filled(_ write: (UnsafeMutablePointer<CChar>, UInt32) -> Void) -> String {
        var buffer = [UInt8](repeating: 0, count: 512)
        buffer.withUnsafeMutableBytes { raw in write(raw.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(raw.count)) }
        return buffer.withUnsafeBytes { cleaned($0) }
    }
}
