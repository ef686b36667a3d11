import AudioEngine
import Platform
import PluginFormats
import Synchronization

/// A binary format (VST2, VST3, CLAP) as one format of the catalogue: its binaries found in
/// its folders, read by ``BinaryScan`` in children, remembered by ``BinaryIndex``, and named
/// by references of its own: `PREFIX:ID` (`vst3:` and a class id, `clap:` and a plug-in id),
/// `PREFIX:NAME` (`vst2:ZamComp`, the way to pick a format where a name is installed in
/// several), and a binary's path.
package struct BinaryFormat: PluginFormat {
    package let backend: any BinaryBackend

    package init(_ backend: any BinaryBackend) { self.backend = backend }

    package var name: String { backend.name }

    private static let listed = Mutex<[String: [ListedPlugin]]>([:])

    /// Every plug-in of the format, read once per process (from the index where it holds).
    package func plugins() -> [ListedPlugin] {
        if let known = Self.listed.withLock({ $0[name] }) { return known }
        let found = read(BinaryFolders.binaries(backend), listing: true)
        Self.listed.withLock { $0[name] = found }
        return found
    }

    /// The plug-ins of `paths`: from the index while a binary is unchanged, else scanned. The
    /// index is rewritten only for the `listing` (every binary of the format's folders): a
    /// binary named by its path outside them is read on its own and never enters it, and never
    /// takes the others' place there (which cost every later start a scan of them all).
    private func read(_ paths: [String], listing: Bool) -> [ListedPlugin] {
        let file = BinaryIndex.file(name)
        let known = file.flatMap(BinaryIndex.load) ?? [:]
        var stamps: [String: String] = [:], stale: [String] = []
        for path in paths {
            let stamp = FileStatus(path: BinaryFolders.stampedFile(path, backend: backend))?.version ?? ""
            stamps[path] = stamp
            if known[path]?.stamp != stamp || stamp.isEmpty { stale.append(path) }
        }
        let scanned = BinaryScan.scan(backend, paths: stale)
        let plugins = paths.map { path in scanned[path].map { $0.map(ListedPlugin.init) } ?? known[path]?.plugins ?? [] }
        if listing, let file, !stale.isEmpty || known.count != paths.count {
            BinaryIndex.save(zip(paths, plugins).map { ($0, stamps[$0] ?? "", $1) }.filter { !$0.1.isEmpty }, to: file)
        }
        return plugins.flatMap { $0 }
    }

    package func installed() throws(PluginError) -> [PluginEntry] { plugins().map(entry) }

    package func claims(_ reference: String) -> Bool {
        reference.lowercased().hasPrefix(backend.prefix)
            || (reference.contains("/") && backend.isBinary(name: PathString.name(of: reference)))
    }

    package func exact(_ reference: String) throws(PluginError) -> PluginEntry? {
        if reference.contains("/"), backend.isBinary(name: PathString.name(of: reference)) {
            let path = PathString.canonical(reference)
            let inside = plugins().filter { $0.summary.path == path || PathString.canonical($0.summary.path) == path }
            let read = inside.isEmpty ? read([path], listing: false) : inside
            let found = read.map(\.summary)
            if found.count > 1 { throw .ambiguous(reference, candidates: found.map { "\($0.name) (\($0.identifier))" }) }
            return read.first.map(entry)
        }
        guard reference.lowercased().hasPrefix(backend.prefix) else { return nil }
        let rest = String(reference.dropFirst(backend.prefix.count))
        let listed = plugins()
        let all = listed.map(\.summary)
        func entryOf(_ summary: BinaryPlugin) -> PluginEntry {
            entry(listed.first { $0.summary.identifier == summary.identifier && $0.summary.path == summary.path }!)
        }
        if let one = all.first(where: { $0.identifier.lowercased() == reference.lowercased() }) { return entryOf(one) }
        let wanted = rest.lowercased()
        for matches in [all.filter { $0.innerID.lowercased() == wanted && !$0.innerID.isEmpty },
                        all.filter { $0.name.lowercased() == wanted },
                        all.filter { PathString.split(PathString.name(of: $0.path)).stem.lowercased() == wanted }] {
            if matches.count == 1 { return entryOf(matches[0]) }
            if matches.count > 1 { throw .ambiguous(reference, candidates: matches.map { "\($0.name) (\($0.identifier))" }) }
        }
        let near = all.filter { $0.name.lowercased().contains(wanted) }
        if near.count == 1 { return entryOf(near[0]) }
        if near.count > 1 { throw .ambiguous(reference, candidates: near.map { "\($0.name) (\($0.identifier))" }) }
        throw .unknown(reference, closest: NameDistance.closest(to: wanted, in: all.map(\.name)).map { backend.prefix + $0 })
    }

    /// The plug-in whose identifier is `identifier`, or nil.
    package func plugin(identifier: String) -> BinaryPlugin? {
        guard identifier.lowercased().hasPrefix(backend.prefix) else { return nil }
        return plugins().first { $0.summary.identifier == identifier }?.plugin
    }

    package func entry(identifier: String) -> PluginEntry? {
        guard identifier.lowercased().hasPrefix(backend.prefix) else { return nil }
        return plugins().first { $0.summary.identifier == identifier }.map(entry)
    }

    func entry(_ listed: ListedPlugin) -> PluginEntry {
        let backend = self.backend, plugin = listed.summary
        let file = PathString.name(of: plugin.path)
        return PluginEntry(
            format: plugin.format, identifier: plugin.identifier, name: plugin.name,
            className: plugin.isInstrument ? "Instrument" : plugin.category.isEmpty ? "Plugin" : plugin.category,
            audioInputs: plugin.audioInputs, audioOutputs: plugin.audioOutputs, parameters: listed.parameterCount,
            outputs: listed.outputIDs, takesMIDI: plugin.midiInput,
            unhostableReason: plugin.unhostableReason, maker: plugin.maker, aliases: [], searchTexts: [plugin.maker, file],
            processor: { () throws(PluginError) -> Processor in try Processor.binary(listed.plugin, backend: backend) },
            factoryPresets: { backend.factoryPresets(listed.plugin) })
    }
}

/// Where a format's binaries are: every entry of its folders (and their subfolders, a few
/// levels down, links followed once) that the format calls a binary, in folder order and
/// then name order; a binary reached twice (a link to another folder of the path) is listed
/// once.
package enum BinaryFolders {
    static let depth = 4

    static func binaries(_ backend: any BinaryBackend) -> [String] {
        var paths: [String] = []
        var seen = Set<String>()
        func walk(_ folder: String, level: Int) {
            guard level <= depth, let real = PathString.resolved(folder), seen.insert(real).inserted else { return }
            for name in ((try? FolderEntries.names(in: folder)) ?? []).sorted() where !name.hasPrefix(".") {
                let path = folder + "/" + name
                if backend.isBinary(name: name) {
                    if let real = PathString.resolved(path), seen.insert(real).inserted { paths.append(real) }
                } else if PathString.isFolder(path) {
                    walk(path, level: level + 1)
                }
            }
        }
        for folder in backend.folders() { walk(folder, level: 0) }
        return paths
    }

    /// The file whose stamp says a binary changed: the binary, or the shared object inside
    /// a bundle (`NAME.vst3/Contents/x86_64-linux/NAME.so`), or the bundle itself.
    static func stampedFile(_ path: String, backend: any BinaryBackend) -> String {
        guard PathString.isFolder(path) else { return path }
        let stem = PathString.split(PathString.name(of: path)).stem
        let inner = "\(path)/Contents/\(BinaryFolders.architecture)-linux/\(stem).so"
        return PathString.isRegularFile(inner) ? inner : path
    }

    /// The machine's name as VST3 bundles use it (`x86_64`, `aarch64`).
    package static var architecture: String {
        #if arch(x86_64)
        "x86_64"
        #elseif arch(arm64)
        "aarch64"
        #elseif arch(i386)
        "i386"
        #else
        "unknown"
        #endif
    }
}

/// The search folders of a format: the environment variable's (colon-separated) first, then
/// the usual places under the home folder and the system.
package enum FormatFolders {
    package static func list(variables: [String], home: [String], system: [String]) -> [String] {
        var folders: [String] = []
        for variable in variables {
            folders += (Environment.value(variable) ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
        }
        if let homeFolder = Environment.value("HOME"), !homeFolder.isEmpty { folders += home.map { homeFolder + "/" + $0 } }
        return folders + system
    }
}
