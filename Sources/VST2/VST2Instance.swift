import BinaryPlugins
import CVst2
import Platform
import PluginFormats

/// One open VST2 plug-in, as its processor's instances hold it: the C record the bridge runs,
/// opened (entry point, `effOpen`, sample rate, block size) on the thread that makes it, and
/// closed (`effClose`) as it is released, after the bridge's `deactivate`.
final class VST2Instance: BinaryInstance {
    let record: OpaquePointer

    /// Opens `plugin` from its library; a shell's sub-plug-in is asked for by its id.
    ///
    /// - Throws: ``PluginError/libraryFailed(name:reason:)`` when the library cannot be loaded
    ///   or is no longer a VST2 plug-in, ``PluginError/notHostable(name:reason:)`` when the
    ///   plug-in refuses to open or no longer has the channels and parameters the scan saw.
    init(_ plugin: BinaryPlugin, sampleRate: Double, maxFrames: Int) throws(PluginError) {
        let library: SharedLibrary
        switch VST2Libraries.open(plugin.path) {
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
        guard Int(info.inputs) == plugin.audioInputs, Int(info.outputs) == plugin.audioOutputs,
              Int(info.parameters) == plugin.parameters.count else {
            detent_vst2_close(record)
            throw .notHostable(name: plugin.name, reason: "no longer has the channels and parameters its scan found")
        }
        self.record = record
    }

    var handle: UnsafeMutableRawPointer { UnsafeMutableRawPointer(record) }

    var latency: Int { max(0, Int(detent_vst2_latency(record))) }

    deinit { detent_vst2_close(record) }
}
