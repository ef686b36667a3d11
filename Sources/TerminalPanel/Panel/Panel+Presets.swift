import Parameters
import DSP
import KnobKit
import Presets

/// Presets: the browser `p` opens, and saving with `s`.
extension Panel {
    func openBrowser() {
        do throws(PresetError) {
            mode = .browser(PresetBrowser(rows: try store.list(), current: presetName))
        } catch {
            message = Message(text: error.description, isError: true)
        }
    }

    func browserKey(_ key: Key, _ browser: inout PresetBrowser, at time: Double) {
        switch key {
        case .up, .character("k"): browser.move(by: -1)
        case .down, .character("j"): browser.move(by: 1)
        case .pageUp: browser.move(by: -10)
        case .pageDown: browser.move(by: 10)
        case .home: browser.selectFirst()
        case .end: browser.selectLast()
        case .escape, .character("q"), .character("p"):
            mode = .normal
            return
        case .enter:
            guard let row = browser.selected else { return }
            switch row.status {
            case .valid(let loaded):
                mode = .normal
                load(loaded, at: time)
            case .broken(let error):
                message = Message(text: error.description, isError: true)
            }
            return
        default:
            break
        }
        mode = .browser(browser)
    }

    /// Loads a preset: the knobs glide to its values (one undoable step), and it becomes the
    /// preset being edited.
    public func load(_ loaded: LoadedPreset, at time: Double) {
        endCapture(at: time)
        let changes = setValues(loaded.values.ordered.map { ($0.id, $0.value) }, at: time)
        history.record(changes, at: time)
        preset = loaded.preset
        presetName = loaded.preset.name
        if let warning = loaded.warnings.first {
            let more = loaded.warnings.count > 1 ? " (and \(loaded.warnings.count - 1) more)" : ""
            message = Message(text: "warning: \(warning)\(more)", isError: true)
        } else {
            message = Message(text: "loaded \(PresetName.quoted(loaded.preset.name))", isError: false)
        }
        needsDraw = true
    }

    /// Saves the knobs' values as the user preset `name`, keeping the edited preset's author,
    /// comment and MIDI mappings. When a user preset of that name exists, asks first.
    func save(as name: String, replacing: Bool) {
        var saved = preset
        saved.name = name
        saved.values = values
        do throws(PresetError) {
            let path = try store.save(saved, replacing: replacing)
            preset = saved
            presetName = name
            message = Message(text: "saved \(PresetName.quoted(name)) to \(path)", isError: false)
        } catch {
            switch error.problem {
            case .alreadyExists, .nameClash:
                mode = .confirmReplace(name)
            default:
                message = Message(text: error.description, isError: true)
            }
        }
    }
}
