import AudioEngine
import BinaryPlugins
import CVst3
import PluginFormats

/// One VST3 plug-in instance, as its processor's instances hold it: the C record the bridge
/// runs, made (component, controller, processor set up) on the thread that makes it, given its
/// ports in the order of ``BinaryPlugin/parameters``, and released — processing stopped,
/// terminated, freed — after the bridge's `deactivate`.
final class VST3Instance: BinaryInstance {
    let record: OpaquePointer

    /// Makes `plugin` from its module.
    ///
    /// - Throws: ``PluginError/libraryFailed(name:reason:)`` when its library cannot be
    ///   entered, ``PluginError/notHostable(name:reason:)`` when the plug-in cannot be made or
    ///   no longer has the buses its scan found.
    init(_ plugin: BinaryPlugin, sampleRate: Double, maxFrames: Int) throws(PluginError) {
        let module: VST3Modules.Module
        switch VST3Modules.open(plugin.path) {
        case .success(let opened): module = opened
        case .failure(let failure): throw .libraryFailed(name: plugin.name, reason: failure.reason)
        }
        var made: OpaquePointer?
        let reason = failure {
            made = detent_vst3_instance_new(module.pointer, plugin.innerID, sampleRate, Int32(clamping: maxFrames), $0, $1)
        }
        guard let record = made else { throw .notHostable(name: plugin.name, reason: reason) }
        let parameters = plugin.parameters
        let ids = parameters.map(\.id), minimums = parameters.map(\.minimum), maximums = parameters.map(\.maximum)
        let readOnly = parameters.map(\.isOutput)
        var given = false
        let problem = failure { buffer, size in
            given = detent_vst3_instance_ports(record, Int32(plugin.audioInputs), Int32(plugin.audioOutputs), Int32(plugin.sideInputs),
                                               Int32(parameters.count), ids, minimums, maximums, readOnly, buffer, size)
        }
        guard given else {
            detent_vst3_instance_free(record)
            throw .notHostable(name: plugin.name, reason: problem)
        }
        self.record = record
    }

    var handle: UnsafeMutableRawPointer { UnsafeMutableRawPointer(record) }

    var latency: Int { Int(detent_vst3_latency(record)) }

    func setTempo(_ beatsPerMinute: Double) { detent_vst3_set_tempo(record, beatsPerMinute) }

    /// The component's and the controller's states in one block (the layout Vst3State.c
    /// describes); nil when the component gives none.
    func saveState() -> [UInt8]? {
        var size = 0
        var saved: UnsafeMutablePointer<UInt8>?
        _ = failure { saved = detent_vst3_state_save(record, &size, $0, $1) }
        guard let saved else { return nil }
        defer { detent_vst3_state_free(saved) }
        return Array(UnsafeBufferPointer(start: saved, count: size))
    }

    /// Gives the component, then the controller, a block ``saveState()`` made, before
    /// activation; why the bytes were refused, or nil.
    func restoreState(_ bytes: [UInt8]) -> String? {
        var restored = false
        let reason = bytes.withUnsafeBufferPointer { buffer in
            failure { restored = detent_vst3_state_restore(record, buffer.baseAddress, buffer.count, $0, $1) }
        }
        return restored ? nil : reason
    }

    func takeOwnChanges() -> [(parameter: Int, value: Double)] {
        AudioEngine.takeOwnChanges { detent_vst3_take_own_changes(record, $0, $1, $2) }
    }

    /// The controller's text for `value` (`getParamStringByValue`), with the parameter's unit
    /// when the text has none of its own.
    func text(_ parameter: BinaryParameter, value: Double) -> String? {
        var found = false
        let shown = VST3Scan.trimmed(VST3Scan.filled {
            found = detent_vst3_parameter_text(record, parameter.id, Self.normalized(parameter, value), $0, $1)
        })
        guard found, !shown.isEmpty else { return nil }
        let unit = units[parameter.id] ?? ""
        return unit.isEmpty || shown.hasSuffix(unit) ? shown : shown + " " + unit
    }

    /// The value the controller reads from `text` (`getParamValueByString`).
    func value(_ parameter: BinaryParameter, text: String) -> Double? {
        var normalized = 0.0
        guard text.withCString({ detent_vst3_parameter_from_text(record, parameter.id, $0, &normalized) }) else { return nil }
        return parameter.maximum > parameter.minimum ? parameter.minimum + normalized * (parameter.maximum - parameter.minimum) : normalized
    }

    /// A row's value as the controller's normalized 0…1 (the row holds plain values where
    /// the plug-in's mapping is linear, else 0…1).
    private static func normalized(_ parameter: BinaryParameter, _ value: Double) -> Double {
        guard parameter.maximum > parameter.minimum else { return min(max(value, 0), 1) }
        return min(max((value - parameter.minimum) / (parameter.maximum - parameter.minimum), 0), 1)
    }

    /// Each parameter's unit, by id, as the controller gives it (a row kept in 0…1 has none
    /// of its own to show it).
    private lazy var units: [UInt32: String] = {
        var units: [UInt32: String] = [:]
        for index in 0..<detent_vst3_parameter_count(record) {
            var p = DetentVst3Parameter()
            if detent_vst3_parameter(record, index, &p) { units[p.identifier] = VST3Scan.trimmed(VST3.text(p.unit)) }
        }
        return units
    }()

    deinit { detent_vst3_instance_free(record) }
}
