import AudioEngine
import Foundation
import Testing
import Parameters
import TestSupport
@testable import Presets

/// `detent preset …` run end to end: the built binary, copied into a temporary folder and
/// started from another one, with XDG_CONFIG_HOME and HOME pointing at temporary folders.
@Suite("detent preset, end to end")
struct PresetCLITests {
    /// A sandbox: a copy of the built binary (``BuiltProducts/detent``), a working folder and a config folder, all temporary.
    struct Sandbox {
        let root: String
        let binary: String
        var work: String { root + "/work" }
        var config: String { root + "/config" }
        var presets: String { config + "/detent/presets" }

        init(root: String) throws {
            let built = try BuiltProducts.detent
            self.root = root
            binary = root + "/bin/detent"
            for folder in [root + "/bin", root + "/work", root + "/home"] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            // Copied by `cp`, not in this process: a program another test starts at the moment
            // the copy is open for writing here holds that descriptor too until it has closed
            // its inherited ones, and running the copy meanwhile fails with "Text file busy".
            let copy = try ChildProcess.run("/bin/cp", [built, binary])
            try #require(copy.status.exited == 0, "cannot copy \(built) to \(binary): \(copy.stderrText)")
        }

        struct Outcome {
            /// The exit status; nil when a signal ended the program.
            let status: Int32?
            let out: String
            let err: String

            init(_ finished: ChildProcess.Outcome) {
                status = finished.status.exited
                out = finished.stdoutText
                err = finished.stderrText
            }
        }

        /// Starts `detent ARGS…` in the working folder; its ``ChildProcess/finish()`` gives
        /// the ``Outcome``.
        func start(_ arguments: [String], config: String? = nil) throws -> ChildProcess {
            try ChildProcess(binary, arguments,
                             environment: ["XDG_CONFIG_HOME": config ?? self.config, "HOME": root + "/home", "LANG": "C.UTF-8"],
                             currentDirectory: work, stdout: .pipe, stderr: .pipe)
        }

        func run(_ arguments: String..., config: String? = nil) throws -> Outcome {
            Outcome(try start(arguments, config: config).finish())
        }
    }

    /// The factory presets as an independent JSON parser reads the files in `Presets/`.
    private func factoryFiles() throws -> [String: [String: Any]] {
        let folder = packageRoot + "/Presets"
        var files: [String: [String: Any]] = [:]
        for name in try folderContents(folder) where name.hasSuffix(".json") {
            files[name] = try jsonObject(readFile(folder + "/" + name))
        }
        return files
    }

    @Test("the factory presets work from another directory, with the binary copied elsewhere")
    func factoryFromElsewhere() throws {
        let root = TemporaryFolder()
        let sandbox = try Sandbox(root: root.path)
        let listed = try sandbox.run("preset", "list", "--json")
        #expect(listed.status == 0 && listed.err.isEmpty)
        let rows = try listed.out.split(separator: "\n").map { try jsonObject($0) }
        let files = try factoryFiles()
        #expect(Set(rows.compactMap { $0["name"] as? String }) == Set(files.values.compactMap { $0["name"] as? String }))
        #expect(rows.allSatisfy { $0["source"] as? String == "factory" && $0["status"] as? String == "valid" })

        for (fileName, file) in files {
            let name = try #require(file["name"] as? String)
            let shown = try sandbox.run("preset", "show", name, "--json")
            #expect(shown.status == 0 && shown.err.isEmpty, "\(fileName)")
            let document = try jsonObject(shown.out)
            let values = try #require(document["values"] as? [String: Double])
            let written = file["values"] as? [String: Double] ?? [:]
            for id in LowpassGain.table.ids {
                #expect(values[id.id] == written[id.id] ?? LowpassGain.table[id].defaultValue, "\(fileName) \(id.id)")
            }
        }
        #expect(try folderContents(sandbox.work).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: sandbox.config))  // reading never creates the folder
    }

    @Test("save, show, list, export, import and delete work together")
    func workflow() throws {
        let root = TemporaryFolder()
        let sandbox = try Sandbox(root: root.path)
        let saved = try sandbox.run("preset", "save", "Lo/Fi", "--from", "Telephone", "--set", "cutoff=2.2k", "--set", "gain=-6dB")
        #expect(saved.status == 0 && saved.err.isEmpty)
        #expect(saved.out == "saved 'Lo/Fi' to \(sandbox.presets)/Lo%2FFi.json\n")

        let shown = try sandbox.run("preset", "show", "lo/fi")
        let cutoff = LowpassGain.table[.cutoff], gain = LowpassGain.table[.gain]
        #expect(shown.out.contains("\ncutoff     Cutoff     \(cutoff.format(2_200))\n"))
        #expect(shown.out.contains("\ngain       Gain       \(gain.format(-6))\n"))
        #expect(shown.out.hasPrefix("Name:     Lo/Fi\nSource:   user (\(sandbox.presets)/Lo%2FFi.json)\n"))

        let exported = try sandbox.run("preset", "export", "Lo/Fi", "-o", "lofi.json")
        #expect(exported.status == 0)
        let printed = try sandbox.run("preset", "export", "Lo/Fi")
        #expect(try readFile(sandbox.work + "/lofi.json") == printed.out)

        let imported = try sandbox.run("preset", "import", "lofi.json", "--name", "Copy")
        #expect(imported.status == 0 && imported.out == "imported 'Copy' to \(sandbox.presets)/Copy.json\n")
        let deleted = try sandbox.run("preset", "delete", "LO/FI")
        #expect(deleted.status == 0 && deleted.out == "deleted \(sandbox.presets)/Lo%2FFi.json\n")
        #expect(try folderContents(sandbox.presets) == ["Copy.json"])
    }

    @Test("each failure is one line on stderr with the right exit status, and changes nothing")
    func failures() throws {
        let root = TemporaryFolder()
        let sandbox = try Sandbox(root: root.path)
        func expectFailure(_ outcome: Sandbox.Outcome, _ status: Int32, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(outcome.status == status, sourceLocation: sourceLocation)
            #expect(outcome.err == "detent: \(message)\n", sourceLocation: sourceLocation)
            #expect(outcome.out.isEmpty, sourceLocation: sourceLocation)
        }

        expectFailure(try sandbox.run("preset", "show", "Nope"), 64, PresetError(.notFound("Nope")).description)
        expectFailure(try sandbox.run("preset", "delete", "dark"), 64, PresetError(.factoryReadOnly("Dark")).description)

        let badSet = "cutoff=50k"
        let setError: String
        do throws(ParameterError) {
            _ = try LowpassGain.table.parseAssignment(badSet)
            setError = "no error"
        } catch {
            setError = error.description
        }
        expectFailure(try sandbox.run("preset", "save", "X", "--set", badSet), 64, setError)
        #expect(!FileManager.default.fileExists(atPath: sandbox.presets))

        #expect(try sandbox.run("preset", "save", "Pad").status == 0)
        let padText = try readFile(sandbox.presets + "/Pad.json")
        expectFailure(try sandbox.run("preset", "save", "Pad", "--set", "gain=-20"), 64, PresetError(.alreadyExists("Pad")).description)
        #expect(try readFile(sandbox.presets + "/Pad.json") == padText)
        #expect(try sandbox.run("preset", "save", "Pad", "--set", "gain=-20", "--force").status == 0)
        #expect(try sandbox.run("preset", "show", "Pad", "--json").out.contains("\"gain\": -20"))

        try writeFile("keep me", to: sandbox.work + "/out.json")
        expectFailure(try sandbox.run("preset", "export", "Dark", "-o", "out.json"), 64, PresetError(.fileExists(path: "out.json")).description)
        #expect(try readFile(sandbox.work + "/out.json") == "keep me")

        let broken = sandbox.presets + "/Broken.json"
        try writeFile("{\"formatVersion\": 1, \"name\": \"Broken\", \"values\": {\"gain\": NaN}}", to: broken)
        expectFailure(try sandbox.run("preset", "show", "broken"), 65,
                      PresetError(.notFinite(field: "values.gain", text: "NaN"), source: broken).description)
        let listed = try sandbox.run("preset", "list")
        #expect(listed.status == 0)
        #expect(listed.out.contains("\nBroken     user     broken: \"values.gain\" is NaN, which is not a finite number\n"))
        #expect(listed.out.contains("\nPad        user     "))

        let missing = sandbox.work + "/missing.json"
        expectFailure(try sandbox.run("preset", "import", missing), 74, "\(missing): cannot read: \(String(cString: strerror(ENOENT)))")

        // A file where the config folder should be: the folder cannot be created.
        try writeFile("not a folder", to: root.file("blocked"))
        let blocked = try sandbox.run("preset", "save", "Y", config: root.file("blocked"))
        #expect(blocked.status == 74)
        #expect(blocked.err == "detent: \(root.path)/blocked/detent: cannot create the preset folder: \(String(cString: strerror(ENOTDIR)))\n")

        let usage = try sandbox.run("preset", "show")
        #expect(usage.status == 64 && usage.err.contains("Missing expected argument '<name>'"))
    }

    @Test("two processes saving the same preset at once leave one complete preset")
    func concurrentProcesses() throws {
        let root = TemporaryFolder()
        let sandbox = try Sandbox(root: root.path)
        #expect(try sandbox.run("preset", "save", "Race").status == 0)
        let store = PresetStore(userDirectory: sandbox.presets, factoryPresets: [])
        let candidates = [ParameterValues(table: LowpassGain.table, [.cutoff: 111, .gain: -1]), ParameterValues(table: LowpassGain.table, [.cutoff: 222, .gain: -2])]
        for _ in 0..<8 {
            let runs = try [("111", "-1"), ("222", "-2")].map { cutoff, gain in
                try sandbox.start(["preset", "save", "Race", "--set", "cutoff=\(cutoff)", "--set", "gain=\(gain)", "--force"])
            }
            for run in runs { #expect(Sandbox.Outcome(run.finish()).status == 0) }
            let loaded = try store.load(named: "Race")
            #expect(candidates.contains(loaded.values))
            #expect(loaded.warnings.isEmpty)
            #expect(try folderContents(sandbox.presets) == ["Race.json"])
        }
    }
}
