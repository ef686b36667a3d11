import CLilv
import Parameters
import Presets

/// A plug-in's own LV2 presets (`pset:Preset`), as read-only factory presets of Detent: their
/// port values become values by symbol, so they list, show, load and start renders like
/// Detent's own.
public enum PluginPresets {
    /// The presets of `plugin`, as preset files' text, in label order.
    public static func factory(for plugin: PluginDescription) -> [FactoryPreset] {
        guard let (table, ports) = try? PluginTable.make(plugin) else { return [] }
        let rows = Dictionary(ports.enumerated().map { ($0.element.symbol, ParameterIndex($0.offset)) }, uniquingKeysWith: { a, _ in a })
        let symbols = Set(rows.keys)
        let found: [(label: String, values: [(String, Double)], state: String?)] = LV2World.shared.withWorld { world, uris in
            guard let lilvPlugin = PluginCatalog.lilvPlugin(plugin.uri, in: world),
                  let related = lilv_plugin_get_related(lilvPlugin, uris.presetClass) else { return [] }
            defer { lilv_nodes_free(related) }
            var presets: [(String, [(String, Double)], String?)] = []
            var i = lilv_nodes_begin(related)
            while !lilv_nodes_is_end(related, i) {
                defer { i = lilv_nodes_next(related, i) }
                guard let preset = lilv_nodes_get(related, i) else { continue }
                lilv_world_load_resource(world, preset)
                guard let state = lilv_state_new_from_world(world, URIDMap.shared.mapFeature, preset) else { continue }
                defer { lilv_state_free(state) }
                let label = lilv_state_get_label(state).map { String(cString: $0) }
                    ?? text(of: preset).map { $0.split(separator: "#").last.map(String.init) ?? $0 } ?? "Preset"
                var collected = PortValues()
                withUnsafeMutablePointer(to: &collected) { pointer in
                    lilv_state_emit_port_values(state, { symbol, user, value, size, type in
                        guard let symbol, let user, let value else { return }
                        let values = user.assumingMemoryBound(to: PortValues.self)
                        let map = URIDMap.shared
                        // A float as the shortest decimal that reads back to it (0.2, not
                        // 0.20000000298023224), as a person would have typed it.
                        let number: Double? = switch type {
                        case map.map(LV2URI.atom + "Float") where size == 4: Double("\(value.load(as: Float.self))")
                        case map.map(LV2URI.atom + "Double") where size == 8: value.load(as: Double.self)
                        case map.map(LV2URI.atom + "Int") where size == 4: Double(value.load(as: Int32.self))
                        case map.map(LV2URI.atom + "Bool") where size == 4: Double(value.load(as: Int32.self))
                        default: nil
                        }
                        if let number, number.isFinite { values.pointee.values.append((String(cString: symbol), number)) }
                    }, pointer)
                }
                // A preset with properties beyond its port values (an impulse response's path)
                // is restored whole when it is loaded.
                let stateURI = lilv_world_ask(world, preset, uris.stateState, nil) ? text(of: preset) : nil
                presets.append((label, collected.values.filter { symbols.contains($0.0) }, stateURI))
            }
            return presets
        }
        var used = Set<String>()
        return found.sorted { $0.label.lowercased() < $1.label.lowercased() }.compactMap { preset in
            guard used.insert(preset.label.lowercased()).inserted else { return nil }
            var values: [ParameterIndex: Double] = [:]
            for (symbol, value) in preset.values { if let row = rows[symbol] { values[row] = value } }
            let text = PresetCodec.encode(Preset(
                name: preset.label, comment: "\(plugin.name)'s own preset",
                values: ParameterValues(table: table, values), processor: plugin.uri,
                state: preset.state.map { SavedState.preset(uri: $0) }))
            return FactoryPreset(fileName: preset.label + ".lv2", jsonText: text,
                                 source: "\(plugin.name) preset '\(preset.label)'")
        }
    }

    private struct PortValues { var values: [(String, Double)] = [] }
}
