import Control
import AudioEngine
import Parameters
import Platform
import Synchronization
import TerminalPanel
import WebBridge

/// `detent panel --http`: the values the terminal panel turns, shared with the browser panel
/// — no audio, one set of targets that either may change, each showing the other's changes
/// within its refresh.
package final class SharedPanelHost: PanelHost, WebPanelHost {
    private let processor: Processor
    private let defaults: [ParameterIndex: Double]
    private let values: Mutex<[ParameterIndex: Double]>
    /// Told of every change either panel makes, for the browser panel's feedback to wake on.
    package let changes = ChangeFeed<HostChanges>()

    package init(processor: Processor, values: [ParameterIndex: Double], defaults: [ParameterIndex: Double]) {
        self.processor = processor
        self.defaults = defaults
        self.values = Mutex(values)
    }

    package func set(_ changes: [ParameterIndex: Double]) {
        values.withLock { $0.merge(changes) { _, new in new } }
        self.changes.publish(.values)
    }

    package func targets() -> [ParameterIndex: Double] { values.withLock { $0 } }

    /// The terminal panel looks for the browser's changes 20 times a second.
    package var refreshInterval: Double? { 0.05 }

    package func webSnapshot() -> WebSnapshot { WebSnapshot(processor: processor, generation: 0, targets: targets()) }

    package func set(_ changes: [ParameterIndex: Double], ifGeneration generation: Int) -> Bool {
        set(changes)
        return true
    }

    /// The terminal panel owns the presets here: its unsaved edits and their names.
    package func preset(_ name: String, save: Bool) -> String? {
        "presets are loaded and saved in the terminal panel (p, s)"
    }

    package func reset(_ index: ParameterIndex, ifGeneration generation: Int) -> Bool {
        set([index: defaults[index] ?? processor.table[index].defaultValue])
        return true
    }
}
