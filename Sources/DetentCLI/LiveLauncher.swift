import RenderJobs
import Control
import AudioEngine
import Host
import JackHost
import Platform
import Presets

/// `detent live`'s command line as a session manager's sessions start from it: the same
/// processor, options, interpreter, browser panel and stop signals as a session the user starts.
struct LiveLauncher: SessionLauncher, @unchecked Sendable {
    let command: LiveCommand

    func processor(_ identifier: String?) throws -> (processor: Processor, store: PresetStore) {
        guard let identifier else { return try command.plugin.resolve() }
        return try ProcessorReference.find(identifier)
    }

    func hostOptions(processor: Processor, store: PresetStore, startingFromCommandLine: Bool) throws -> LiveHostOptions {
        var options = try command.hostOptions(processor: command.isolating(processor))
        // A session manager's client has no face but its log.
        options.logsXruns = true
        if startingFromCommandLine {
            options.initialValues = try command.starting.values(store: store, plugin: command.plugin, processor: processor)
        }
        return options
    }

    func interpreter(host: LiveHost, store: PresetStore, processor: Processor,
                     log: @escaping @Sendable (String) -> Void) -> CommandInterpreter {
        command.commandInterpreter(host: host, presets: StorePresetSource(store: store, processor: processor), log: log)
    }

    var osc: (port: Int, bind: String)? { command.osc.map { ($0, command.oscBind) } }

    func startWeb(host: LiveHost, interpreter: CommandInterpreter, title: String, oscPort: Int?, oscAddress: String?,
                  log: @escaping @Sendable (String) -> Void) throws -> WebPanelProcess? {
        try command.web.start(host: LiveWebHost(host: host, interpreter: interpreter), changes: host.changes,
                              title: title, oscPort: oscPort, oscAddress: oscAddress, log: log)
    }

    func stopOnSignals(_ stop: @escaping @Sendable () -> Void) throws(ManagedSessionError) -> SignalWatcher {
        do { return try LiveCommand.stopOnSignals(stop) } catch {
            throw ManagedSessionError(description: error.description, exitCode: error.exitCode)
        }
    }
}
