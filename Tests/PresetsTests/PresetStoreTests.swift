import TextFormats
import AudioEngine
import Foundation
import Testing
import Parameters
import TestSupport
@testable import Presets

@Suite("Preset store: user and factory presets")
struct PresetStoreTests {
    private func thrown(_ body: () throws(PresetError) -> Void) -> PresetError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    /// The factory preset called `name`, read straight from its embedded text.
    private func factory(_ name: String) throws -> Preset {
        let match = FactoryPreset.all.first { $0.fileName == name + ".json" }
        return try #require(match).decode().preset
    }

    @Test("a preset file over the size limit, or an endless one, is refused without reading it all")
    func tooLargeFile() {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let limit = PresetCodec.maximumFileSize
        let big = root.write("big.json", [UInt8](repeating: UInt8(ascii: " "), count: limit + 1))
        #expect(throws: PresetError(.tooLarge(limit: limit), source: big)) { try store.load(file: big) }
        #expect(throws: PresetError(.tooLarge(limit: limit), source: "/dev/zero")) { try store.load(file: "/dev/zero") }
        let exact = root.write("exact.json", [UInt8](repeating: UInt8(ascii: " "), count: limit))
        do {
            _ = try store.load(file: exact)
        } catch {
            #expect(error.problem != .tooLarge(limit: limit), "a file of exactly the limit is read")
        }
    }

    @Test("a preset file that cannot be read says why, in the system's words")
    func unreadableFile() {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        #expect(throws: PresetError(.io("cannot read: No such file or directory"), source: root.file("none.json"))) {
            try store.load(file: root.file("none.json"))
        }
        #expect(throws: PresetError(.io("cannot read: Is a directory"), source: root.path)) {
            try store.load(file: root.path)
        }
    }

    @Test("a saved preset loads back identical, from a file holding its canonical text")
    func saveAndLoad() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let preset = Preset(name: "Mine", author: "Me", comment: "notes", values: ParameterValues(table: LowpassGain.table, [.cutoff: 640, .gain: -9]))
        let path = try store.save(preset, replacing: false)
        #expect(path == store.userDirectory + "/Mine.json")
        #expect(try readFile(path) == PresetCodec.encode(preset))
        let loaded = try store.load(named: "mINE")
        #expect(loaded == LoadedPreset(preset: preset, origin: .user(path: path, overridesFactory: false)))
    }

    @Test("a user preset with a factory name overrides it; deleting it brings the factory one back")
    func override() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let original = try factory("Dark")
        var mine = original
        mine.name = "dark"
        mine.values[.cutoff] = 900
        let path = try store.save(mine, replacing: false)  // no --force needed: factory presets are never replaced

        let loaded = try store.load(named: "Dark")
        #expect(loaded.preset == mine)
        #expect(loaded.origin == .user(path: path, overridesFactory: true))
        let rows = try store.list().filter { PresetName.key($0.name) == "dark" }
        #expect(rows.map(\.origin) == [.user(path: path, overridesFactory: true)])

        let deleted = try store.delete(named: "DARK")
        #expect(deleted.path == path && deleted.revealedFactory == "Dark")
        #expect(try store.load(named: "Dark") == LoadedPreset(preset: original, origin: .factory(fileName: "Dark.json")))
        #expect(try folderContents(store.userDirectory).isEmpty)
    }

    @Test("deleting a factory preset is refused; deleting an unknown one says so")
    func deleteRefused() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let refused = thrown { () throws(PresetError) in try store.delete(named: "resonant") }
        #expect(refused == PresetError(.factoryReadOnly("Resonant")))
        #expect(refused?.description == "'Resonant' is a factory preset, which cannot be changed or deleted")
        #expect(thrown { () throws(PresetError) in try store.delete(named: "Nope") } == PresetError(.notFound("Nope")))
        let resonant = try factory("Resonant")
        #expect(try store.load(named: "Resonant").preset == resonant)
    }

    @Test("saving over a user preset needs replacing; a name differing only in case is a clash")
    func existing() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let first = Preset(name: "Pad", values: ParameterValues(table: LowpassGain.table, [.cutoff: 300]))
        let path = try store.save(first, replacing: false)
        let text = try readFile(path)

        let again = Preset(name: "Pad", values: ParameterValues(table: LowpassGain.table, [.cutoff: 400]))
        #expect(thrown { () throws(PresetError) in try store.save(again, replacing: false) } == PresetError(.alreadyExists("Pad")))
        let other = Preset(name: "PAD", values: ParameterValues(table: LowpassGain.table, [.cutoff: 500]))
        let clash = thrown { () throws(PresetError) in try store.save(other, replacing: false) }
        #expect(clash == PresetError(.nameClash(name: "PAD", existing: "Pad")))
        #expect(clash?.description == "'PAD' clashes with the user preset 'Pad' (names are compared ignoring case; use --force to replace it)")
        #expect(try readFile(path) == text)

        // Replacing writes into the existing file: never two files for one name.
        #expect(try store.save(other, replacing: true) == path)
        #expect(try folderContents(store.userDirectory) == ["Pad.json"])
        #expect(try store.load(named: "pad").preset == other)
    }

    @Test("two savers racing without replacing: exactly one wins, the other is told it exists")
    func createRace() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        try store.save(Preset(name: "Seed"), replacing: false)  // the folder exists before the race
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            let preset = Preset(name: "Race", values: ParameterValues(table: LowpassGain.table, [.cutoff: Double(100 + i)]))
            do throws(PresetError) {
                try store.save(preset, replacing: false)
                results.append(nil)
            } catch {
                results.append(error)
            }
        }
        #expect(results.all.filter { $0 == nil }.count == 1)
        #expect(results.all.compactMap { $0 } == [PresetError(.alreadyExists("Race"))])
        #expect(try folderContents(store.userDirectory) == ["Race.json", "Seed.json"])
    }

    @Test("a broken user preset is listed with its reason and hides nothing else")
    func listWithBroken() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let folder = store.userDirectory
        try store.save(Preset(name: "Good", values: ParameterValues(table: LowpassGain.table, [.gain: -3])), replacing: false)
        try writeFile("{\"formatVersion\": 1,\n \"name\": \"Broken\", \"values\": {\"cutoff\": }}", to: folder + "/Broken.json")
        try writeFile(#"{"formatVersion": 99, "name": "Lo/Fi", "values": {}}"#, to: folder + "/Lo%2FFi.json")
        try writeFile("half a preset", to: folder + "/.Good.json.8f2c.tmp")  // an interrupted save
        try writeFile("not a preset", to: folder + "/notes.txt")

        let rows = try store.list()
        let factoryNames = try FactoryPreset.all.map { try $0.decode().preset.name }
        #expect(rows.map(\.name) == (factoryNames + ["Good", "Broken", "Lo/Fi"]).sorted { $0.lowercased() < $1.lowercased() })

        let broken = try #require(rows.first { $0.name == "Broken" })
        #expect(broken.origin == .user(path: folder + "/Broken.json", overridesFactory: false))
        #expect(broken.status == .broken(PresetError(
            .malformedJSON(JSONParseError(line: 2, column: 41, message: "expected a value, found '}'")), source: folder + "/Broken.json")))
        let newer = try #require(rows.first { $0.name == "Lo/Fi" })
        #expect(newer.status == .broken(PresetError(.newerFormat(found: 99, newestKnown: Preset.formatVersion), source: folder + "/Lo%2FFi.json")))
        let good = try #require(rows.first { $0.name == "Good" })
        guard case .valid(let loaded) = good.status else { Issue.record("Good is not valid"); return }
        #expect(loaded.values == ParameterValues(table: LowpassGain.table, [.gain: -3]))

        // Loading the broken one by its listed name gives its reason; deleting it works.
        #expect(thrown { () throws(PresetError) in _ = try store.load(named: "broken") } == {
            if case .broken(let error) = broken.status { return error } else { return nil }
        }())
        try store.delete(named: "Lo/Fi")
        #expect(try folderContents(folder) == [".Good.json.8f2c.tmp", "Broken.json", "Good.json", "notes.txt"])
    }

    @Test("--preset resolves an existing path as a file and anything else as a name")
    func resolution() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let filePreset = Preset(name: "From A File", values: ParameterValues(table: LowpassGain.table, [.cutoff: 777]))
        let file = root.file("elsewhere/mine.json")
        try writeFile(PresetCodec.encode(filePreset), to: file)

        #expect(try store.resolve(file) == LoadedPreset(preset: filePreset, origin: .file(path: file)))
        let telephone = try factory("Telephone")
        #expect(try store.resolve("telephone") == LoadedPreset(preset: telephone, origin: .factory(fileName: "Telephone.json")))

        // Names that look like paths still work when no such file exists.
        try store.save(Preset(name: "Lo/Fi", values: ParameterValues(table: LowpassGain.table, [.cutoff: 5_000])), replacing: false)
        try store.save(Preset(name: "Mix.json", values: ParameterValues(table: LowpassGain.table, [.cutoff: 6_000])), replacing: false)
        #expect(try store.resolve("Lo/Fi").values[.cutoff] == 5_000)
        #expect(try store.resolve("Mix.json").values[.cutoff] == 6_000)

        let missing = root.file("nowhere/typo.json")
        let error = thrown { () throws(PresetError) in _ = try store.resolve(missing) }
        #expect(error == PresetError(.io("cannot read: No such file or directory"), source: missing))
        #expect(error?.category == .io)
        #expect(thrown { () throws(PresetError) in _ = try store.resolve("Nope") } == PresetError(.notFound("Nope")))
    }

    @Test("resolved values fill every parameter the file leaves out with the table default")
    func resolvedDefaults() throws {
        let root = TemporaryFolder()
        let file = root.file("partial.json")
        try writeFile(#"{"formatVersion": 1, "name": "Partial", "values": {"gain": -12}}"#, to: file)
        let values = try makeStore(in: root.path).resolve(file).values
        for id in LowpassGain.table.ids {
            #expect(values[id] == (id == .gain ? -12 : LowpassGain.table[id].defaultValue))
        }
    }

    @Test("the Default values: factory Default (the table defaults), a user Default, a broken one, none at all")
    func defaults() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let factoryDefault = store.defaultPreset()
        #expect(factoryDefault.origin == .factory(fileName: "Default.json"))
        #expect(factoryDefault.values == ParameterValues(table: LowpassGain.table))
        #expect(factoryDefault.warnings.isEmpty)

        let mine = Preset(name: "default", values: ParameterValues(table: LowpassGain.table, [.cutoff: 5_000, .gain: -6]))
        let path = try store.save(mine, replacing: false)
        #expect(store.defaultValues().values == mine.values)
        #expect(store.defaultPreset().origin == .user(path: path, overridesFactory: true))

        try writeFile("{", to: path)
        let fallback = store.defaultValues()
        #expect(fallback.values == ParameterValues(table: LowpassGain.table))
        #expect(fallback.warnings == [PresetWarning(.brokenUserDefault(
            reason: "malformed JSON at line 1, column 2: expected a member name in quotes, found the end of the file"), source: path)])

        let bare = makeStore(in: root.file("other"), factory: [])
        #expect(bare.defaultPreset() == LoadedPreset(preset: Preset(name: "Default"), origin: .tableDefaults))
    }

    @Test("import validates, clamps and migrates, then saves the canonical form")
    func importing() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let file = root.file("old.json")
        try writeFile(PresetFixtures.format0Odd, to: file)
        let (loaded, path) = try store.importPreset(file: file, replacing: false)
        #expect(path == store.userDirectory + "/Odd.json")
        #expect(loaded.warnings.count == 3)
        #expect(try readFile(path) == PresetCodec.encode(loaded.preset))
        #expect(try store.load(named: "Odd").warnings.isEmpty)

        #expect(thrown { () throws(PresetError) in try store.importPreset(file: file, replacing: false) } == PresetError(.alreadyExists("Odd")))
        let renamed = try store.importPreset(file: file, as: "Even", replacing: false)
        #expect(renamed.loaded.preset.name == "Even")
        #expect(try store.load(named: "even").values == loaded.values)
    }

    @Test("export writes the canonical file and never replaces one without being told to")
    func exporting() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let out = root.file("muffled.json")
        try store.export(named: "Muffled", toFile: out, replacing: false)
        let muffled = try factory("Muffled"), dark = try factory("Dark")
        #expect(try readFile(out) == PresetCodec.encode(muffled))

        try writeFile("precious", to: out)
        #expect(thrown { () throws(PresetError) in try store.export(named: "Dark", toFile: out, replacing: false) }
            == PresetError(.fileExists(path: out)))
        #expect(try readFile(out) == "precious")
        try store.export(named: "Dark", toFile: out, replacing: true)
        #expect(try readFile(out) == PresetCodec.encode(dark))
        #expect(try folderContents(root.path) == ["muffled.json"])
    }

    @Test("the user folder follows XDG_CONFIG_HOME, else ~/.config", arguments: [
        (["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/me"], "/x/cfg/detent/presets"),
        (["XDG_CONFIG_HOME": "/x/cfg//", "HOME": "/home/me"], "/x/cfg/detent/presets"),
        (["XDG_CONFIG_HOME": "", "HOME": "/home/me"], "/home/me/.config/detent/presets"),
        (["XDG_CONFIG_HOME": "relative/cfg", "HOME": "/home/me"], "/home/me/.config/detent/presets"),
        (["HOME": "/home/me"], "/home/me/.config/detent/presets"),
        (["XDG_CONFIG_HOME": "/"], "/detent/presets"),
    ])
    func userDirectory(environment: [String: String], expected: String) {
        #expect(PresetStore.userDirectory(environment: environment) == expected)
    }
}

/// Results gathered from several threads.
final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [PresetError?] = []

    func append(_ item: PresetError?) {
        lock.withLock { items.append(item) }
    }

    var all: [PresetError?] { lock.withLock { items } }
}
