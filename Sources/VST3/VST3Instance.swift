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

    deinit { detent_vst3_instance_free(record) }
}
