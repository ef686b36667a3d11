import TextFormats
import AudioEngine
import Parameters
import Platform
import Presets
import PluginFormats
import Synchronization

/// The processor a command or a Python chain hosts, as `--plugin` (repeatable) and `--chain`
/// name it: the built-in lowpass + gain when neither is given, one processor, or several in
/// series as a chain whose parameters are `SLOT.ID`.
package struct PluginChoice: Sendable, Equatable {
    /// `--plugin`'s references, in order (`NAME=REFERENCE` names a slot).
    package var plugins: [String] = []
    /// `--chain`'s file.
    package var chain: String?
    /// `--graph`'s file (``GraphFile``).
    package var graph: String?

    package init(plugins: [String] = [], chain: String? = nil, graph: String? = nil) {
        self.plugins = plugins
        self.chain = chain
        self.graph = graph
    }

    /// The graph file's slot values as `--set` assignments, applied before the command's own
    /// (none without `--graph`, or when the file cannot be read: ``resolved()`` says why).
    package var startingSets: [String] {
        guard let graph, let file = try? GraphFile.read(graph) else { return [] }
        return file.assignments
    }

    /// What tells one choice of processor from another (a cache key).
    package var key: String { plugins.joined(separator: "\n") + "\u{0}" + (chain ?? "") + "\u{0}" + (graph ?? "") }

    /// The `--chain` file, which is also the preset the command starts from when no
    /// `--preset` is given.
    package var startingPreset: String? { chain }

    /// True when no option was given: the built-in alone.
    package var isDefault: Bool { plugins.isEmpty && chain == nil && graph == nil }

    /// The processor and its preset store (a single plug-in's own LV2 presets are its
    /// read-only factory presets), each plug-in found once.
    ///
    /// - Throws: ``PluginError`` for a plug-in that cannot be found or hosted (unknown,
    ///   ambiguous, a bad slot name: exit 64) or a chain that cannot be made (65).
    package func resolved() throws(PluginError) -> (processor: Processor, store: PresetStore) {
        let given = [plugins.isEmpty ? nil : "--plugin", chain == nil ? nil : "--chain", graph == nil ? nil : "--graph"].compactMap { $0 }
        if given.count > 1 {
            throw PluginError.chain(reason: "use one of --plugin, --chain and --graph, not \(given.joined(separator: " and "))")
        }
        if let graph {
            let processor = try GraphFile.read(graph).processor()
            return (processor, ProcessorReference.store(for: processor))
        }
        if let chain { return try ProcessorReference.find(ProcessorReference.identifier(inChainFile: chain)) }
        return try ProcessorReference.find(plugins: plugins)
    }
}

/// Processors found by the references users type and files store: `builtin`, a plug-in's
/// URI, name, label, `ladspa:ID` or `FILE.so:LABEL`, a chain's identifier.
package enum ProcessorReference {
    /// The name that puts the built-in in a chain.
    package static let builtInName = "builtin"

    /// The processors `plugins` name, in order, as one processor: nothing is the built-in,
    /// one is that processor with its plain ids, more are a chain.
    package static func find(plugins: [String]) throws(PluginError) -> (processor: Processor, store: PresetStore) {
        if plugins.count <= 1 { return try find(plugins.first.map(slot)?.reference) }
        var parts: [(name: String, processor: Processor)] = []
        for text in plugins {
            let (given, reference) = slot(text)
            parts.append((given ?? "", try processor(reference)))
        }
        // Slots not named by the user get a short name from their processor, unique in the chain.
        for i in parts.indices where parts[i].name.isEmpty {
            parts[i].name = Processor.uniqueSlotName(parts[i].processor.defaultSlotName(position: i + 1),
                                                     among: parts.map(\.name).filter { !$0.isEmpty })
        }
        return try chain(parts)
    }

    /// The same for a stored identifier (a preset's or session's `processor`): nil or the
    /// built-in's for the built-in, a plug-in URI or name, or a chain's identifier.
    package static func find(_ identifier: String?) throws(PluginError) -> (processor: Processor, store: PresetStore) {
        guard let identifier else { return (.lowpassGain, .standard()) }
        if let (slots, connections) = Processor.graphParts(of: identifier) {
            var parts: [(name: String, processor: Processor)] = []
            for slot in slots { parts.append((slot.name, try processor(slot.identifier))) }
            let graph = try GraphFile.graph(parts, connections: connections, path: "graph")
            return (graph, store(for: graph))
        }
        if let parts = Processor.chainParts(of: identifier) {
            var processors: [(name: String, processor: Processor)] = []
            for part in parts { processors.append((part.name, try processor(part.identifier))) }
            return try chain(processors)
        }
        if isBuiltIn(identifier) { return (.lowpassGain, .standard()) }
        let entry = try InstalledPlugins.catalogue.find(identifier)
        announce(entry)
        let processor = try made(entry, reference: identifier)
        let scope = PresetScope(processor: processor.identifier, table: processor.table)
        return (processor, .standard(scope: scope, lazyFactoryPresets: { entry.factoryPresets() }))
    }

    /// The preset store of a processor already found: the standard one for the built-in, a
    /// plug-in's with its factory presets, a chain's (chain presets only).
    package static func store(for processor: Processor) -> PresetStore {
        if processor == .lowpassGain { return .standard() }
        let scope = PresetScope(processor: processor.identifier, table: processor.table)
        guard processor.slots.isEmpty else { return .standard(scope: scope, factoryPresets: []) }
        let entry = InstalledPlugins.catalogue.entry(identifier: processor.identifier)
        return .standard(scope: scope, lazyFactoryPresets: { entry?.factoryPresets() ?? [] })
    }

    /// One processor by reference: `builtin` (or its identifier), or an installed plug-in of
    /// any format (see ``PluginCatalogue``).
    package static func processor(_ reference: String) throws(PluginError) -> Processor {
        if isBuiltIn(reference) { return .lowpassGain }
        let entry = try InstalledPlugins.catalogue.find(reference)
        announce(entry)
        return try made(entry, reference: reference)
    }

    /// The processor of `entry`, found by `reference`: one named by its file keeps the file's
    /// path, where a sandbox finds it again, wherever it is (``Processor/foundAt``).
    private static func made(_ entry: PluginEntry, reference: String) throws(PluginError) -> Processor {
        var processor = try entry.processor()
        if reference.contains("/"), PathString.exists(reference) {
            processor.foundAt = reference.hasPrefix("/") ? reference : ThisProcess.currentFolder + "/" + reference
        }
        return processor
    }

    private static let announced = Mutex<Set<String>>([])

    /// Says on standard error, once per process, which build a name chose where one plug-in
    /// is installed in several formats.
    static func announce(_ entry: PluginEntry) {
        guard let note = entry.choiceNote, announced.withLock({ $0.insert(note).inserted }) else { return }
        Console.warning(note)
    }

    /// True for `builtin` and the built-in's identifier.
    package static func isBuiltIn(_ reference: String) -> Bool {
        reference.lowercased() == builtInName || reference == Processor.lowpassGain.identifier
    }

    /// A chain of `parts` and its preset store (chain presets only: a slot's own factory
    /// presets belong to the slot).
    private static func chain(_ parts: [(name: String, processor: Processor)]) throws(PluginError) -> (processor: Processor, store: PresetStore) {
        let chain: Processor
        do {
            chain = try Processor.chain(parts)
        } catch {
            throw .chain(reason: error.description)
        }
        return (chain, .standard(scope: PresetScope(processor: chain.identifier, table: chain.table), factoryPresets: []))
    }

    /// `NAME=REFERENCE` as a slot name and a reference; anything else (a URI, a name with
    /// spaces) as a reference alone.
    package static func slot(_ text: String) -> (name: String?, reference: String) { Processor.slotNameAndReference(text) }

    /// The processor a chain (or preset) file names in its `processor` field; the built-in
    /// when it names none.
    package static func identifier(inChainFile path: String) throws(PluginError) -> String {
        let bytes: [UInt8]
        do {
            bytes = try BoundedFileReader.read(path: path, limit: PresetCodec.maximumFileSize)
        } catch {
            throw .chainFile(path: path, reason: "cannot be read (\(error))")
        }
        let document: JSONValue
        do { document = try JSONParser.parse(bytes) } catch { throw .chainFile(path: path, reason: "\(error)") }
        switch document.member("processor") {
        case nil: return Processor.lowpassGain.identifier
        case .string(let identifier)?: return identifier
        case let other?: throw .chainFile(path: path, reason: "'processor' is \(other.kindDescription), not a string")
        }
    }
}
