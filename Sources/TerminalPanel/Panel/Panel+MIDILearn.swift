import Control
import Parameters
import AudioEngine

/// MIDI learn: `m` on a knob, then turn a hardware controller, and that controller turns the
/// knob from then on, by the rule every surface follows (``MIDILearn``).
extension Panel {
    /// `m`: starts learning for the focused knob, or says why it cannot.
    func startMIDILearn() {
        do throws(MIDIControlError) {
            mode = .midiLearn(try MIDILearn(ids[focus], heard: host.lastMIDIControl(), generation: host.chainGeneration,
                                            current: host.chainGeneration))
        } catch {
            message = Message(text: error.description, isError: true)
        }
    }

    /// The status line while learning.
    var midiLearnPrompt: String {
        let knob = knobs[focus]
        let now = host.midiControllers()?[ids[focus]].map { "now CC \($0)" } ?? "no controller yet"
        return "MIDI learn: turn a controller for \(knob.scale.name) (\(now); Esc cancels)"
    }

    /// A key while learning: Esc or `m` stops; everything else waits for the controller.
    func midiLearnKey(_ key: Key) {
        guard key == .escape || key == .character("m") else { return }
        mode = .normal
        message = Message(text: "MIDI learn cancelled", isError: false)
    }

    /// On a host refresh: maps the controller heard since learning began, if any.
    func learnMIDIIfHeard() {
        guard case .midiLearn(let learn) = mode else { return }
        let controller: Int
        switch learn.outcome(last: host.lastMIDIControl(), current: host.chainGeneration) {
        case .waiting: return
        case .dropped:
            mode = .normal
            message = Message(text: "MIDI learn cancelled: the chain changed", isError: true)
            needsDraw = true
            return
        case .learnt(let heard): controller = heard
        }
        let id = learn.parameter
        let before = host.midiControllers() ?? [:]
        host.assignMIDIController(controller, to: id)
        mode = .normal
        var text = "\(knob(id).scale.name) answers to CC \(controller)"
        if let other = before.first(where: { $0.value == controller && $0.key != id })?.key as ParameterIndex? {
            text += "; \(knob(other).scale.name) no longer does"
        }
        message = Message(text: text, isError: false)
        needsDraw = true
    }
}
