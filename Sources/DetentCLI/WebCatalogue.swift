import PluginFormats
import Rig
import Synchronization
import WebBridge

/// The plug-ins the browser panel offers to add: Detent's own lowpass and gain first, then
/// every hostable one of every format, as `detent plugins` lists them (MIDI-only plug-ins,
/// which a live rig cannot hold, left out).
/// Read the first time a page asks and kept: a plug-in installed while the host runs is
/// offered after a restart.
enum WebCatalogue {
    private static let read = Mutex<[CatalogueEntry]?>(nil)

    @Sendable static func entries() -> [CatalogueEntry] {
        read.withLock { cached in
            if let cached { return cached }
            // A format that cannot be read here (no lilv) leaves the others offered.
            let entries = InstalledPlugins.catalogue.installed().entries.filter { $0.isHostable && !$0.isMIDIOnly }.map { entry in
                CatalogueEntry(name: entry.name, identifier: entry.identifier, format: entry.format, category: entry.className,
                               maker: entry.maker, inputs: entry.audioInputs, outputs: entry.audioOutputs,
                               isInstrument: entry.className == "Instrument" || (entry.takesMIDI && entry.audioInputs == 0))
            }
            // The built-in takes any number of channels: 0 in, 0 out says so.
            let builtIn = CatalogueEntry(name: "Lowpass + gain", identifier: "builtin", format: "Detent", category: "Filter",
                                         maker: "Detent", inputs: 0, outputs: 0, isInstrument: false)
            cached = [builtIn] + entries
            return [builtIn] + entries
        }
    }
}
