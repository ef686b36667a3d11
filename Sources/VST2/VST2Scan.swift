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

    /// Every plug-in of the library at `path`: none when it is not a VST2 plug-in (a `.so`
    /// without the entry point: a support library beside the plug-ins), one failed entry when
    /// it cannot be loaded or refuses to open.
    static func plugins(in path: String, backend: VST2Backend) -> [BinaryPlugin] {
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
            return [read(record, info: info, path: path, backend: backend, shell: nil)]
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
            return read(sub, info: subInfo, path: path, backend: backend, shell: member)
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
                     shell member: (id: Int32, name: String)?) -> BinaryPlugin {
        func text(_ which: DetentVst2Text) -> String { filled { detent_vst2_text(record, which, $0, $1) } }
        let stem = PathString.split(PathString.name(of: path)).stem
        let name = [text(DETENT_VST2_EFFECT_NAME), member?.name ?? "", text(DETENT_VST2_PRODUCT), stem].first { !$0.isEmpty } ?? stem
        let isInstrument = info.is_synth != 0
        let version = info.vendor_version != 0 ? info.vendor_version : info.version
        var parameters = (0..<max(0, info.parameters)).map { k in parameter(record, index: k) }
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

    /// A parameter's row: values 0…1 (the plug-in maps them onto its own), its value right
    /// after opening as the default. No unit: the plug-in's label (`ms`, `dB`) is its own
    /// value's, not the 0…1 row's, which would print as `0.50 ms`.
    static func parameter(_ record: OpaquePointer, index: Int32) -> BinaryParameter {
        var info = DetentVst2ParameterInfo()
        detent_vst2_parameter(record, index, &info)
        let name = withUnsafeBytes(of: &info.name) { cleaned($0) }
        let value = info.value.isFinite ? min(max(Double(info.value), 0), 1) : 0
        return BinaryParameter(id: UInt32(index), name: name.isEmpty ? "Parameter \(index + 1)" : name, unit: "",
                               minimum: 0, maximum: 1, defaultValue: value, steps: Int(max(0, info.steps)))
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
