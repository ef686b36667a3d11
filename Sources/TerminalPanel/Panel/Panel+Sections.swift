import Parameters
import KnobKit

/// A chain's slots in the panel: its knobs fall into sections by their ids (`SLOT.ID`, the
/// chain table's form), shown as tabs under the header; `{` and `}` move to the previous or
/// next slot, `b` bypasses the focused knob's slot, and `/` searches every knob of every slot
/// by id or name.
public struct PanelSection: Sendable, Hashable {
    /// The slot's name (`eq`).
    public let name: String
    /// Its knobs, by number.
    public let knobs: Range<Int>
    /// Its bypass knob, when it has one.
    public let bypass: Int?

    /// The sections of `table`: one per slot name of a chain's ids, none for a single
    /// processor (whose ids have no `.`).
    public static func of(_ table: ParameterTable) -> [PanelSection] {
        var sections: [PanelSection] = []
        var start = 0
        var current: String?
        func close(_ end: Int) {
            guard let name = current else { return }
            let bypass = (start..<end).first { table.specs[$0].id == name + ".bypass" || table.specs[$0].id == name + ".slot-bypass" }
            sections.append(PanelSection(name: name, knobs: start..<end, bypass: bypass))
        }
        for (i, spec) in table.specs.enumerated() {
            guard let dot = spec.id.firstIndex(of: ".") else { return [] }
            let name = String(spec.id[..<dot])
            if name != current {
                close(i)
                current = name
                start = i
            }
        }
        close(table.count)
        return sections
    }
}

extension Panel {
    /// The section holding knob `index`, by number.
    func sectionNumber(of index: Int) -> Int? {
        sections.firstIndex { $0.knobs.contains(index) }
    }

    /// Focus the first knob of the slot `delta` sections away (wrapping).
    func moveSection(by delta: Int) {
        guard !sections.isEmpty else { return }
        let current = sectionNumber(of: focus) ?? 0
        let next = (current + delta % sections.count + sections.count) % sections.count
        setFocus(sections[next].knobs.lowerBound)
        message = Message(text: "slot \(sections[next].name)", isError: false)
    }

    /// Flips the bypass of the focused knob's slot.
    func toggleSlotBypass(at time: Double) {
        guard let s = sectionNumber(of: focus), let bypass = sections[s].bypass else {
            message = Message(text: sections.isEmpty ? "bypass is for the slots of a chain" : "this slot has no bypass", isError: true)
            return
        }
        turn(bypass, at: time) { $0.flip(at: time) }
        let on = knobs[bypass].value > knobs[bypass].scale.range.lowerBound
        message = Message(text: "\(sections[s].name) \(on ? "bypassed" : "on")", isError: false)
    }

    /// The knob the search `text` finds: the first, from the knob the search started at, whose
    /// id or name contains it (case-insensitive); nil when none does.
    func searchMatch(_ text: String, from start: Int) -> Int? {
        let needle = text.trimmedWhitespace.lowercased()
        guard !needle.isEmpty, !knobs.isEmpty else { return nil }
        for step in 0..<knobs.count {
            let i = (start + step) % knobs.count
            if table.specs[i].id.lowercased().contains(needle) || knobs[i].scale.name.lowercased().contains(needle) { return i }
        }
        return nil
    }

    /// A key while searching: each edit focuses the first match; Enter keeps it, Escape goes
    /// back to where the search began.
    func searchKey(_ key: Key, _ modifiers: KeyModifiers, field: TextField, origin: Int) {
        var field = field
        guard let outcome = field.handle(key, modifiers) else { return }
        switch outcome {
        case .editing:
            mode = .search(field, origin: origin)
            if let match = searchMatch(field.text, from: origin) { setFocus(match) } else if !field.text.isEmpty {
                setFocus(origin)
            }
        case .cancelled:
            mode = .normal
            setFocus(origin)
        case .submitted(let text):
            mode = .normal
            if searchMatch(text, from: origin) == nil, !text.isEmpty {
                message = Message(text: "no knob matches '\(text)'", isError: true)
            }
        }
    }
}
