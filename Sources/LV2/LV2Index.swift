import CLilv
import AudioEngine
import Platform

/// What `detent plugins` shows of every installed LV2 plug-in, kept between runs in Detent's
/// cache folder (`lv2-index`), so that a plug-in named by its name — `--plugin "MDA
/// Overdrive"` — and the listing itself do not read every plug-in's description. Reading them
/// all takes seconds and a hundred megabytes (LSP's descriptions alone are 26 MB of Turtle);
/// lilv's world, which knows only the bundles' manifests until a plug-in is asked about,
/// costs a few milliseconds. Only the plug-in chosen is then read whole.
///
/// A plug-in's line is trusted while every file lilv reads its description from (its
/// bundle's manifest and the files it names, `lilv_plugin_get_data_uris`) has the device,
/// inode, size and modification time recorded, and while the header — the index's layout and
/// the features Detent provides, on which "hostable" depends — is the same. Any other plug-in
/// (new, updated, reinstalled) is read, and the index rewritten whole. The index is only a
/// shortcut: missing, unreadable or unwritable, every plug-in is read as before.
enum LV2Index {
    /// One plug-in as the index knows it: the listing's columns.
    struct Summary: Equatable {
        let uri: String
        let name: String
        let className: String
        let audioInputs: Int
        let audioOutputs: Int
        let parameters: Int
        let outputs: [String]
        let takesMIDI: Bool
        let isMIDIOnly: Bool
        let unhostableReason: String?
        let maker: String

        init(_ plugin: PluginDescription) {
            uri = plugin.uri
            name = plugin.name
            className = plugin.className
            audioInputs = plugin.audioInputs.count
            audioOutputs = plugin.audioOutputs.count
            parameters = plugin.controlInputs.count
            outputs = plugin.controlOutputs.map(\.symbol)
            takesMIDI = plugin.hasMIDIInput
            isMIDIOnly = plugin.isMIDIOnly
            unhostableReason = plugin.unhostableReason
            maker = plugin.maker
        }

        /// The summary of an index line's fields after the URI and stamp.
        init?(uri: String, fields: ArraySlice<Substring>) {
            let f = Array(fields)
            guard f.count == 9, let inputs = Int(f[2]), let outputs = Int(f[3]), let parameters = Int(f[4]) else { return nil }
            self.uri = uri
            name = String(f[0])
            className = String(f[1])
            audioInputs = inputs
            audioOutputs = outputs
            self.parameters = parameters
            self.outputs = f[5].split(separator: " ").map(String.init)
            takesMIDI = f[6].contains("m")
            isMIDIOnly = f[6].contains("o")
            unhostableReason = f[7].isEmpty ? nil : String(f[7])
            maker = String(f[8])
        }

        /// Its index line's fields after the URI and stamp, or nil when a text holds a tab or a
        /// line break (such a plug-in is read every time).
        var fields: [String]? {
            let texts = [name, className, "\(audioInputs)", "\(audioOutputs)", "\(parameters)",
                         outputs.joined(separator: " "), (takesMIDI ? "m" : "") + (isMIDIOnly ? "o" : ""), unhostableReason ?? "", maker]
            return texts.allSatisfy(CacheFile.fits) && !outputs.contains { $0.contains(" ") } ? texts : nil
        }
    }

    /// The first line of the index: its layout, and a digest of the features Detent provides.
    static var header: String {
        "detent-lv2-index 2 \(digest(LV2URI.provided.sorted().joined(separator: " ")))"
    }

    /// Every installed plug-in's summary, in lilv's order; the index is read first and
    /// rewritten when a plug-in it did not know as it is now was read.
    static func summaries() -> [Summary] {
        let file = CacheFile.path("lv2-index")
        let known = file.flatMap(load) ?? [:]
        return LV2World.shared.withWorld { world, uris in
            var summaries: [Summary] = [], lines: [String] = []
            var versions: [String: String] = [:]
            var changed = false
            let plugins = lilv_world_get_all_plugins(world)
            var i = lilv_plugins_begin(plugins)
            while !lilv_plugins_is_end(plugins, i) {
                defer { i = lilv_plugins_next(plugins, i) }
                guard let plugin = lilv_plugins_get(plugins, i), let uri = text(of: lilv_plugin_get_uri(plugin)) else { continue }
                let stamp = self.stamp(plugin, versions: &versions)
                let summary: Summary
                if let stamp, let entry = known[uri], entry.stamp == stamp {
                    summary = entry.summary
                } else {
                    summary = Summary(PluginCatalog.describe(plugin, uris, world))
                    // One the index cannot hold (a description not in local files) is read
                    // every time, without rewriting the index each time.
                    if stamp != nil { changed = true }
                }
                summaries.append(summary)
                if let stamp, CacheFile.fits(uri), let fields = summary.fields {
                    lines.append(([uri, stamp] + fields).joined(separator: "\t"))
                }
            }
            if let file, changed || lines.count != known.count {
                CacheFile.write(([header] + lines).joined(separator: "\n") + "\n", to: file)
            }
            return summaries
        }
    }

    /// The versions (``FileStatus/version``) of the files the plug-in's description is read
    /// from, sorted (lilv gives them in no fixed order) and joined; nil when one of them is not a
    /// local file or cannot be looked at.
    private static func stamp(_ plugin: OpaquePointer, versions: inout [String: String]) -> String? {
        guard let nodes = lilv_plugin_get_data_uris(plugin) else { return nil }
        var parts: [String] = []
        var i = lilv_nodes_begin(nodes)
        while !lilv_nodes_is_end(nodes, i) {
            defer { i = lilv_nodes_next(nodes, i) }
            guard let uri = lilv_nodes_get(nodes, i).flatMap(lilv_node_as_uri),
                  let parsed = lilv_file_uri_parse(uri, nil) else { return nil }
            let path = String(cString: parsed)
            lilv_free(parsed)
            if versions[path] == nil { versions[path] = FileStatus(path: path)?.version ?? "" }
            guard let version = versions[path], !version.isEmpty else { return nil }
            parts.append(version)
        }
        return parts.isEmpty ? nil : parts.sorted().joined(separator: ",")
    }

    /// The index at `file`, by URI; nil when there is none or it is of another layout.
    ///
    /// Layout: the header, then one line per plug-in,
    /// `URI<TAB>stamp<TAB>name<TAB>class<TAB>inputs<TAB>outputs<TAB>parameters<TAB>output ids<TAB>flags<TAB>reason`,
    /// the output ids separated by spaces, the flags `m` (takes MIDI) and `o` (MIDI only).
    static func load(_ file: String) -> [String: (stamp: String, summary: Summary)]? {
        guard let lines = CacheFile.lines(file, header: header) else { return nil }
        var entries: [String: (stamp: String, summary: Summary)] = [:]
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 11, let summary = Summary(uri: String(fields[0]), fields: fields.dropFirst(2)) else { return nil }
            entries[summary.uri] = (String(fields[1]), summary)
        }
        return entries
    }

    /// FNV-1a of `text`, in hexadecimal: the same in every process (Swift's `Hasher` is
    /// seeded per process).
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
