import Control
import AudioEngine
import JackHost
import Parameters
import OSC
import Synchronization
import WebBridge

/// The live host as the web panel sees it: its chain snapshot, its generation-checked `set`,
/// and `reset` through the typed commands' interpreter (so it resets to the Default preset's
/// value, as `reset ID` does). The same verbs OSC and typed commands use; nothing else.
package final class LiveWebHost: WebPanelHost {
    package let host: LiveHost
    package let interpreter: CommandInterpreter
    /// A MIDI learn a page began (the one rule every surface follows).
    private let learning = Mutex<MIDILearn?>(nil)

    /// What the page is called for a processor, when it follows the chain's edits; nil keeps
    /// the title the panel started with (a session's name).
    private let title: (@Sendable (Processor) -> String)?
    /// The plug-ins a page may add (the command line's catalogue), or nil where none can be.
    private let plugins: (@Sendable () -> [CatalogueEntry])?

    package init(host: LiveHost, interpreter: CommandInterpreter, title: (@Sendable (Processor) -> String)? = nil,
                 catalogue: (@Sendable () -> [CatalogueEntry])? = nil) {
        self.host = host
        self.interpreter = interpreter
        self.title = title
        plugins = catalogue
    }

    package func webSnapshot() -> WebSnapshot {
        let now = host.chainSnapshot
        return WebSnapshot(processor: now.processor, generation: now.generation, targets: now.targets,
                           title: title?(now.processor))
    }

    package func set(_ values: [ParameterIndex: Double], ifGeneration generation: Int) -> Bool {
        host.set(values, ifGeneration: generation)
    }

    package func outputValues() -> [OutputValue] { host.outputValues() }

    package func faults() -> [String: String] { host.faults }

    /// As the typed `restart SLOT`, through the one interpreter every surface's commands go through.
    package func restart(_ slot: String) -> String? {
        if case .error(let message) = interpreter.execute(.restart(slot)) { return message }
        return nil
    }

    /// A preset by name only: a page, possibly on another machine, must not make Detent read
    /// or write any path it can (the rule OSC follows for peers beyond loopback).
    package func preset(_ name: String, save: Bool) -> String? {
        if OSCRouter.isPresetPath(name) { return "'\(name)': a preset's name, not a file's path" }
        switch interpreter.execute(save ? .presetSave(name) : .presetLoad(name)) {
        case .error(let message): return message
        default: return nil
        }
    }

    package func presetNames() -> [String] { interpreter.presets.names() }

    /// As the typed `chain …` edit, through the one interpreter: its answer line.
    package func editRig(_ request: ChainRequest) -> Result<String, ChainEditError> {
        answer(interpreter.execute(.chain(request)))
    }

    /// As the typed `set ID PATH`.
    package func setFile(_ id: String, path: String) -> Result<String, ChainEditError> {
        answer(interpreter.execute(.setFile(id, path)))
    }

    private func answer(_ answer: CommandAnswer) -> Result<String, ChainEditError> {
        if case .error(let message) = answer { return .failure(ChainEditError(message)) }
        return .success(answer.text(host.table))
    }

    package func catalogue() -> [CatalogueEntry] { plugins?() ?? [] }

    package func learn(_ index: ParameterIndex?, ifGeneration generation: Int) -> String? {
        guard let index else {
            learning.withLock { $0 = nil }
            return nil
        }
        do throws(MIDIControlError) {
            let learn = try MIDILearn(index, heard: host.lastMIDIControl(), generation: generation, current: host.chainGeneration)
            learning.withLock { $0 = learn }
            return nil
        } catch {
            return error.description
        }
    }

    /// Maps the controller heard since the learn began, if one has been (as the panel's `m`
    /// and OSC's learn do).
    package func takeLearnt() -> LearntController? {
        let learnt = learning.withLock { current in
            MIDILearn.finish(&current, learn: { $0 }, last: host.lastMIDIControl(), current: host.chainGeneration)
        }
        guard let (learn, controller) = learnt else { return nil }
        let index = learn.parameter
        host.updateMIDIControls { $0.assign(index, to: controller) }
        return LearntController(id: host.table[index].id, controller: controller)
    }

    package func reset(_ index: ParameterIndex, ifGeneration generation: Int) -> Bool {
        guard host.chainGeneration == generation else { return false }
        _ = interpreter.execute(.reset(index))
        return true
    }
}
