import Parameters
import AudioEngine
import KnobKit
import Presets

/// Keys: the bindings of the panel, routed by mode.
extension Panel {
    func handleKey(_ key: Key, _ modifiers: KeyModifiers, at time: Double) {
        if everywhereKey(key, modifiers, at: time) { return }
        switch mode {
        case .normal:
            normalKey(key, modifiers, at: time)
        case .help:
            if key == .escape || key == .enter || key == .character("?") || key == .character("q") { mode = .normal }
        case .browser(var browser):
            browserKey(key, &browser, at: time)
        case .valueEntry(let field):
            valueEntryKey(key, modifiers, field: field, at: time)
        case .saveName(let field):
            saveNameKey(key, modifiers, field: field)
        case .midiLearn:
            midiLearnKey(key)
        case .search(let field, let origin):
            searchKey(key, modifiers, field: field, origin: origin)
        case .chainAdd(let field, let position):
            chainAddKey(key, modifiers, field: field, position: position)
        case .fileEntry(let field, let file, _):
            fileKey(key, modifiers, field: field, file: file)
        case .confirmRemove(let name):
            confirmRemoveKey(key, name: name)
        case .confirmReplace(let name):
            confirmReplaceKey(key, name: name)
        }
    }

    /// The keys that work everywhere, whatever has the keyboard: Ctrl-C quits, Ctrl-Z
    /// suspends, Ctrl-L repaints. Returns true when `key` was one of them.
    private func everywhereKey(_ key: Key, _ modifiers: KeyModifiers, at time: Double) -> Bool {
        guard case .character(let c) = key, modifiers.contains(.ctrl) else { return false }
        switch c {
        case "c":
            quit(at: time)
            return true
        case "z":
            suspendRequested = true
            return true
        case "l":
            repaintRequested = true
            return true
        default:
            return false
        }
    }

    /// A key while a value is typed (`=`): the value is set when entered.
    private func valueEntryKey(_ key: Key, _ modifiers: KeyModifiers, field: TextField, at time: Double) {
        var field = field
        guard let outcome = field.handle(key, modifiers) else { return }
        switch outcome {
        case .editing: mode = .valueEntry(field)
        case .cancelled: mode = .normal
        case .submitted(let text):
            mode = .normal
            enterValue(text, at: time)
        }
    }

    /// A key while a preset's name is typed (`s`): the preset is saved when entered.
    private func saveNameKey(_ key: Key, _ modifiers: KeyModifiers, field: TextField) {
        var field = field
        guard let outcome = field.handle(key, modifiers) else { return }
        switch outcome {
        case .editing: mode = .saveName(field)
        case .cancelled:
            mode = .normal
            message = Message(text: "not saved", isError: false)
        case .submitted(let name):
            mode = .normal
            save(as: name, replacing: false)
        }
    }

    /// A key while a plug-in to add to the chain is typed (`A`): it is added at `position`
    /// when entered (nothing, for a blank line).
    private func chainAddKey(_ key: Key, _ modifiers: KeyModifiers, field: TextField, position: Int) {
        var field = field
        guard let outcome = field.handle(key, modifiers) else { return }
        switch outcome {
        case .editing: mode = .chainAdd(field, position: position)
        case .cancelled: mode = .normal
        case .submitted(let reference):
            mode = .normal
            if !reference.allSatisfy(\.isWhitespace) { addSlot(reference.trimmedWhitespace, at: position) }
        }
    }

    /// A key while the panel asks whether to remove slot `name` from the chain (`X`).
    private func confirmRemoveKey(_ key: Key, name: String) {
        switch key {
        case .character("y"), .character("Y"):
            mode = .normal
            editChain(.remove(name))
        case .character("n"), .character("N"), .escape, .enter:
            mode = .normal
            message = Message(text: "\(name) stays", isError: false)
        default:
            break
        }
    }

    /// A key while the panel asks whether to replace the preset `name` it is saving over.
    private func confirmReplaceKey(_ key: Key, name: String) {
        switch key {
        case .character("y"), .character("Y"):
            mode = .normal
            save(as: name, replacing: true)
        case .character("n"), .character("N"), .escape, .enter:
            mode = .normal
            message = Message(text: "not saved", isError: false)
        default:
            break
        }
    }

    private func normalKey(_ key: Key, _ modifiers: KeyModifiers, at time: Double) {
        let fine = modifiers.isFine
        switch key {
        case .tab, .right: moveFocus(by: 1)
        case .backTab, .left: moveFocus(by: -1)
        case .up: press(.increment, fine: fine, at: time)
        case .down: press(.decrement, fine: fine, at: time)
        case .pageUp: press(.pageUp, fine: fine, at: time)
        case .pageDown: press(.pageDown, fine: fine, at: time)
        case .home: press(.home, fine: fine, at: time)
        case .end: press(.end, fine: fine, at: time)
        case .enter: if !flipSwitch(at: time) { startValueEntry() }
        case .escape: message = nil
        case .character(let c):
            if modifiers.contains(.ctrl) {
                // Ctrl-K / Ctrl-J: the fine forms of k and j.
                if c == "k" { press(.increment, fine: true, at: time) }
                if c == "j" { press(.decrement, fine: true, at: time) }
                return
            }
            switch c {
            case "k", "+": press(.increment, fine: fine, at: time)
            case "j", "-": press(.decrement, fine: fine, at: time)
            case "=": startValueEntry()
            case " ": flipSwitch(at: time)
            case "[": turnPage(by: -1)
            case "]": turnPage(by: 1)
            case "d": press(.reset, fine: false, at: time)
            case "D": resetAll(at: time)
            case "p": openBrowser()
            case "s": mode = .saveName(TextField(presetName ?? ""))
            case "u": undo(at: time)
            case "r": redo(at: time)
            case "q": quit(at: time)
            case "?": mode = .help
            case "c": toggleDragStyle()
            case "m": startMIDILearn()
            case "f": startFileEntry()
            case "M": toggleMute(at: time)
            case "/": mode = .search(TextField(""), origin: focus)
            case "{": moveSection(by: -1)
            case "}": moveSection(by: 1)
            case "b": toggleSlotBypass(at: time)
            case "A": startChainAdd()
            case "X": confirmSlotRemoval()
            case "<": moveSlot(by: -1)
            case ">": moveSlot(by: 1)
            case "R": restartSlot()
            case "1"..."9":
                // A knob by its place on the page, as on a hardware synth's numbered controls.
                if let n = c.wholeNumberValue, let index = knobOnPage(n) { setFocus(index) }
            default: break
            }
        default:
            break
        }
    }

    /// Keys while the window is too small to show the knobs: quit, suspend and repaint only.
    func tooSmallKey(_ key: Key, _ modifiers: KeyModifiers, at time: Double) {
        switch key {
        case .character("c") where modifiers.contains(.ctrl), .character("q") where modifiers.isEmpty:
            quit(at: time)
        case .character("z") where modifiers.contains(.ctrl):
            suspendRequested = true
        case .character("l") where modifiers.contains(.ctrl):
            repaintRequested = true
        default:
            break
        }
    }

    private func moveFocus(by delta: Int) {
        setFocus((focus + delta + knobs.count) % knobs.count)
    }

    /// A key for the focused knob. Steps of the same knob in quick succession undo together.
    private func press(_ knobKey: KnobKey, fine: Bool, at time: Double) {
        preciseKnob = fine ? focus : nil
        let burst = [.increment, .decrement, .pageUp, .pageDown].contains(knobKey)
        turn(focus, burst: burst, at: time) { $0.press(knobKey, fine: fine, at: time) }
    }

    /// Enter and space on a switch (a toggle) flip it; returns false when the focused knob is
    /// not a switch (Enter then opens the value prompt).
    @discardableResult
    private func flipSwitch(at time: Double) -> Bool {
        guard knobs[focus].isSwitch else { return false }
        preciseKnob = nil
        turn(focus, at: time) { $0.flip(at: time) }
        return true
    }

    /// The value prompt starts with the knob's value, precise and in ASCII (easy to edit),
    /// selected: typing replaces it, a cursor key edits it.
    private func startValueEntry() {
        let knob = knobs[focus]
        offeredValue = knob.valueText(ascii: true, extraDigits: Self.preciseDigits)
        mode = .valueEntry(TextField(offeredValue ?? "", selected: true))
    }

    /// A typed value: the knob's parser (the table's) reads it, or says in one line why not.
    private func enterValue(_ text: String, at time: Double) {
        // The offered value, unchanged, is the knob's own: rounded text must not move it.
        guard !text.allSatisfy(\.isWhitespace), text != offeredValue else { return }
        var failure: ParameterError?
        turn(focus, at: time) { knob in
            do throws(ParameterError) { return try knob.enter(text, at: time) } catch {
                failure = error
                return nil
            }
        }
        if let failure { message = Message(text: failure.description, isError: true) }
    }

    func quit(at time: Double) {
        endCapture(at: time)
        quitRequested = true
    }
}
