import CLilv
import Platform
import Synchronization

/// The installed LV2 plug-ins as lilv sees them: one world per process, loaded on first use.
///
/// lilv is not thread-safe, so every call into the world goes through ``withWorld(_:)``,
/// which holds a lock; instances, once made, run without it.
final class LV2World: @unchecked Sendable {
    static let shared = LV2World()

    private let lock = Mutex(())
    let world: OpaquePointer
    /// Nodes for the URIs Detent asks about, made once.
    let uris: URINodes

    private init() {
        world = lilv_world_new()
        Self.loadBundles(world)
        uris = URINodes(world)
    }

    /// Loads every bundle of the search path (`LV2_PATH`, in its order) as
    /// `lilv_world_load_all` does, but only folders that hold a `manifest.ttl`: lilv would
    /// try any entry, and print its own error lines on stderr for a file or a folder that is
    /// not a bundle.
    private static func loadBundles(_ world: OpaquePointer) {
        let home = Environment.value("HOME") ?? ""
        for folder in PluginListing.searchPath.split(separator: ":").map(String.init) where !folder.isEmpty {
            let path = folder.hasPrefix("~/") ? home + folder.dropFirst() : folder
            for name in ((try? FolderEntries.names(in: path)) ?? []).sorted() {
                let bundle = path + "/" + name + "/"
                guard PathString.isReadable(bundle + "manifest.ttl"), let uri = lilv_new_file_uri(world, nil, bundle) else { continue }
                lilv_world_load_bundle(world, uri)
                lilv_node_free(uri)
            }
        }
        lilv_world_load_specifications(world)
        lilv_world_load_plugin_classes(world)
    }

    /// Runs `body` with the world locked.
    func withWorld<T, E: Error>(_ body: (OpaquePointer, URINodes) throws(E) -> T) throws(E) -> T {
        nonisolated(unsafe) var result: Result<T, E>?
        lock.withLock { _ in result = Result { () throws(E) -> T in try body(world, uris) } }
        return try result!.get()
    }
}

/// lilv nodes of the LV2 vocabulary a host reads: port classes and properties, units, presets.
struct URINodes: @unchecked Sendable {
    let audioPort, controlPort, atomPort, cvPort, eventPort, inputPort, outputPort: OpaquePointer
    let integer, toggled, enumeration, sampleRate, logarithmic, notOnGUI, expensive: OpaquePointer
    let connectionOptional, isSideChain, reportsLatency, designation, latency, unit: OpaquePointer
    let presetClass, stateState, midiEvent, resizeMinimumSize: OpaquePointer
    let loadDefaultStateFeature, group, sideChainOf, timePosition: OpaquePointer
    let patchWritable, patchReadable, patchMessage, control, rdfsLabel, rdfsRange, minimum, maximum, defaultValue: OpaquePointer
    let supportedOption: OpaquePointer

    init(_ world: OpaquePointer) {
        func node(_ uri: String) -> OpaquePointer { lilv_new_uri(world, uri) }
        audioPort = node(LV2URI.core + "AudioPort")
        controlPort = node(LV2URI.core + "ControlPort")
        atomPort = node(LV2URI.atom + "AtomPort")
        cvPort = node(LV2URI.core + "CVPort")
        eventPort = node("http://lv2plug.in/ns/ext/event#EventPort")
        inputPort = node(LV2URI.core + "InputPort")
        outputPort = node(LV2URI.core + "OutputPort")
        integer = node(LV2URI.core + "integer")
        toggled = node(LV2URI.core + "toggled")
        enumeration = node(LV2URI.core + "enumeration")
        sampleRate = node(LV2URI.core + "sampleRate")
        logarithmic = node(LV2URI.portProps + "logarithmic")
        notOnGUI = node(LV2URI.portProps + "notOnGUI")
        expensive = node(LV2URI.portProps + "expensive")
        connectionOptional = node(LV2URI.core + "connectionOptional")
        isSideChain = node(LV2URI.core + "isSideChain")
        reportsLatency = node(LV2URI.core + "reportsLatency")
        designation = node(LV2URI.core + "designation")
        latency = node(LV2URI.core + "latency")
        unit = node(LV2URI.units + "unit")
        presetClass = node(LV2URI.presets + "Preset")
        stateState = node(LV2URI.state + "state")
        midiEvent = node(LV2URI.midi + "MidiEvent")
        resizeMinimumSize = node(LV2URI.resizePort + "minimumSize")
        loadDefaultStateFeature = node(LV2URI.loadDefaultState)
        group = node(LV2URI.portGroups + "group")
        sideChainOf = node(LV2URI.portGroups + "sideChainOf")
        timePosition = node(LV2URI.time + "Position")
        patchWritable = node(LV2URI.patch + "writable")
        patchReadable = node(LV2URI.patch + "readable")
        patchMessage = node(LV2URI.patch + "Message")
        control = node(LV2URI.core + "control")
        rdfsLabel = node(LV2URI.rdfs + "label")
        rdfsRange = node(LV2URI.rdfs + "range")
        minimum = node(LV2URI.core + "minimum")
        maximum = node(LV2URI.core + "maximum")
        defaultValue = node(LV2URI.core + "default")
        supportedOption = node(LV2URI.options + "supportedOption")
    }
}

/// The text of a lilv node (a string, URI or number as written), or nil.
func text(of node: OpaquePointer?) -> String? {
    guard let node, let chars = lilv_node_as_string(node) else { return nil }
    return String(cString: chars)
}
