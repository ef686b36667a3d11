import BinaryPlugins
import CVst3
import CPluginKernel
import PluginFormats

/// VST3 as a binary format.
package struct VST3Backend: BinaryBackend {
    package init() {}
    package var name: String { "VST3" }
    package var prefix: String { "vst3:" }
    package func folders() -> [String] { [] }
    package func isBinary(name: String) -> Bool { false }
    package func scan(_ path: String) -> [BinaryPlugin] { [] }
    package var bridge: UnsafePointer<LV2_Descriptor> { detent_vst3_bridge() }
    package func instantiate(_ plugin: BinaryPlugin, layout: BinaryPortLayout, sampleRate: Double,
                             maxFrames: Int) throws(PluginError) -> any BinaryInstance {
        throw .notHostable(name: plugin.name, reason: "is not hosted yet")
    }
}
