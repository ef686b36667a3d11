import ArgumentParser
import Platform
import Rig

/// `detent scan FORMAT PATH…`: reads the plug-ins of VST2, VST3 or CLAP binaries and writes
/// each as a line for the `detent` that started it (``BinaryScan``), so that a binary that
/// crashes or hangs while loading costs this process alone. Not for people; hidden from help.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan", abstract: "Reads plug-in binaries for a listing (started by detent itself).", shouldDisplay: false)

    @Argument(help: .hidden)
    var format: String

    @Argument(help: .hidden)
    var paths: [String] = []

    func run() throws {
        ThisProcess.exitNow(InstalledPlugins.serveScan(format: format, paths: paths))
    }
}
