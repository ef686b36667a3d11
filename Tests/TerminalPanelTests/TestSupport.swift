import Parameters
import AudioEngine
import Foundation
import KnobKit
import Presets
@testable import TerminalPanel

/// A store whose user folder is inside `root` (created on the first save).
func makeStore(in root: String) -> PresetStore {
    PresetStore(userDirectory: root + "/detent/presets")
}

/// A panel over the table defaults with a no-audio host, in a store nobody saves to unless a
/// test gives it a folder.
func makePanel(
    width: Int = 80, height: Int = 24, ascii: Bool = false, values: ParameterValues = ParameterValues(table: LowpassGain.table),
    store: PresetStore = PresetStore(userDirectory: "/nonexistent/detent-panel-tests"), host: (any PanelHost)? = nil,
    preset: Preset? = nil, origin: PresetOrigin? = nil
) -> (Panel, NoAudioHost) {
    let noAudio = NoAudioHost()
    let panel = Panel(values: values, preset: preset, origin: origin, host: host ?? noAudio, store: store, ascii: ascii,
                      width: width, height: height)
    return (panel, noAudio)
}

extension Panel {
    /// Sends a key at `time`.
    func press(_ key: Key, _ modifiers: KeyModifiers = [], at time: Double) {
        handle(.key(key, modifiers), at: time)
    }

    /// Types `text` one character at a time.
    func type(_ text: String, at time: Double) {
        for c in text { handle(.key(.character(c), []), at: time) }
    }

    func mouse(_ kind: MouseEvent.Kind, x: Int, y: Int, _ modifiers: KeyModifiers = [], at time: Double) {
        handle(.mouse(MouseEvent(kind, x: x, y: y, modifiers: modifiers)), at: time)
    }

    func value(_ id: ParameterIndex) -> Double { knob(id).value }
}

/// The knob a panel shows for `id` before any input: the law tests compare against.
func referenceKnob(_ id: ParameterIndex) -> Knob {
    Knob(LowpassGain.table[id], appearance: Panel.appearance(for: LowpassGain.table[id]))
}

/// The first child of `parent` whose command name is `name`, from /proc.
func childProcess(of parent: pid_t, named name: String) -> pid_t? {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
    for entry in entries {
        guard let pid = pid_t(entry),
              let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
              let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
        else { continue }
        let command = stat[stat.index(after: open)..<close]
        let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
        if command == name, fields.count > 1, pid_t(fields[1]) == parent { return pid }
    }
    return nil
}

extension Preset {
    /// A preset of the built-in processor at its table defaults.
    init(name: String, author: String? = nil, comment: String? = nil) {
        self.init(name: name, author: author, comment: comment, values: ParameterValues(table: LowpassGain.table))
    }
}
