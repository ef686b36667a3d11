import ArgumentParser
import Parameters
import DSP

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
        let table = try plugin.resolve().processor.table
        if json {
            for spec in table.specs { print(ParameterTableText.jsonLine(spec)) }
        } else {
            print(ParameterTableText.table(table), terminator: "")
        }
    }
}
