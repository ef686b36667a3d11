import Ladspa
import PluginFormats
import LV2

/// The plug-in formats Detent hosts, in the order a partial name is looked for in them (LV2
/// first, so that names which found an LV2 plug-in before other formats were hosted still do).
/// The one place that names the formats: everything else goes through the catalogue.
package enum InstalledPlugins {
    package static let catalogue = PluginCatalogue(formats: [LV2Format(), LadspaFormat.ladspa, LadspaFormat.dssi])
}
