import AudioEngine
import BinaryPlugins
import CVst2
import Platform
import PluginFormats

/// One open VST2 plug-in, as its processor's instances hold it: the C record the bridge runs,
/// opened (entry point, `effOpen`, sample rate, block size) on the thread that makes it, and
/// closed (`effClose`) as it is released, after the bridge's `deactivate`. Its state, for a
/// plug-in with chunks, is its bank chunk; a program row (``VST2Programs``) takes the port
/// after its parameters.
final class VST2Instance: BinaryInstance {
    let record: OpaquePointer

    /// Opens `plugin` from its library; a shell's sub-plug-in is asked for by its id.
    ///
    /// - Throws: ``PluginError/libraryFailed(name:reason:)`` when the library cannot be loaded
    ///   or is no longer a VST2 plug-in, ``PluginError/notHostable(name:reason:)`` when the
    ///   plug-in refuses to open or no longer has the channels and parameters the scan saw.
    init(_ plugin: BinaryPlugin, sampleRate: Double, maxFrames: Int) throws(PluginError) {
        let library: SharedLibrary
        switch LoadedLibraries.open(plugin.path) {
        case .success(let opened): library = opened
        case .failure(let failure): throw .libraryFailed(name: plugin.name, reason: failure.reason)
        }
        guard let entry = library.vst2Entry else {
            throw .libraryFailed(name: plugin.name, reason: "\(plugin.path) has no VST2 entry point")
        }
        var failure: UnsafePointer<CChar>?
        guard let record = detent_vst2_open(entry, VST2Scan.shellID(plugin.innerID), sampleRate, Int32(clamping: maxFrames), &failure) else {
            throw .notHostable(name: plugin.name, reason: failure.map { String(cString: $0) } ?? "failed to open")
        }
        var info = DetentVst2Info()
        detent_vst2_info(record, &info)
        let programRow = VST2Programs.hasRow(plugin)
        guard Int(info.inputs) == plugin.audioInputs, Int(info.outputs) == plugin.audioOutputs,
              Int(info.parameters) == plugin.parameters.count - (programRow ? 1 : 0) else {
            detent_vst2_close(record)
            throw .notHostable(name: plugin.name, reason: "no longer has the channels and parameters its scan found")
        }
        if programRow { detent_vst2_use_program_port(record) }
        // Each row's values as its scan read them from the display text (``VST2Curve``).
        let ranges = plugin.parameters.prefix(Int(info.parameters)).map {
            DetentVst2Range(minimum: $0.minimum, maximum: $0.maximum, logarithmic: $0.logarithmic ? 1 : 0)
        }
        detent_vst2_set_ranges(record, Int32(ranges.count), ranges)
        keepsChunks = info.keeps_chunks != 0
        parameterCount = Int(info.parameters)
        self.record = record
    }

    /// Its state is a chunk (``BinaryPlugin/keepsState``, from the same flag).
    let keepsChunks: Bool
    /// The plug-in's own parameters (a program row comes after them).
    let parameterCount: Int

    /// The bank chunk (`effGetChunk` with index 0): the whole state — every program and which
    /// is selected — where a program chunk would hold only the selected one. Copied at once:
    /// the memory stays the plug-in's and changes at its next call. Nil for a plug-in without
    /// chunks, whose state is its parameter values (a preset's values already).
    func saveState() -> [UInt8]? {
        guard keepsChunks else { return nil }
        var data: UnsafeRawPointer?
        let size = detent_vst2_chunk(record, &data)
        guard size > 0, let data else { return nil }
        return [UInt8](UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    /// Gives the plug-in a bank chunk (`effSetChunk` with index 0) before it is activated. Its
    /// answer says nothing reliable (many return 0 on success), so only an empty state, a
    /// plug-in without chunks or a lack of memory is a refusal.
    func restoreState(_ bytes: [UInt8]) -> String? {
        guard keepsChunks else { return "it keeps no chunk" }
        guard !bytes.isEmpty else { return "the saved chunk is empty" }
        let given = bytes.withUnsafeBytes { detent_vst2_set_chunk(record, $0.baseAddress!, Int64($0.count)) }
        return given != 0 ? nil : "no memory for its chunk"
    }

    var handle: UnsafeMutableRawPointer { UnsafeMutableRawPointer(record) }

    var latency: Int { max(0, Int(detent_vst2_latency(record))) }

    func setTempo(_ beatsPerMinute: Double) { detent_vst2_set_tempo(record, beatsPerMinute) }

    /// `effSetSpeakerArrangement`: mono, stereo or discrete channels.
    func arrange(inputs: Int, outputs: Int) -> Bool {
        detent_vst2_arrange(record, Int32(clamping: inputs), Int32(clamping: outputs)) == 1
    }

    func takeOwnChanges() -> [(parameter: Int, value: Double)] {
        AudioEngine.takeOwnChanges { detent_vst2_take_own_changes(record, $0, $1, $2) }
    }

    /// What the plug-in shows at `value` (`effGetParamDisplay`, which shows the value now, so
    /// it is set first) and its label (`effGetParamLabel`, read after, as some change it with
    /// the value): `12.3 ms`.
    func text(_ parameter: BinaryParameter, value: Double) -> String? {
        guard let (display, label) = shown(parameter, normalized: parameter.normalized(value)), !display.isEmpty else { return nil }
        return label.isEmpty || display.hasSuffix(label) ? display : display + " " + label
    }

    /// The value the plug-in reads from `text` (`effString2Parameter`); for a plug-in that
    /// reads none (DPF's builds), the value whose display shows the number typed, in the
    /// plug-in's label or none (``VST2TextSearch``).
    func value(_ parameter: BinaryParameter, text: String) -> Double? {
        let index = Int32(clamping: Int(parameter.id))
        guard Int(index) < parameterCount else { return nil }
        var read: Float = 0
        if text.withCString({ detent_vst2_parameter_from_text(record, index, $0, &read) }) != 0,
           let (display, label) = shown(parameter, normalized: Double(read)),
           VST2TextSearch.shows(text, display: display, label: label) {
            return parameter.value(normalized: Double(read))
        }
        return VST2TextSearch.normalized(for: text) { shown(parameter, normalized: $0) }.map(parameter.value(normalized:))
    }

    /// The display and the label at `normalized`, or nil for a parameter the plug-in does not have.
    private func shown(_ parameter: BinaryParameter, normalized: Double) -> (display: String, label: String)? {
        let index = Int32(clamping: Int(parameter.id))
        guard Int(index) < parameterCount else { return nil }
        let display = VST2Scan.filled { detent_vst2_parameter_display(record, index, Float(normalized), $0, $1) }
        var info = DetentVst2ParameterInfo()
        detent_vst2_parameter(record, index, &info)
        return (display, withUnsafeBytes(of: &info.unit) { VST2Scan.cleaned($0) })
    }

    deinit { detent_vst2_close(record) }
}
