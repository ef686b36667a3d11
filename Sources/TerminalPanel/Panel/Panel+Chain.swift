import Control
import AudioEngine
import Parameters
import KnobKit
import Presets

/// Editing the chain from the panel: `A` adds a slot after the focused knob's, `X` removes
/// that slot (after a y/n), `<` and `>` move it. The host does the edit (live, with fades);
/// the panel then rebuilds its knobs for the new table, as it does when another front end
/// edits the chain.
extension Panel {
    /// The focused knob's slot and its place (1 is first); for a single processor, the
    /// processor as the first slot of the chain it would become.
    private var focusedSlot: (name: String?, position: Int) {
        guard let s = sectionNumber(of: focus) else { return (nil, 1) }
        return (sections[s].name, s + 1)
    }

    func startChainAdd() {
        mode = .chainAdd(TextField(""), position: focusedSlot.position + 1)
    }

    func confirmSlotRemoval() {
        guard let name = focusedSlot.name else {
            message = Message(text: "a single processor cannot be removed: add a slot first", isError: true)
            return
        }
        mode = .confirmRemove(name)
    }

    /// `R`: the focused knob's slot started afresh (an isolated slot that crashed or hung).
    func restartSlot() {
        switch host.perform(.restart(focusedSlot.name ?? "")) {
        case .restarted(let slot): message = Message(text: "restarted \(slot)", isError: false)
        case .error(let problem): message = Message(text: problem, isError: true)
        default: break
        }
    }

    func moveSlot(by delta: Int) {
        guard let name = focusedSlot.name else {
            message = Message(text: "moving is for the slots of a chain", isError: true)
            return
        }
        let to = focusedSlot.position + delta
        guard to >= 1, to <= sections.count else {
            message = Message(text: "\(name) is already \(delta < 0 ? "first" : "last")", isError: true)
            return
        }
        editChain(.move(name, to: to))
    }

    /// Adds a plug-in by reference (URI, name, `builtin`, `NAME=…`) at `position` (1 is first).
    func addSlot(_ reference: String, at position: Int) {
        let (name, rest) = Processor.slotNameAndReference(reference)
        editChain(.add(reference: rest, name: name, position: position))
    }

    /// Asks the host for the edit, as a typed `chain` command; the knobs follow the chain it makes.
    func editChain(_ request: ChainRequest) {
        switch host.perform(.chain(request)) {
        case .chain:
            if let chain = host.currentChain() { retable(to: chain) }
            message = Message(text: "chain: " + sections.map(\.name).joined(separator: " → "), isError: false)
        case .error(let problem):
            message = Message(text: problem, isError: true)
        default:
            break
        }
        messageTimedFromNextFrame = true
    }

    /// New knobs for `chain`'s table: focus stays on the knob of the same id where there is
    /// one, the size and pointer settings stay; undo, mutes and the preset being edited start
    /// afresh (they were of the other table).
    func retable(to chain: PanelChain) {
        let focusedID = table.specs[focus].id
        let fresh = Panel(values: chain.values, defaults: chain.defaults, host: host, store: chain.store, title: chain.title,
                          ascii: ascii, width: width, height: height)
        store = fresh.store
        title = fresh.title
        table = fresh.table
        ids = fresh.ids
        sections = fresh.sections
        knobs = fresh.knobs
        preset = fresh.preset
        presetName = nil
        presetOrigin = nil
        history = UndoHistory()
        mutedLevels = [:]
        displayGaps = [:]
        drawnLabels = []
        drawnAnimating = []
        lastHostValues = nil
        lastPickups = [:]
        preciseKnob = nil
        capture = nil
        firstShown = 0
        focus = 0
        chainGeneration = chain.generation
        // A prompt, browser or learn in progress was about the other table's knobs.
        mode = .normal
        let kept = table.specs.firstIndex { $0.id == focusedID } ?? 0
        for i in knobs.indices { knobs[i].isFocused = i == kept }
        focus = kept
        keepFocusShown()
        needsDraw = true
    }
}
