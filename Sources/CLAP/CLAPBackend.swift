import BinaryPlugins
import CClap
import CPluginKernel
import PluginFormats

/// CLAP as a binary format.
package struct CLAPBackend: BinaryBackend {
    package init() {}
    package var name: String { "CLAP" }
    package var prefix: String { "clap:" }
    package func folders() -> [String] { [] }
    package func isBinary(name: String) -> Bool { false }
    package func scan(_ path: String) -> [BinaryPlugin] { [] }
    package var bridge: UnsafePointer<LV2_Descriptor> { detent_clap_bridge() }
    package func instantiate(_ plugin: BinaryPlugin, layout: BinaryPortLayout, sampleRate: Double,
                             maxFrames: Int) throws(PluginError) -> any BinaryInstance {
        throw .notHostable(name: plugin.name, reason: "is not hosted yet")
    }
}
