import OfflineRender
import Platform

/// The files a render job reads besides its input, by what each is to it: none of them may
/// be replaced by an output or a written manifest, even with `--force`, since the job (or
/// another job of the batch) reads it before or after.
extension RenderOptions {
    /// The files these options name: a chain, graph or preset file, the automation and MIDI
    /// files, keys and named inputs — known even when the job fails, so that a failed job's
    /// files are spared too. (File parameters' files are known once resolved:
    /// ``RenderSettings/filesRead``.)
    package var filesNamed: [(path: String, role: ReadFileRole)] {
        var files: [(path: String, role: ReadFileRole)] = []
        // `[SLOT=]FILE`: the file may be the whole text (a name with `=` in it) or what follows `=`.
        for text in sidechains {
            files.append((text, .sidechain))
            if let equals = text.firstIndex(of: "=") { files.append((String(text[text.index(after: equals)...]), .sidechain)) }
        }
        for text in namedInputs {
            if let equals = text.firstIndex(of: "=") { files.append((String(text[text.index(after: equals)...]), .namedInput)) }
        }
        if let chain = plugin.chain { files.append((chain, .chain)) }
        if let graph = plugin.graph { files.append((graph, .graph)) }
        // A preset by name is the store's, not a file beside the job.
        if let preset = starting.preset, preset.contains("/") || preset.lowercased().hasSuffix(".json") {
            files.append((preset, .preset))
        }
        if let automation { files.append((automation, .automation)) }
        if let midi { files.append((midi, .midi)) }
        return files
    }
}

extension RenderSettings {
    /// The files resolved settings read besides the input: side-chain keys, a graph's named
    /// inputs, file parameters' files.
    package var filesRead: [(path: String, role: ReadFileRole)] {
        sidechains.map { ($0.path, $0.namedInput > 0 ? .namedInput : .sidechain) }
            + processor.files.compactMap { file in file.path.map { ($0, .fileParameter) } }
    }
}

extension [FileIdentity: ReadFileRole] {
    /// `path`'s file as `role`, unless it is there already or there is no file at `path`
    /// (nothing there to destroy).
    mutating func protect(_ path: String, as role: ReadFileRole) {
        guard let identity = FileIdentity(path: path), self[identity] == nil else { return }
        self[identity] = role
    }
}
