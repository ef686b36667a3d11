/// The LV2 vocabulary's URI prefixes, and the full URIs of the host features Detent provides.
enum LV2URI {
    static let core = "http://lv2plug.in/ns/lv2core#"
    static let atom = "http://lv2plug.in/ns/ext/atom#"
    static let portProps = "http://lv2plug.in/ns/ext/port-props#"
    static let units = "http://lv2plug.in/ns/extensions/units#"
    static let presets = "http://lv2plug.in/ns/ext/presets#"
    static let state = "http://lv2plug.in/ns/ext/state#"
    static let midi = "http://lv2plug.in/ns/ext/midi#"
    static let midiEvent = midi + "MidiEvent"
    static let time = "http://lv2plug.in/ns/ext/time#"
    static let portGroups = "http://lv2plug.in/ns/ext/port-groups#"
    static let resizePort = "http://lv2plug.in/ns/ext/resize-port#"
    static let options = "http://lv2plug.in/ns/ext/options#"
    static let bufSize = "http://lv2plug.in/ns/ext/buf-size#"
    static let parameters = "http://lv2plug.in/ns/ext/parameters#"
    static let log = "http://lv2plug.in/ns/ext/log#"
    static let worker = "http://lv2plug.in/ns/ext/worker#"
    static let patch = "http://lv2plug.in/ns/ext/patch#"
    static let rdfs = "http://www.w3.org/2000/01/rdf-schema#"

    static let uridMap = "http://lv2plug.in/ns/ext/urid#map"
    static let uridUnmap = "http://lv2plug.in/ns/ext/urid#unmap"
    static let optionsFeature = options + "options"
    static let boundedBlockLength = bufSize + "boundedBlockLength"
    static let powerOf2BlockLength = bufSize + "powerOf2BlockLength"
    static let fixedBlockLength = bufSize + "fixedBlockLength"
    static let coarseBlockLength = bufSize + "coarseBlockLength"
    static let logFeature = log + "log"
    static let workerSchedule = worker + "schedule"
    static let workerInterface = worker + "interface"
    static let stateInterface = state + "interface"
    static let loadDefaultState = state + "loadDefaultState"
    static let isLive = core + "isLive"
    static let inPlaceBroken = core + "inPlaceBroken"
    static let hardRTCapable = core + "hardRTCapable"

    /// The features a plug-in may require and Detent provides. `fixedBlockLength` and
    /// `powerOf2BlockLength` are not among them: a block's length changes with the JACK
    /// period (PipeWire's quantum need not be a power of two) and with `--block`. A plug-in
    /// that asks for any of the three buf-size block features (`coarseBlockLength` as an
    /// optional one, as convoLV2 does) has its runs left whole (``PluginDescription/runsWholeBlocks``).
    static let provided: Set<String> = [
        uridMap, uridUnmap, optionsFeature, boundedBlockLength, coarseBlockLength, logFeature, workerSchedule,
        loadDefaultState, isLive, inPlaceBroken, hardRTCapable,
    ]
}
