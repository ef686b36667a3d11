import Platform
import CLilv

/// The installed LV2 plug-ins, read once per process.
///
/// ```swift
/// let plugins = PluginCatalog.installed
/// plugins.first { $0.isHostable }?.name
/// ```
public enum PluginCatalog {
    /// Opens lilv, which Detent loads when it first needs it rather than at start-up (see
    /// DetentLibrary.h): the front ends call this before anything else touches plug-ins, so
    /// that a missing lilv is one clear error rather than an exit from deep inside.
    public static func requireLibrary() throws(PluginError) {
        if let problem = detent_lilv_load() { throw .hostLibraryMissing(reason: String(cString: problem)) }
    }

    /// Every installed plug-in, in name order.
    public static var installed: [PluginDescription] { cache.value }

    private static let cache = Lazy {
        LV2World.shared.withWorld { world, uris in
            var found: [PluginDescription] = []
            let plugins = lilv_world_get_all_plugins(world)
            var i = lilv_plugins_begin(plugins)
            while !lilv_plugins_is_end(plugins, i) {
                if let plugin = lilv_plugins_get(plugins, i) { found.append(describe(plugin, uris, world)) }
                i = lilv_plugins_next(plugins, i)
            }
            return found.sorted { ($0.name.lowercased(), $0.uri) < ($1.name.lowercased(), $1.uri) }
        }
    }

    /// The installed plug-in with this URI, read alone: a render naming its plug-in by URI
    /// does not pay for reading every plug-in's description (over a second with LSP's).
    public static func plugin(uri: String) -> PluginDescription? {
        LV2World.shared.withWorld { world, uris in
            lilvPlugin(uri, in: world).map { describe($0, uris, world) }
        }
    }

    /// The lilv plug-in for `uri` (with the world locked by the caller).
    static func lilvPlugin(_ uri: String, in world: OpaquePointer) -> OpaquePointer? {
        let node = lilv_new_uri(world, uri)
        defer { lilv_node_free(node) }
        return lilv_plugins_get_by_uri(lilv_world_get_all_plugins(world), node)
    }

    static func describe(_ plugin: OpaquePointer, _ uris: URINodes, _ world: OpaquePointer) -> PluginDescription {
        let uri = text(of: lilv_plugin_get_uri(plugin)) ?? ""
        let nameNode = lilv_plugin_get_name(plugin)
        defer { lilv_node_free(nameNode) }
        let className = lilv_plugin_get_class(plugin).flatMap { text(of: lilv_plugin_class_get_label($0)) } ?? "Plugin"
        let ports = (0..<lilv_plugin_get_num_ports(plugin)).compactMap { index -> PortDescription? in
            guard let port = lilv_plugin_get_port_by_index(plugin, index) else { return nil }
            return describePort(plugin, port, index, uris, world)
        }
        let required = nodeTexts(lilv_plugin_get_required_features(plugin))
        let extensions = nodeTexts(lilv_plugin_get_extension_data(plugin))
        let hasState = lilv_plugin_has_feature(plugin, uris.loadDefaultStateFeature)
            || hasValue(lilv_plugin_get_value(plugin, uris.stateState))
        var description = PluginDescription(
            uri: uri, name: text(of: nameNode) ?? uri, className: className, ports: ports,
            requiredFeatures: required, extensionData: extensions, hasDefaultState: hasState)
        let blockFeatures: Set<String> = [LV2URI.coarseBlockLength, LV2URI.fixedBlockLength, LV2URI.powerOf2BlockLength]
        description.runsWholeBlocks = !blockFeatures.isDisjoint(with: required + nodeTexts(lilv_plugin_get_optional_features(plugin)))
        if let author = lilv_plugin_get_author_name(plugin) {
            description.maker = text(of: author) ?? ""
            lilv_node_free(author)
        }
        description.padsLastRun = nodeTexts(lilv_plugin_get_value(plugin, uris.supportedOption)).contains(LV2URI.bufSize + "nominalBlockLength")
        description.properties = properties(uris.patchWritable, plugin, uris, world, pluginURI: uri)
        description.readableProperties = properties(uris.patchReadable, plugin, uris, world, pluginURI: uri)
        return description
    }

    /// The plug-in's `patch:writable` (or `patch:readable`) properties, each described by the
    /// statements about it (its label, range and bounds), in URI order.
    private static func properties(_ relation: OpaquePointer, _ plugin: OpaquePointer, _ uris: URINodes,
                                   _ world: OpaquePointer, pluginURI: String) -> [PropertyDescription] {
        guard let nodes = lilv_plugin_get_value(plugin, relation) else { return [] }
        defer { lilv_nodes_free(nodes) }
        var found: [PropertyDescription] = []
        var i = lilv_nodes_begin(nodes)
        while !lilv_nodes_is_end(nodes, i) {
            if let property = lilv_nodes_get(nodes, i), lilv_node_is_uri(property), let described = text(of: property) {
                let uri = lspPortURI(described, plugin: pluginURI)
                func value(_ predicate: OpaquePointer) -> OpaquePointer? { lilv_world_get(world, property, predicate, nil) }
                func number(_ predicate: OpaquePointer) -> Double? {
                    guard let node = value(predicate) else { return nil }
                    defer { lilv_node_free(node) }
                    return lilv_node_is_float(node) || lilv_node_is_int(node) ? Double(lilv_node_as_float(node)) : nil
                }
                func string(_ predicate: OpaquePointer) -> String? {
                    guard let node = value(predicate) else { return nil }
                    defer { lilv_node_free(node) }
                    return text(of: node)
                }
                let label = string(uris.rdfsLabel) ?? PropertyDescription.localName(uri)
                var description = PropertyDescription(
                    uri: uri, label: label, range: string(uris.rdfsRange),
                    minimum: number(uris.minimum), maximum: number(uris.maximum), defaultValue: number(uris.defaultValue))
                description.unit = string(uris.unit)
                found.append(description)
            }
            i = lilv_nodes_next(nodes, i)
        }
        return found.sorted { $0.uri < $1.uri }
    }

    /// The URI a property is set by. LSP's plug-ins (1.2.x as Debian ships them) describe their
    /// file ports as `http://lsp-plug.in//ports#ID` — their description generator left the
    /// plug-in's URI out — while the plug-ins themselves answer only to
    /// `PLUGIN-URI/ports#ID`, so a `patch:Set` of the described property is ignored and the
    /// file never loads. That one broken prefix is mended; every other URI is taken as described.
    static func lspPortURI(_ described: String, plugin: String) -> String {
        let broken = "http://lsp-plug.in//ports#"
        guard described.hasPrefix(broken), plugin.hasPrefix("http://lsp-plug.in/") else { return described }
        return plugin + "/ports#" + described.dropFirst(broken.count)
    }

    private static func describePort(_ plugin: OpaquePointer, _ port: OpaquePointer, _ index: UInt32,
                                     _ uris: URINodes, _ world: OpaquePointer) -> PortDescription {
        func isA(_ node: OpaquePointer) -> Bool { lilv_port_is_a(plugin, port, node) }
        func has(_ node: OpaquePointer) -> Bool { lilv_port_has_property(plugin, port, node) }
        let kind: PortDescription.Kind =
            isA(uris.audioPort) ? .audio : isA(uris.controlPort) ? .control : isA(uris.atomPort) ? .atom
            : isA(uris.cvPort) ? .cv : isA(uris.eventPort) ? .event : .unknown
        var def: OpaquePointer?, min: OpaquePointer?, max: OpaquePointer?
        lilv_port_get_range(plugin, port, &def, &min, &max)
        defer { lilv_node_free(def); lilv_node_free(min); lilv_node_free(max) }
        func number(_ node: OpaquePointer?) -> Double? {
            guard let node, lilv_node_is_float(node) || lilv_node_is_int(node) else { return nil }
            return Double(lilv_node_as_float(node))
        }
        let nameNode = lilv_port_get_name(plugin, port)
        defer { lilv_node_free(nameNode) }
        let symbol = text(of: lilv_port_get_symbol(plugin, port)) ?? "port\(index)"
        var points: [(Double, String)] = []
        if let scale = lilv_port_get_scale_points(plugin, port) {
            var i = lilv_scale_points_begin(scale)
            while !lilv_scale_points_is_end(scale, i) {
                if let point = lilv_scale_points_get(scale, i), let value = number(lilv_scale_point_get_value(point)) {
                    points.append((value, text(of: lilv_scale_point_get_label(point)) ?? "\(value)"))
                }
                i = lilv_scale_points_next(scale, i)
            }
            lilv_scale_points_free(scale)
        }
        points.sort { $0.0 < $1.0 }
        let unitNodes = lilv_port_get_value(plugin, port, uris.unit)
        defer { lilv_nodes_free(unitNodes) }
        var unit: String?
        if let first = firstNode(unitNodes) {
            unit = lilv_node_is_uri(first) ? text(of: first) : nil
        }
        let sizeNodes = lilv_port_get_value(plugin, port, uris.resizeMinimumSize)
        defer { lilv_nodes_free(sizeNodes) }
        let designations = nodeTexts(lilv_port_get_value(plugin, port, uris.designation))
        let designatesLatency = designations.contains(LV2URI.core + "latency")
        var description = PortDescription(
            index: index, symbol: symbol, name: text(of: nameNode) ?? symbol, kind: kind,
            isInput: isA(uris.inputPort),
            minimum: number(min), maximum: number(max), defaultValue: number(def),
            isInteger: has(uris.integer), isToggled: has(uris.toggled), isEnumeration: has(uris.enumeration),
            isSampleRate: has(uris.sampleRate), isLogarithmic: has(uris.logarithmic),
            isNotOnGUI: has(uris.notOnGUI), isExpensive: has(uris.expensive),
            isOptional: has(uris.connectionOptional),
            isSideChain: has(uris.isSideChain) || inSideChainGroup(plugin, port, uris, world),
            reportsLatency: has(uris.reportsLatency) || designatesLatency,
            unit: unit, scalePoints: points,
            supportsMIDI: lilv_port_supports_event(plugin, port, uris.midiEvent),
            supportsTimePosition: lilv_port_supports_event(plugin, port, uris.timePosition),
            minimumSize: firstNode(sizeNodes).map { Int(lilv_node_as_int($0)) } ?? 0)
        description.isControlDesignation = kind == .atom && designations.contains(LV2URI.core + "control")
        description.takesPatchMessages = kind == .atom && lilv_port_supports_event(plugin, port, uris.patchMessage)
        description.isEnabled = designations.contains(LV2URI.core + "enabled") && kind == .control && isA(uris.inputPort)
        return description
    }

    /// True when the port belongs to a port group that is the side chain of another (how LSP
    /// marks its side-chain inputs, rather than with `lv2:isSideChain`).
    private static func inSideChainGroup(_ plugin: OpaquePointer, _ port: OpaquePointer, _ uris: URINodes,
                                         _ world: OpaquePointer) -> Bool {
        guard let groups = lilv_port_get_value(plugin, port, uris.group) else { return false }
        defer { lilv_nodes_free(groups) }
        var i = lilv_nodes_begin(groups)
        while !lilv_nodes_is_end(groups, i) {
            if let group = lilv_nodes_get(groups, i), lilv_world_ask(world, group, uris.sideChainOf, nil) { return true }
            i = lilv_nodes_next(groups, i)
        }
        return false
    }

    /// The texts of a node collection (which is freed).
    static func nodeTexts(_ nodes: UnsafeMutableRawPointer?) -> [String] {
        guard let nodes else { return [] }
        defer { lilv_nodes_free(nodes) }
        var texts: [String] = []
        var i = lilv_nodes_begin(nodes)
        while !lilv_nodes_is_end(nodes, i) {
            if let t = text(of: lilv_nodes_get(nodes, i)) { texts.append(t) }
            i = lilv_nodes_next(nodes, i)
        }
        return texts
    }

    static func firstNode(_ nodes: UnsafeMutableRawPointer?) -> OpaquePointer? {
        guard let nodes, lilv_nodes_size(nodes) > 0 else { return nil }
        return lilv_nodes_get(nodes, lilv_nodes_begin(nodes))
    }

    private static func hasValue(_ nodes: UnsafeMutableRawPointer?) -> Bool {
        guard let nodes else { return false }
        defer { lilv_nodes_free(nodes) }
        return lilv_nodes_size(nodes) > 0
    }
}
