import RenderJobs
import ArgumentParser
import Parameters
import AudioEngine
import Platform
import Presets
import Rig

/// `detent preset …`: lists, shows, saves, deletes, imports and exports presets.
///
/// Every failure is one line on stderr and an exit status that says whose fault it is:
/// 64 for a wrong name or option, 65 for a file that is not a valid preset, 74 for a failed
/// read or write. Nothing is half-written: saves and exports are atomic.
struct PresetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preset",
        abstract: "List, show, save, delete, import and export presets.",
        discussion: """
            Factory presets ship inside detent and are read-only. User presets live in
            $XDG_CONFIG_HOME/detent/presets (~/.config/detent/presets when unset); a user
            preset with a factory preset's name overrides it. Names are compared ignoring case.
            A preset named "Default" sets the startup values and the reset-to-default targets.
            """,
        subcommands: [List.self, Show.self, Save.self, Delete.self, Import.self, Export.self]
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the presets: name, source and values; unreadable files with the reason.")

        @OptionGroup var plugin: PluginOption

        @Flag(help: "Print one JSON object per preset, one per line.")
        var json = false

        func run() throws {
            let store = try plugin.resolve().store
            let rows = try store.list()
            if json {
                for row in rows { print(PresetText.listJSONLine(row)) }
            } else {
                print(PresetText.listTable(rows, table: store.scope.table), terminator: "")
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show a preset's details and values.")

        @OptionGroup var plugin: PluginOption

        @Argument(help: "A preset name, or the path of a preset file.", completion: Completions.presets)
        var name: String

        @Flag(help: "Print the preset as JSON, in the preset file format.")
        var json = false

        func run() throws {
            let store = try plugin.resolve().store
            let loaded = try store.resolve(name)
            PresetCommand.warn(loaded.warnings)
            print(json ? PresetCodec.encode(loaded.preset) : PresetText.show(loaded), terminator: "")
        }
    }

    struct Save: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "save",
            abstract: "Save a user preset.",
            discussion: """
                The values start from --from (a preset name or file, whose author, comment and
                MIDI mappings are kept too) or else from the Default preset, and each --set
                changes one. Saving under a factory preset's name overrides it.

                For an LV2 plug-in, --set ID=PATH of a file parameter (an impulse response)
                saves the plug-in's own state with that file: in a folder beside the preset
                (NAME.state) holding a copy of the file, so the preset and its folder can move
                together; in a chain, each slot's in a folder of its own inside it
                (NAME.state/SLOT). A preset started --from one with such a state keeps it too.
                """)

        @OptionGroup var plugin: PluginOption

        @Argument(help: "The new preset's name (free text).")
        var name: String

        @Option(help: ArgumentHelp("Start from this preset (a name or a file).", valueName: "name"), completion: Completions.presets)
        var from: String?

        @Option(name: .customLong("set"), help: ArgumentHelp("Set one value, e.g. cutoff=1.2k or gain=-6dB (repeatable).", valueName: "id=value"),
                completion: Completions.assignments)
        var assignments: [String] = []

        @Option(help: "The author to record.")
        var author: String?

        @Option(help: "A comment describing the sound.")
        var comment: String?

        @Flag(help: "Replace an existing user preset of the same name.")
        var force = false

        /// Every --set is checked before anything is read or written.
        func validate() throws {
            // A plug-in's table is known once it is found (in `run`).
            if plugin.isDefault { _ = try changes(PresetScope.builtIn.table) }
        }

        private func changes(_ table: ParameterTable) throws(ValidationError) -> [(ParameterIndex, Double)] {
            var changes: [(ParameterIndex, Double)] = []
            for assignment in assignments {
                do {
                    changes.append(try table.parseAssignment(assignment))
                } catch {
                    throw ValidationError(error.description)
                }
            }
            return changes
        }

        func run() throws {
            let (processor, store) = try plugin.resolve()
            let changes: [(ParameterIndex, Double)]
            let paths: [String: String]
            do {
                // A file parameter's `--set ID=PATH` chooses a file the plug-in's saved state keeps.
                let split = try FileSettings.split(assignments, processor: processor)
                paths = split.paths
                var values = self
                // A graph file's values first, when the preset starts from no other.
                values.assignments = (from == nil ? plugin.choice.startingSets : []) + split.rest
                changes = try values.changes(store.scope.table)
            } catch let failure as any ExitStatusError {
                throw failure
            } catch {
                throw CommandFailure((error as? ValidationError)?.message ?? "\(error)", exitCode: 64)
            }
            var preset: Preset
            if let from = from ?? plugin.startingPreset {
                let base = try store.resolve(from)
                PresetCommand.warn(base.warnings)
                preset = base.preset
                preset.name = name
            } else {
                let (values, warnings) = store.defaultValues()
                PresetCommand.warn(warnings)
                preset = Preset(name: name, values: values, processor: store.scope.processor)
            }
            if let author { preset.author = author }
            if let comment { preset.comment = comment }
            for (id, value) in changes { preset.values[id] = value }
            // A plug-in's state (with the files it refers to) is kept when files are set or
            // the preset it starts from keeps one.
            let baseState = try from.map { reference throws(PresetError) in try store.resolve(reference).state } ?? nil
            guard processor.keepsState, !paths.isEmpty || baseState != nil else {
                let path = try store.save(preset, replacing: force)
                print("saved \(PresetName.quoted(name)) to \(path)")
                return
            }
            // The ids were checked by the split above.
            let stateProcessor = (try? processor.settingState(baseState).settingFiles(paths)) ?? processor
            let path = try PresetStateFolder.save(preset, processor: stateProcessor, store: store, replacing: force)
            print("saved \(PresetName.quoted(name)) to \(path)")
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a user preset (factory presets cannot be deleted).")

        @OptionGroup var plugin: PluginOption

        @Argument(help: "The user preset's name.", completion: Completions.presets)
        var name: String

        func run() throws {
            let store = try plugin.resolve().store
            // (The preset's own state folder goes with it.)
            let (path, factory) = try store.delete(named: name)
            print("deleted \(path)")
            if let factory { print("the factory preset \(PresetName.quoted(factory)) is in effect again") }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Check a preset file and copy it into the user presets.")

        @OptionGroup var plugin: PluginOption

        @Argument(help: "The preset file.", completion: .file(extensions: ["json"]))
        var file: String

        @Option(help: "Save it under this name instead of the one in the file.")
        var name: String?

        @Flag(help: "Replace an existing user preset of the same name.")
        var force = false

        func run() throws {
            let store = try plugin.resolve().store
            let (loaded, path) = try store.importPreset(file: file, as: name, replacing: force)
            PresetCommand.warn(loaded.warnings)
            print("imported \(PresetName.quoted(loaded.preset.name)) to \(path)")
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write a preset as a file (to stdout without -o).")

        @OptionGroup var plugin: PluginOption

        @Argument(help: "The preset's name.", completion: Completions.presets)
        var name: String

        @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The file to write.", valueName: "file"),
                completion: .file())
        var output: String?

        @Flag(help: "Replace the output file if it exists.")
        var force = false

        func run() throws {
            let store = try plugin.resolve().store
            guard let output else {
                let loaded = try store.load(named: name)
                PresetCommand.warn(loaded.warnings)
                print(PresetCodec.encode(loaded.preset), terminator: "")
                return
            }
            let loaded = try store.export(named: name, toFile: output, replacing: force)
            PresetCommand.warn(loaded.warnings)
            print("exported \(PresetName.quoted(loaded.preset.name)) to \(output)")
        }
    }

    // MARK: Reporting

    static func warn(_ warnings: [PresetWarning]) {
        for warning in warnings { Console.warning(warning.description) }
    }
}
