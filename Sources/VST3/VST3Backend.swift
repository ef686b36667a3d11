import BinaryPlugins
import CPluginKernel
import CVst3
import PluginFormats
import Presets

/// VST3 as a binary format: `.vst3` bundles (the shared object in
/// `Contents/ARCH-linux/NAME.so`) or `.vst3` shared objects, in `VST3_PATH`, `~/.vst3` and
/// the system's folders. Each class of category `Audio Module Class` is a plug-in, named
/// `vst3:` and its class id (32 hex digits); its parameters take the plug-in's own values
/// when it maps normalized values to them linearly, else 0…1.
package struct VST3Backend: BinaryBackend {
    package init() {}
    package var name: String { "VST3" }
    package var prefix: String { "vst3:" }

    package func folders() -> [String] {
        FormatFolders.list(variables: ["VST3_PATH"], home: [".vst3"], system: ["/usr/lib/vst3", "/usr/local/lib/vst3"])
    }

    package func isBinary(name: String) -> Bool { name.hasSuffix(".vst3") }

    package func scan(_ path: String) -> [BinaryPlugin] { VST3Scan.plugins(in: path, backend: self) }

    package var bridge: UnsafePointer<LV2_Descriptor> { detent_vst3_bridge() }

    package func instantiate(_ plugin: BinaryPlugin, layout: BinaryPortLayout, sampleRate: Double,
                             maxFrames: Int) throws(PluginError) -> any BinaryInstance {
        try VST3Instance(plugin, sampleRate: sampleRate, maxFrames: maxFrames)
    }

    /// The plug-in's programs (``VST3Programs``).
    package func factoryPresets(_ plugin: BinaryPlugin) -> [FactoryPreset] { VST3Programs.factory(for: plugin) }
}
