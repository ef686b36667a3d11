import BinaryPlugins
import CVst2
import CPluginKernel
import Platform
import PluginFormats
import Presets

/// VST2 as a binary format: `.so` libraries with a `VSTPluginMain` (or `main`) entry point,
/// in `VST_PATH`, `LXVST_PATH`, the usual folders and Debian's multiarch ones
/// (`/usr/lib/x86_64-linux-gnu/PACKAGE/vst`). Plug-ins are named `vst2:` and their decimal
/// unique id (a shell's sub-plug-ins: their own id); their parameters run 0…1.
package struct VST2Backend: BinaryBackend {
    package init() {}
    package var name: String { "VST2" }
    package var prefix: String { "vst2:" }

    package func folders() -> [String] {
        FormatFolders.list(variables: ["VST_PATH", "LXVST_PATH"], home: [".vst", ".lxvst"],
                           system: ["/usr/lib/vst", "/usr/lib/lxvst", "/usr/local/lib/vst", "/usr/local/lib/lxvst"])
            + Self.multiarchFolders()
    }

    /// Debian installs some plug-ins under the architecture's library folder, one folder per
    /// package: every `/usr/lib/ARCH-linux-gnu/*/vst` (and `lxvst`).
    static func multiarchFolders() -> [String] {
        let base = "/usr/lib/\(BinaryFolders.architecture)-linux-gnu"
        let packages = ((try? FolderEntries.names(in: base)) ?? []).sorted().filter { !$0.hasPrefix(".") }
        return ["vst", "lxvst"].flatMap { kind in
            packages.map { "\(base)/\($0)/\(kind)" }.filter(PathString.isFolder)
        }
    }

    package func isBinary(name: String) -> Bool { name.hasSuffix(".so") }

    package func scan(_ path: String) -> [BinaryPlugin] { VST2Scan.plugins(in: path, backend: self, sweeping: true) }

    /// Parameters are swept for their display texts (``VST2Curve``).
    package var sweepsParameters: Bool { true }

    package func scanWithoutSweeps(_ path: String) -> [BinaryPlugin] { VST2Scan.plugins(in: path, backend: self, sweeping: false) }

    package var bridge: UnsafePointer<LV2_Descriptor> { detent_vst2_bridge() }

    package func instantiate(_ plugin: BinaryPlugin, layout: BinaryPortLayout, sampleRate: Double,
                             maxFrames: Int) throws(PluginError) -> any BinaryInstance {
        try VST2Instance(plugin, sampleRate: sampleRate, maxFrames: maxFrames)
    }

    /// The plug-in's programs (``VST2Programs``).
    package func factoryPresets(_ plugin: BinaryPlugin) -> [FactoryPreset] { VST2Programs.factory(for: plugin) }
}
