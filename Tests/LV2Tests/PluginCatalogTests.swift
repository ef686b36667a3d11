import AudioEngine
import Parameters
@testable import LV2
import Testing

/// Discovery against the plug-ins Debian's packages install (`swh-lv2 mda-lv2 x42-plugins
/// lsp-plugins-lv2 zam-plugins`, which `Scripts/setup` installs).
@Suite("Plug-in catalog")
struct PluginCatalogTests {
    static let packagePrefixes = ["http://plugin.org.uk/swh-plugins/", "http://drobilla.net/plugins/mda/",
                                  "http://gareus.org/oss/lv2/", "http://lsp-plug.in/plugins/lv2/", "urn:zamaudio:"]

    /// The audio effects of those packages: audio in and audio out.
    static var effects: [PluginDescription] {
        PluginCatalog.installed.filter { plugin in
            packagePrefixes.contains { plugin.uri.hasPrefix($0) }
                && plugin.ports.contains { $0.kind == .audio && $0.isInput }
                && plugin.ports.contains { $0.kind == .audio && !$0.isInput }
        }
    }

    @Test("the packages' effects are installed, and every one with only audio and control ports is hostable")
    func plainEffectsAreHostable() {
        let effects = Self.effects
        #expect(effects.count >= 300, "the plug-in packages are installed (\(effects.count) effects found)")
        let plain = effects.filter { $0.ports.allSatisfy { $0.kind == .audio || $0.kind == .control } }
        #expect(plain.count >= 150)
        for plugin in plain {
            #expect(plugin.isHostable, "\(plugin.uri): \(plugin.unhostableReason ?? "")")
        }
    }

    @Test("at least 95 % of the effects with other ports (atom, CV) are hostable")
    func mostOtherEffectsAreHostable() {
        let others = Self.effects.filter { !$0.ports.allSatisfy { $0.kind == .audio || $0.kind == .control } }
        #expect(!others.isEmpty)
        let hostable = others.filter(\.isHostable)
        #expect(Double(hostable.count) >= 0.95 * Double(others.count),
                "\(hostable.count) of \(others.count): \(others.filter { !$0.isHostable }.map { "\($0.uri) \($0.unhostableReason!)" })")
    }

    @Test("instruments (MIDI in, audio out, no audio in) are hostable and take MIDI")
    func instrumentsAreHostable() throws {
        let instruments = PluginCatalog.installed.filter { $0.isSource && $0.hasMIDIInput }
        #expect(instruments.count >= 4, "mda's and x42's synths are installed")
        for plugin in instruments {
            #expect(plugin.isHostable, "\(plugin.uri): \(plugin.unhostableReason ?? "")")
            #expect(try Processor.plugin(plugin).acceptsMIDI)
        }
    }

    @Test("a plug-in that is not hostable says why in one line")
    func unhostableReasons() throws {
        let unhostable = PluginCatalog.installed.filter { !$0.isHostable }
        #expect(!unhostable.isEmpty)
        for plugin in unhostable {
            let reason = try #require(plugin.unhostableReason)
            #expect(!reason.contains("\n") && !reason.isEmpty)
        }
    }

    @Test("a plug-in that requires a feature Detent lacks is not hostable, with the feature named")
    func missingFeature() throws {
        let plugin = try PluginSearch.find("http://plugin.org.uk/swh-plugins/buttlow_iir")
        let needy = PluginDescription(
            uri: plugin.uri, name: plugin.name, className: plugin.className, ports: plugin.ports,
            requiredFeatures: [LV2URI.uridMap, "http://example.org/ns#teleport"], extensionData: [],
            hasDefaultState: false)
        #expect(needy.unhostableReason == "requires the feature <http://example.org/ns#teleport>")
        #expect(throws: PluginError.notHostable(name: plugin.name, reason: needy.unhostableReason!)) {
            try Processor.plugin(needy)
        }
    }

    @Test("ports become rows: symbol as id, sample-rate ports in Hz, logarithmic ports on a log taper")
    func buttlowTable() throws {
        let plugin = try PluginSearch.find("http://plugin.org.uk/swh-plugins/buttlow_iir")
        let table = try Processor.plugin(plugin).table
        #expect(table.ids.map { table[$0].id } == ["cutoff", "resonance"])
        let cutoff = table[try table.index(of: "cutoff")]
        #expect(cutoff.unit == .hertz && cutoff.taper == .logarithmic)
        // Declared as 0.0001 … 0.45 of the sample rate: shown at 48 kHz.
        #expect(abs(cutoff.range.lowerBound - 4.8) < 1e-6 && abs(cutoff.range.upperBound - 21_600) < 1e-3)
        #expect(cutoff.smoothing == .multiplicative)
    }

    @Test("toggles, integers and enumerations keep their kind and labels")
    func steppedKinds() throws {
        var kinds = Set<String>()
        for plugin in Self.effects where plugin.isHostable {
            let table = try Processor.plugin(plugin).table
            for spec in table.specs {
                kinds.insert(spec.kind.name)
                if case .enumeration(let points) = spec.kind {
                    #expect(!points.isEmpty)
                    #expect(points.allSatisfy { spec.range.contains($0.value) })
                    #expect(spec.format(points[0].value, ascii: true) == points[0].label)
                }
            }
        }
        #expect(kinds == ["continuous", "toggle", "integer", "enumeration"])
    }

    @Test("a URI, a whole name in any case, or a unique part of a name finds the plug-in")
    func search() throws {
        #expect(try PluginSearch.find("http://drobilla.net/plugins/mda/Overdrive").name == "MDA Overdrive")
        #expect(try PluginSearch.find("mda overdrive").uri == "http://drobilla.net/plugins/mda/Overdrive")
        #expect(try PluginSearch.find("buttlow_iir").uri == "http://plugin.org.uk/swh-plugins/buttlow_iir")
    }

    @Test("an ambiguous name lists the candidates; an unknown one the closest names")
    func searchErrors() {
        #expect {
            try PluginSearch.find("compressor")
        } throws: { error in
            guard case .ambiguous(_, let candidates) = error as? PluginError else { return false }
            return candidates.count > 1 && (error as! PluginError).exitCode == 64
        }
        #expect {
            try PluginSearch.find("MDA Overdrve")
        } throws: { error in
            guard case .unknown(_, let closest) = error as? PluginError else { return false }
            return closest.contains("MDA Overdrive")
        }
    }
}
