import ArgumentParser
import Parameters
import AudioEngine

/// `detent params`: prints the parameter table, the same rows every surface reads.
struct ParamsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "params",
        abstract: "Print the parameters: id, name, unit, range, default, taper and smoothing."
    )

    @OptionGroup var plugin: PluginOption

    @Flag(help: "Print one JSON object per parameter, one per line.")
    var json = false

    func run() throws {
        let processor = try plugin.resolve().processor
        if json {
            for spec in processor.table.specs { print(ParameterTableText.jsonLine(spec)) }
            for file in processor.files { print(ParameterTableText.jsonLine(file)) }
        } else {
            print(ParameterTableText.table(processor.table, files: processor.files), terminator: "")
        }
    }
}
