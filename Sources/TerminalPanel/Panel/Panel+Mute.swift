import Parameters
import KnobKit

/// Mute, as on a mixer: `M` silences a level and, pressed again, gives back the level it had.
extension Panel {
    /// The knob `M` mutes: the focused one when it is a level with a silent minimum, else the
    /// table's first such level; nil when the table has none.
    var muteTarget: Int? {
        func isLevel(_ i: Int) -> Bool {
            guard let spec = knobs[i].scale.spec else { return false }
            return spec.minimumIsSilence && spec.kind == .continuous
        }
        if isLevel(focus) { return focus }
        return knobs.indices.first(where: isLevel)
    }

    /// Silences the mute target, remembering its level; on a muted knob still silent, puts the
    /// remembered level back. Each is one undoable move.
    func toggleMute(at time: Double) {
        guard let index = muteTarget else {
            message = Message(text: "no level to mute", isError: true)
            return
        }
        let id = ids[index]
        let silence = knobs[index].scale.range.lowerBound
        let name = knobs[index].scale.name
        if let level = mutedLevels[id], knobs[index].value == silence {
            mutedLevels[id] = nil
            turn(index, at: time) { $0.setValue(level, animated: true, at: time) }
            message = Message(text: "\(name) unmuted: \(knobs[index].valueText(ascii: ascii))", isError: false)
            return
        }
        guard knobs[index].value != silence else {
            message = Message(text: "\(name) is already silent", isError: false)
            return
        }
        mutedLevels[id] = knobs[index].value
        turn(index, at: time) { $0.setValue(silence, animated: true, at: time) }
        message = Message(text: "\(name) muted (M gives back \(knobs[index].scale.format(mutedLevels[id]!, ascii: ascii)))", isError: false)
    }

    /// True when `M` would give a level back to knob `index`.
    public func isMuted(_ index: Int) -> Bool {
        guard let level = mutedLevels[ids[index]] else { return false }
        return knobs[index].value == knobs[index].scale.range.lowerBound && level != knobs[index].value
    }
}
