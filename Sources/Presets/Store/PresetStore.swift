import Parameters
import Platform

/// The presets a person can use: the factory presets shipped in the executable, and their
/// own presets in a folder (`$XDG_CONFIG_HOME/detent/presets`).
///
/// A user preset with a factory preset's name overrides it; factory presets are never
/// written (nothing on disk backs them). Names are compared ignoring case. A user file that
/// cannot be read is listed as broken with its reason and never hides the others; loading it
/// by name reports that reason.
///
/// ```swift
/// let store = PresetStore.standard()
/// let dark = try store.resolve("Dark")            // or a path: "./mine.json"
/// var mine = dark.preset
/// mine.name = "Darker"
/// mine.values[.cutoff] = 1_200
/// try store.save(mine, replacing: false)
/// ```
public struct PresetStore: Sendable {
    /// The folder of user presets (created on the first save).
    public let userDirectory: String
    /// The read-only presets, read when first asked for (a plug-in's own programs are read
    /// from the plug-in, which a render that names no preset never needs).
    public var factoryPresets: [FactoryPreset] { factory.value.presets }
    /// The processor whose presets this store reads and writes.
    public let scope: PresetScope
    let writer: AtomicFileWriter
    /// The factory presets read once: they cannot change while the program runs.
    private var factoryEntries: [Entry] { factory.value.entries }
    private let factory: Lazy<(presets: [FactoryPreset], entries: [Entry])>

    /// - Parameters:
    ///   - userDirectory: the folder of user presets; tests pass a temporary folder.
    ///   - factoryPresets: the read-only presets (the ones compiled into this build by default).
    public init(userDirectory: String, factoryPresets: [FactoryPreset]? = nil, scope: PresetScope = .builtIn) {
        self.init(userDirectory: userDirectory, factoryPresets: factoryPresets, scope: scope, calls: SystemFileCalls())
    }

    /// A store whose saves go through `calls` (replaced in tests to inject failures).
    package init(userDirectory: String, factoryPresets: [FactoryPreset]? = nil, scope: PresetScope = .builtIn,
                 calls: any FileSystemCalls) {
        self.init(userDirectory: userDirectory, lazyFactoryPresets: { factoryPresets }, scope: scope, calls: calls)
    }

    /// A store whose factory presets are made by `lazyFactoryPresets` when first asked for
    /// (nil: the ones compiled in for the built-in, else none).
    package init(userDirectory: String, lazyFactoryPresets: @escaping @Sendable () -> [FactoryPreset]?, scope: PresetScope,
                 calls: any FileSystemCalls = SystemFileCalls()) {
        self.userDirectory = userDirectory
        self.scope = scope
        self.writer = AtomicFileWriter(calls: calls)
        factory = Lazy {
            // The factory presets are written for the built-in engine.
            let presets = lazyFactoryPresets() ?? (scope == .builtIn ? FactoryPreset.all : [])
            let entries = presets.map { factory in
                Self.entry(fileName: factory.fileName, path: factory.source, origin: .factory(fileName: factory.fileName)) { () throws(PresetError) in
                    try factory.decode(scope: scope)
                }
            }
            return (presets, entries)
        }
    }

    /// The store in the standard place for this process's environment.
    public static func standard(scope: PresetScope = .builtIn, factoryPresets: [FactoryPreset]? = nil) -> PresetStore {
        standard(scope: scope, lazyFactoryPresets: { factoryPresets })
    }

    /// The same, with factory presets made when first asked for.
    package static func standard(scope: PresetScope, lazyFactoryPresets: @escaping @Sendable () -> [FactoryPreset]?) -> PresetStore {
        var environment: [String: String] = [:]
        for key in ["XDG_CONFIG_HOME", "HOME"] {
            if let value = Environment.value(key) { environment[key] = value }
        }
        return PresetStore(userDirectory: userDirectory(environment: environment), lazyFactoryPresets: lazyFactoryPresets, scope: scope)
    }

    /// `$XDG_CONFIG_HOME/detent/presets`, or `~/.config/detent/presets` when `XDG_CONFIG_HOME`
    /// is unset, empty or relative (the XDG Base Directory rules).
    public static func userDirectory(environment: [String: String]) -> String {
        var base: String
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            base = config
        } else {
            base = (environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ThisProcess.homeFromPasswordDatabase) + "/.config"
        }
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        return (base == "/" ? "" : base) + "/detent/presets"
    }


    // MARK: Listing and loading

    /// Every preset, sorted by name: user presets (valid or broken), then the factory presets
    /// they do not override.
    ///
    /// - Throws: only when the user folder exists but cannot be read; a broken file is a row.
    /// Presets of other processors (a plug-in's, next to the built-in's) share the folder and
    /// are left out.
    public func list() throws(PresetError) -> [PresetListing] {
        let user = try userEntries().filter { entry in
            if case .broken(let error) = entry.status, case .otherProcessor = error.problem { return false }
            return true
        }
        let userKeys = Set(user.map { PresetName.key($0.name) })
        var rows = user.map { entry in
            PresetListing(name: entry.name, origin: userOrigin(entry), status: entry.status)
        }
        for entry in factoryEntries where !userKeys.contains(PresetName.key(entry.name)) {
            rows.append(PresetListing(name: entry.name, origin: .factory(fileName: entry.fileName), status: entry.status))
        }
        return rows.sorted { (PresetName.key($0.name), $0.name, $0.origin.label) < (PresetName.key($1.name), $1.name, $1.origin.label) }
    }

    /// The user presets of other processors (another chain, graph or plug-in), by name, with
    /// the processor each is for: loading one live swaps the rig for that one.
    public func otherRigs() -> [(name: String, processor: String)] {
        ((try? userEntries()) ?? []).compactMap { entry in
            guard case .broken(let error) = entry.status, case .otherProcessor(let found, _) = error.problem else { return nil }
            return (entry.name, found)
        }.sorted { PresetName.key($0.name) < PresetName.key($1.name) }
    }

    /// The processor the user preset `name` is for, when it is another than this store's.
    public func otherProcessor(of name: String) -> String? {
        guard let entry = try? userEntry(named: name), case .broken(let error) = entry.status,
              case .otherProcessor(let found, _) = error.problem else { return nil }
        return found
    }

    /// The preset called `name` (ignoring case): the user's if there is one, else the factory's.
    ///
    /// - Throws: ``PresetError/Problem/notFound(_:)``, or the reason the user's file is broken.
    public func load(named name: String) throws(PresetError) -> LoadedPreset {
        if let entry = try userEntry(named: name) {
            return try loaded(entry, origin: userOrigin(entry))
        }
        if let entry = factoryEntry(named: name) {
            return try loaded(entry, origin: .factory(fileName: entry.fileName))
        }
        throw PresetError(.notFound(name))
    }

    /// Reads a preset file from anywhere (`--preset ./mine.json`, `detent preset import`).
    public func load(file path: String) throws(PresetError) -> LoadedPreset {
        let (preset, warnings) = try PresetCodec.decode(Self.contents(of: path), source: path, scope: scope)
        return LoadedPreset(preset: preset, warnings: warnings, origin: .file(path: path))
    }

    /// What `--preset NAME|PATH` means: a file when `reference` looks like a path (it contains
    /// `/` or ends in `.json`) and that file exists; otherwise a preset name.
    ///
    /// Render, live and the panel start from ``LoadedPreset/values``: a value for every
    /// parameter, the preset's missing ones at their table defaults.
    ///
    /// - Throws: when neither exists, the file's error if `reference` looks like a path (so
    ///   `./typo.json` says "No such file"), else ``PresetError/Problem/notFound(_:)``.
    public func resolve(_ reference: String) throws(PresetError) -> LoadedPreset {
        let looksLikePath = reference.contains("/") || reference.lowercased().hasSuffix(PresetFileName.fileExtension)
        guard looksLikePath else { return try load(named: reference) }
        if PathString.leadsSomewhere(reference) { return try load(file: reference) }
        do throws(PresetError) {
            return try load(named: reference)
        } catch where error.problem == .notFound(reference) {
            return try load(file: reference)
        }
    }

    /// The "Default" preset: the user's if there is one and it can be read, else the
    /// factory Default, else the table defaults. Startup values and reset-to-default targets
    /// come from here, so it never fails: a broken user Default is reported as a warning.
    public func defaultPreset() -> LoadedPreset {
        var warnings: [PresetWarning] = []
        do throws(PresetError) {
            if let entry = try userEntry(named: Preset.defaultName) {
                switch entry.status {
                case .valid(let loaded):
                    return LoadedPreset(preset: loaded.preset, warnings: loaded.warnings, origin: userOrigin(entry))
                case .broken(let error):
                    warnings.append(PresetWarning(.brokenUserDefault(reason: error.problem.description), source: entry.path))
                }
            }
        } catch {
            warnings.append(PresetWarning(.brokenUserDefault(reason: error.problem.description), source: error.source ?? userDirectory))
        }
        if let entry = factoryEntry(named: Preset.defaultName),
           case .valid(let loaded) = entry.status {
            return LoadedPreset(preset: loaded.preset, warnings: warnings + loaded.warnings, origin: .factory(fileName: entry.fileName))
        }
        return LoadedPreset(
            preset: Preset(name: Preset.defaultName, values: ParameterValues(table: scope.table), processor: scope.processor),
            warnings: warnings, origin: .tableDefaults)
    }

    /// The startup values and reset-to-default targets (see ``defaultPreset()``).
    public func defaultValues() -> (values: ParameterValues, warnings: [PresetWarning]) {
        let loaded = defaultPreset()
        return (loaded.values, loaded.warnings)
    }

    // MARK: Changing

    /// Saves `preset` as a user preset, atomically (see ``AtomicFileWriter``).
    ///
    /// Saving under a factory preset's name creates the user preset that overrides it.
    ///
    /// - Parameter replacing: whether an existing user preset of that name (ignoring case)
    ///   may be replaced; it is replaced in its own file, so no second file appears.
    /// - Returns: the path of the file written.
    /// - Throws: ``PresetError/Problem/alreadyExists(_:)`` or ``PresetError/Problem/nameClash(name:existing:)``
    ///   without `replacing`; ``PresetError/Problem/invalidName(name:reason:)``; I/O errors.
    @discardableResult
    public func save(_ preset: Preset, replacing: Bool) throws(PresetError) -> String {
        let path = try savingPath(for: preset.name, replacing: replacing)
        try createUserDirectory()
        // Saves that were killed before their file had its name leave it hidden: gone now.
        AbandonedEntries.remove(in: userDirectory) { AtomicFileWriter.destination(ofTemporary: $0)?.hasSuffix(PresetFileName.fileExtension) == true }
        do throws(PresetError) {
            try writer.write(Array(PresetCodec.encode(preset).utf8), to: path, replacing: replacing)
        } catch where error.problem == .fileExists(path: path) {
            // Another process created it between the check and the link.
            throw PresetError(.alreadyExists(preset.name))
        }
        return path
    }

    /// The file a save of the preset `name` writes: the user preset's own when one answers to
    /// the name (ignoring case), so no second file appears; else the file named after it.
    ///
    /// - Throws: ``PresetError/Problem/alreadyExists(_:)`` or ``PresetError/Problem/nameClash(name:existing:)``
    ///   when that preset exists and `replacing` is false; ``PresetError/Problem/invalidName(name:reason:)``.
    public func savingPath(for name: String, replacing: Bool) throws(PresetError) -> String {
        let fileName = try PresetFileName.fileName(for: name)
        let existing = try userEntries().filter {
            PresetName.key($0.name) == PresetName.key(name) || $0.fileName.lowercased() == fileName.lowercased()
        }
        let target = existing.first { $0.fileName == fileName } ?? existing.first
        if let target, !replacing {
            throw PresetError(target.name == name ? .alreadyExists(target.name) : .nameClash(name: name, existing: target.name))
        }
        return target?.path ?? userDirectory + "/" + fileName
    }

    /// Deletes the user preset called `name` (ignoring case); a broken file can be deleted by
    /// the name it is listed under. The preset's own state folder goes with it (`Hall.state`
    /// beside `Hall.json`, whatever the file says; a link there is removed, not followed):
    /// nothing another preset or anyone else keeps.
    ///
    /// - Returns: the deleted file's path, and the factory preset now in effect under that
    ///   name, if any.
    /// - Throws: ``PresetError/Problem/factoryReadOnly(_:)`` for a factory preset,
    ///   ``PresetError/Problem/notFound(_:)``, or an I/O error.
    @discardableResult
    public func delete(named name: String) throws(PresetError) -> (path: String, revealedFactory: String?) {
        let factory = factoryEntry(named: name)
        guard let entry = try userEntry(named: name) else {
            throw PresetError(factory.map { .factoryReadOnly($0.name) } ?? .notFound(name))
        }
        guard writer.calls.unlink(entry.path) == 0 else {
            throw .system("cannot delete", .last, path: entry.path)
        }
        FolderEntries.remove(folder: userDirectory + "/" + StateFolderPath.name(forPresetFile: entry.fileName))
        return (entry.path, factory?.name)
    }

    /// Reads the preset file at `path` (validated, clamped, migrated) and saves it as a user
    /// preset, under `name` if given, else under its own name.
    ///
    /// - Returns: the preset as saved, its warnings, and the path written.
    @discardableResult
    public func importPreset(
        file path: String, as name: String? = nil, replacing: Bool
    ) throws(PresetError) -> (loaded: LoadedPreset, path: String) {
        var loaded = try load(file: path)
        if let name { loaded.preset.name = name }
        let saved = try save(loaded.preset, replacing: replacing)
        loaded.origin = .user(path: saved, overridesFactory: factoryEntry(named: loaded.preset.name) != nil)
        return (loaded, saved)
    }

    /// Writes the preset called `name` to the file `path`, atomically, in the current format.
    ///
    /// - Throws: ``PresetError/Problem/fileExists(path:)`` when `path` exists and `replacing`
    ///   is false; the load's or the write's errors.
    @discardableResult
    public func export(named name: String, toFile path: String, replacing: Bool) throws(PresetError) -> LoadedPreset {
        let loaded = try load(named: name)
        try writer.write(Array(PresetCodec.encode(loaded.preset).utf8), to: path, replacing: replacing)
        return loaded
    }

    // MARK: Entries

    /// A preset file (user) or text (factory) with the result of reading it.
    struct Entry: Sendable {
        let fileName: String
        let path: String
        let name: String
        let status: PresetListing.Status
    }

    private func factoryEntry(named name: String) -> Entry? {
        factoryEntries.first { PresetName.key($0.name) == PresetName.key(name) }
    }

    /// The visible `*.json` files of the user folder, sorted by file name; none when the
    /// folder does not exist yet (or cannot exist, a file being in its way: saving reports
    /// that). Hidden files (among them unfinished saves) are skipped.
    func userEntries() throws(PresetError) -> [Entry] {
        let names: [String]
        do {
            names = try FolderEntries.names(in: userDirectory)
        } catch where error.errno == .noSuchFileOrDirectory || error.errno == .notDirectory {
            return []
        } catch {
            throw .system("cannot read the preset folder", error.errno, path: userDirectory)
        }
        let fileNames = names.filter { !$0.hasPrefix(".") && $0.hasSuffix(PresetFileName.fileExtension) }
        return fileNames.sorted().map { fileName in
            let path = userDirectory + "/" + fileName
            return Self.entry(fileName: fileName, path: path, origin: .user(path: path, overridesFactory: false)) { () throws(PresetError) in
                try PresetCodec.decode(Self.contents(of: path), source: path, scope: scope)
            }
        }
    }

    /// The user entry for `name`: matched by the name inside the file, or by the name its
    /// file name stands for (so a broken file can still be found); the file named exactly as
    /// `name` derives wins over others.
    private func userEntry(named name: String) throws(PresetError) -> Entry? {
        let key = PresetName.key(name)
        let matches = try userEntries().filter {
            PresetName.key($0.name) == key || PresetName.key(PresetFileName.name(fromFileName: $0.fileName)) == key
        }
        let exactFile = try? PresetFileName.fileName(for: name)
        return matches.first { $0.fileName == exactFile } ?? matches.first
    }

    private static func entry(
        fileName: String, path: String, origin: PresetOrigin,
        read: () throws(PresetError) -> (preset: Preset, warnings: [PresetWarning])
    ) -> Entry {
        do throws(PresetError) {
            let (preset, warnings) = try read()
            return Entry(fileName: fileName, path: path, name: preset.name,
                         status: .valid(LoadedPreset(preset: preset, warnings: warnings, origin: origin)))
        } catch {
            return Entry(fileName: fileName, path: path, name: PresetFileName.name(fromFileName: fileName), status: .broken(error))
        }
    }

    private func userOrigin(_ entry: Entry) -> PresetOrigin {
        .user(path: entry.path, overridesFactory: factoryEntry(named: entry.name) != nil)
    }

    private func loaded(_ entry: Entry, origin: PresetOrigin) throws(PresetError) -> LoadedPreset {
        switch entry.status {
        case .valid(var loaded):
            loaded.origin = origin
            return loaded
        case .broken(let error):
            throw error
        }
    }

    /// A preset file's bytes, refusing anything larger than ``PresetCodec/maximumFileSize``
    /// without reading it all (a preset path pointing at a huge file or a device costs nothing).
    private static func contents(of path: String) throws(PresetError) -> [UInt8] {
        do throws(BoundedFileReader.Failure) {
            return try BoundedFileReader.read(path: path, limit: PresetCodec.maximumFileSize)
        } catch {
            switch error {
            case .system(let reason): throw .system("cannot read", reason, path: path)
            case .tooLarge(let limit): throw PresetError(.tooLarge(limit: limit), source: path)
            }
        }
    }

    /// `mkdir -p` for the user folder.
    private func createUserDirectory() throws(PresetError) {
        do {
            try FolderEntries.make(userDirectory, mode: 0o755)
        } catch {
            switch error.reason {
            case .notAFolder where error.folder != userDirectory:
                // A file where a folder above it should be: name the folder that cannot be
                // made under it, with the system's reason for that.
                let below = userDirectory.dropFirst(error.folder.count + 1).split(separator: "/").first ?? ""
                throw .system("cannot create the preset folder", .notDirectory, path: error.folder + "/" + below)
            case .notAFolder:
                throw PresetError(.io("cannot create the preset folder: a file is in the way"), source: userDirectory)
            case .system(let failure):
                throw .system("cannot create the preset folder", failure.errno, path: error.folder)
            }
        }
    }
}
