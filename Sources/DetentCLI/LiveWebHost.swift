import DSP
import JackHost
import Parameters
import Remote
import WebBridge

/// The live host as the web panel sees it: its chain snapshot, its generation-checked `set`,
/// and `reset` through the typed commands' interpreter (so it resets to the Default preset's
/// value, as `reset ID` does). The same verbs OSC and typed commands use; nothing else.
final class LiveWebHost: WebPanelHost {
    let host: LiveHost
    let interpreter: CommandInterpreter

    init(host: LiveHost, interpreter: CommandInterpreter) {
        self.host = host
        self.interpreter = interpreter
    }

    func webSnapshot() -> WebSnapshot {
        let now = host.chainSnapshot
        return WebSnapshot(processor: now.processor, generation: now.generation, targets: now.targets)
    }

    func set(_ values: [ParameterIndex: Double], ifGeneration generation: Int) -> Bool {
        host.set(values, ifGeneration: generation)
    }

    func outputValues() -> [OutputValue] { host.outputValues() }

    /// A preset by name only: a page, possibly on another machine, must not make Detent read
    /// or write any path it can (the rule OSC follows for peers beyond loopback).
    func preset(_ name: String, save: Bool) -> String? {
        if OSCRouter.isPresetPath(name) { return "'\(name)': a preset's name, not a file's path" }
        switch interpreter.execute(save ? .presetSave(name) : .presetLoad(name)) {
        case .error(let message): return message
        default: return nil
        }
    }

    func presetNames() -> [String] { interpreter.presets.names() }

    func reset(_ index: ParameterIndex, ifGeneration generation: Int) -> Bool {
        guard host.chainGeneration == generation else { return false }
        _ = interpreter.execute(.reset(index))
        return true
    }
}
