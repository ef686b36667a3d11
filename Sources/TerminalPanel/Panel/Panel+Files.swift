import Control
import Parameters
import Platform
import Presets

/// File parameters: `f` opens a prompt for the path of one (an impulse response, a sample),
/// with Tab completing the path as a shell does; the host checks the file and loads it off the
/// audio thread, and the file's name shows among the outputs.
extension Panel {
    /// `f`: the prompt for the focused slot's first file parameter (the processor's first
    /// outside a chain), holding the path it has now.
    func startFileEntry() {
        guard !lastFiles.isEmpty else {
            message = Message(text: "no file parameter here: f sets a plug-in's file (an impulse response, a sample)", isError: true)
            return
        }
        var index = 0
        if let s = sectionNumber(of: focus) {
            let prefix = sections[s].name.lowercased() + "."
            index = lastFiles.firstIndex { $0.id.lowercased().hasPrefix(prefix) } ?? 0
        }
        mode = .fileEntry(TextField(lastFiles[index].path ?? ""), file: index, candidates: [])
    }

    func fileKey(_ key: Key, _ modifiers: KeyModifiers, field: TextField, file: Int) {
        switch key {
        case .tab:
            let completion = PathCompletion.complete(field.text)
            mode = .fileEntry(TextField(completion.text), file: file, candidates: completion.candidates)
        case .up where lastFiles.count > 1, .down where lastFiles.count > 1:
            // Another file parameter, with the path it holds.
            let next = (file + (key == .up ? -1 : 1) + lastFiles.count) % lastFiles.count
            mode = .fileEntry(TextField(lastFiles[next].path ?? ""), file: next, candidates: [])
        default:
            var field = field
            guard let outcome = field.handle(key, modifiers) else { return }
            switch outcome {
            case .editing: mode = .fileEntry(field, file: file, candidates: [])
            case .cancelled: mode = .normal
            case .submitted(let path):
                mode = .normal
                loadFile(file, path: path)
            }
        }
    }

    /// The prompt's words before the path: `ir (Impulse Response) file: `, and how to reach
    /// the others when there are several.
    func filePromptLabel(_ file: Int) -> String {
        let parameter = lastFiles[file]
        let name = parameter.label == parameter.id ? "" : " (\(PresetName.printable(parameter.label)))"
        let others = lastFiles.count > 1 ? (ascii ? " [Up/Dn: other files]" : " [↑↓ other files]") : ""
        return "\(PresetName.printable(parameter.id))\(name)\(others) file: "
    }

    /// Hands the typed path to the host (`~/` is the home folder); says what was loaded, or
    /// in one line why not, and the old file stays.
    private func loadFile(_ file: Int, path typed: String) {
        let id = lastFiles[file].id
        var path = typed.trimmedWhitespace
        guard !path.isEmpty else {
            message = Message(text: "\(id): no file named; it stays \(lastFiles[file].shownName)", isError: true)
            return
        }
        if path.hasPrefix("~/"), let home = Environment.value("HOME") { path = home + path.dropFirst() }
        switch host.perform(.setFile(id, path)) {
        case .file(_, let loaded):
            lastFiles = host.files()
            let name = PanelFile(id: id, label: id, path: loaded).shownName
            message = Message(text: "\(id): loaded \(PresetName.printable(name))", isError: false)
        case .error(let problem):
            message = Message(text: problem, isError: true)
        default:
            break
        }
        needsDraw = true
    }
}
