import Control
import Parameters
import AudioEngine
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
    /// Restores a preset's plug-in state through the host; why it could not, in one line.
    private func restoring(_ state: SavedState) -> String? {
        do throws(ChainEditError) { try host.restoreState(state) } catch { return error.description }
        return nil
    }

    public func load(_ loaded: LoadedPreset, at time: Double) {
        now = time
        endCapture(at: time)
        let changes = setValues(loaded.values.ordered.map { ($0.id, $0.value) }, at: time)
        history.record(changes, at: time)
        preset = loaded.preset
        presetName = loaded.preset.name
        presetOrigin = loaded.origin
        // A preset that keeps the plug-ins' state (an impulse response) brings it back too.
        if let state = loaded.state, let problem = restoring(state) {
            message = Message(text: problem, isError: true)
        } else if let warning = loaded.warnings.first {
            let more = loaded.warnings.count > 1 ? " (and \(loaded.warnings.count - 1) more)" : ""
            message = Message(text: "warning: \(warning)\(more)", isError: true)
        } else {
            message = Message(text: "loaded \(PresetName.quoted(loaded.preset.name))", isError: false)
        }
        needsDraw = true
    }

    /// Saves the knobs' values (at ``KnobPrecision``) as the user preset `name`, keeping the
    /// edited preset's MIDI mappings. Its author and comment are kept only when it replaces
    /// the user's own preset of the same name: a factory preset's words, or another preset's,
    /// would not describe these values. Saved as "Default", the values become the reset
    /// targets at once, as they will be at the next start. When a user preset of that name
    /// exists, asks first.
    func save(as name: String, replacing: Bool) {
        var saved = preset
        saved.name = name
        saved.values = ParameterValues(table: table, Dictionary(uniqueKeysWithValues: zip(ids, knobs.map { KnobPrecision.kept($0.value) })))
        if !keepsDetails(savingAs: name) {
            saved.author = nil
            saved.comment = nil
        }
        do throws(PresetError) {
            let path = try host.savePreset(saved, in: store, replacing: replacing)
            preset = saved
            presetName = name
            presetOrigin = .user(path: path, overridesFactory: false)
            if PresetName.key(name) == PresetName.key(Preset.defaultName) {
                for i in knobs.indices { knobs[i].defaultValue = saved.values[ids[i]] }
            }
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

    /// The edited preset's author and comment still hold for a save under `name`: it is the
    /// same preset, and not a factory one (or the origin is unknown).
    private func keepsDetails(savingAs name: String) -> Bool {
        guard let presetName, PresetName.key(presetName) == PresetName.key(name) else { return false }
        switch presetOrigin {
        case .factory?, .tableDefaults?: return false
        case .user?, .file?, nil: return true
        }
    }
}
