import RenderJobs
import Control
import AudioEngine
import Live
import JackHost
import Platform
import Presets
import Parameters
import Rig
import Isolation

/// `detent live`'s command line as a session manager's sessions start from it: the same
/// processor, options, interpreter, browser panel and stop signals as a session the user starts.
struct LiveLauncher: SessionLauncher, @unchecked Sendable {
    let command: LiveCommand

    func processor(_ identifier: String?, state: SavedState?) throws -> (processor: Processor, store: PresetStore) {
        // A new session starts as the command line says: its files and starting preset's state.
        guard let identifier else {
            let (processor, store, _) = try command.startingProcessor()
            return (processor, store)
        }
        let (found, store) = try ProcessorReference.find(identifier)
        guard let state, found.keepsState else { return (found, store) }
        if let problem = PresetStates.problem(state) {
            Console.warning("the session's saved state: \(problem); the plug-ins keep their defaults")
            return (found, store)
        }
        return (found.settingState(state), store)
    }

    func keepingState(of processor: Processor, in folder: String, name: String, commit: (SavedState?) throws -> Void) throws {
        guard StateFolder.isKept(by: processor) else {
            try commit(nil)
            // A state saved before (the chain has lost its convolver since) is no longer named.
            FolderEntries.remove(folder: folder + "/" + name)
            return
        }
        try StateFolder.write(processor, in: folder, name: name, failure: { SessionStateError(description: $0) }) { state throws(SessionStateError) in
            do { try commit(state) } catch { throw SessionStateError(description: "\(error)") }
        }
    }

    func hostOptions(processor: Processor, store: PresetStore, startingFromCommandLine: Bool) throws -> LiveHostOptions {
        var options = try command.hostOptions(processor: try command.isolating(processor))
        // A session manager's client has no face but its log.
        options.logsXruns = true
        if startingFromCommandLine {
            // (The file `--set`s are the processor's already.)
            var starting = command.starting
            starting.sets = try FileSettings.split(starting.sets, processor: processor).rest
            options.initialValues = try starting.values(store: store, plugin: command.plugin, processor: processor)
        }
        return options
    }

    func interpreter(host: LiveHost, store: PresetStore, processor: Processor,
                     log: @escaping @Sendable (String) -> Void) -> CommandInterpreter {
        let presets = StorePresetSource(store: store, processor: processor, isolation: isolation)
        command.allowChainEdits(host, presets: presets)
        return command.commandInterpreter(host: host, presets: presets, log: log)
    }

    var osc: (port: Int, bind: String)? { command.osc.map { ($0, command.oscBind) } }

    var isolation: String? { command.isolation }

    func isolating(_ plan: String?) throws -> any SessionLauncher {
        var command = self.command
        command.isolate = plan != nil
        if let plan {
            do { command.isolatePlan = try SandboxPlan(parsing: plan).text } catch { throw CommandFailure(error.description, exitCode: 65) }
        } else {
            command.isolatePlan = nil
        }
        return LiveLauncher(command: command)
    }

    func startWeb(host: LiveHost, interpreter: CommandInterpreter, title: String, oscPort: Int?, oscAddress: String?,
                  log: @escaping @Sendable (String) -> Void) throws -> WebPanelProcess? {
        try command.web.start(host: LiveWebHost(host: host, interpreter: interpreter, catalogue: WebCatalogue.entries), changes: host.changes,
                              title: title, oscPort: oscPort, oscAddress: oscAddress, log: log)
    }

    func stopOnSignals(_ stop: @escaping @Sendable () -> Void) throws(ManagedSessionError) -> SignalWatcher {
        do { return try LiveCommand.stopOnSignals(stop) } catch {
            throw ManagedSessionError(description: error.description, exitCode: error.exitCode)
        }
    }
}

/// Why a session's plug-in states could not be saved.
struct SessionStateError: Error, CustomStringConvertible {
    let description: String
}
