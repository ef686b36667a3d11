import ArgumentParser
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
            for id in ParameterID.allCases { print(ParameterTableText.jsonLine(id.spec)) }
        } else {
            print(ParameterTableText.table(), terminator: "")
        }
    }
}
