import ArgumentParser
import Parameters
import DSP

/// `detent params`: prints the parameter table, the same rows every surface reads.
struct ParamsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "params",
        abstract: "Print the parameters: id, name, unit, range, default, taper and smoothing."
    )

    @Flag(help: "Print one JSON object per parameter, one per line.")
    var json = false

    func run() throws {
        if json {
            let table = Processor.lowpassGain.table
            for spec in table.specs { print(ParameterTableText.jsonLine(spec)) }
        } else {
            print(ParameterTableText.table(Processor.lowpassGain.table), terminator: "")
        }
    }
}
