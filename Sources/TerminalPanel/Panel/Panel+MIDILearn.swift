import Parameters
import AudioEngine

/// MIDI learn: `m` on a knob, then turn a hardware controller, and that controller turns the
/// knob from then on. The host counts every control change it hears on its channel, mapped or
/// not; learning notes the count and takes the first controller heard after it.
extension Panel {
    /// `m`: starts learning for the focused knob, or says why it cannot.
    func startMIDILearn() {
        guard let heard = host.lastMIDIControl() else {
            message = Message(text: "no MIDI input to learn from (detent live has one, unless --no-midi)", isError: true)
            return
        }
        mode = .midiLearn(heard: heard.count)
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
        guard case .midiLearn(let since) = mode, let last = host.lastMIDIControl(), last.count != since else { return }
        let id = ids[focus]
        let before = host.midiControllers() ?? [:]
        host.assignMIDIController(last.controller, to: id)
        mode = .normal
        var text = "\(knobs[focus].scale.name) answers to CC \(last.controller)"
        if let other = before.first(where: { $0.value == last.controller && $0.key != id })?.key as ParameterIndex? {
            text += "; \(knob(other).scale.name) no longer does"
        }
        message = Message(text: text, isError: false)
        needsDraw = true
    }
}
