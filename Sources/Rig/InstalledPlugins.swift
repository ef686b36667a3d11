import BinaryPlugins
import CLAP
import Ladspa
import PluginFormats
import LV2
import VST2
import VST3

/// The plug-in formats Detent hosts, in the order a name is looked for in them (LV2 first, so
/// that names which found an LV2 plug-in before other formats were hosted still do; where one
/// name is installed in several formats, the first format's is chosen). The one place that
/// names the formats: everything else goes through the catalogue.
package enum InstalledPlugins {
    /// The formats whose plug-ins are binaries read in a child process (`detent scan`).
    package static let binaryBackends: [any BinaryBackend] = [CLAPBackend(), VST3Backend(), VST2Backend()]

    package static let catalogue = PluginCatalogue(
        formats: [LV2Format(), LadspaFormat.ladspa, LadspaFormat.dssi] + binaryBackends.map { BinaryFormat($0) as any PluginFormat })

    /// The body of `detent scan FORMAT PATH…` (and Python's `detent._slot scan`): each plug-in
    /// of each binary as a line for the scanning parent.
    package static func serveScan(format: String, paths: [String]) -> Int32 {
        BinaryScan.serve(format: format, paths: paths, backends: binaryBackends)
    }
}
