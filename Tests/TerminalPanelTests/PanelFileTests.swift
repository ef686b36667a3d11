import Control
import AudioEngine
import Parameters
import Testing
import TestSupport
@testable import TerminalPanel

/// A live host with two file parameters: what the panel asks it, and what it answers.
final class FakeFileHost: PanelHost {
    var values: [ParameterIndex: Double] = [:]
    var current = [PanelFile(id: "ir", label: "Impulse Response", path: nil),
                   PanelFile(id: "sample", label: "sample", path: "/old/kick.wav")]
    var asked: [(String, String)] = []

    func set(_ new: [ParameterIndex: Double]) { values.merge(new) { $1 } }
    func targets() -> [ParameterIndex: Double] { values }
    var refreshInterval: Double? { 1.0 / 30 }
    func files() -> [PanelFile] { current }
    func perform(_ command: HostCommand) -> CommandAnswer {
        guard case .setFile(let id, let path) = command else { return .error("not a file") }
        asked.append((id, path))
        guard path.hasSuffix(".wav") else { return .error("set \(id): '\(path)' is not a file") }
        let absolute = path.hasPrefix("/") ? path : "/work/" + path
        if let i = current.firstIndex(where: { $0.id == id }) { current[i].path = absolute }
        return .file(id, absolute)
    }
}

@Suite("Panel file parameters")
struct PanelFileTests {
    @Test("f opens the prompt; Tab completes; Enter loads the file and its name shows among the outputs")
    func loadsAFile() throws {
        let folder = TemporaryFolder()
        folder.write("hall.wav", text: "")
        folder.write("hall-long.wav", text: "")
        let host = FakeFileHost()
        let (panel, _) = makePanel(host: host)
        panel.advance(to: 0)
        var screen = PanelRenderer.render(panel, at: 0).screen
        #expect(screen.contains("Impulse Respo… (none)"))
        #expect(screen.contains("sample         kick.wav"))

        panel.press(.character("f"), at: 0.1)
        screen = PanelRenderer.render(panel, at: 0.1).screen
        #expect(screen.text(row: panel.layout.statusRow).hasPrefix("ir (Impulse Response) [↑↓ other files] file: "))
        panel.type(folder.path + "/h", at: 0.2)
        panel.press(.tab, at: 0.3)
        screen = PanelRenderer.render(panel, at: 0.3).screen
        #expect(screen.text(row: panel.layout.statusRow).hasSuffix(folder.path + "/hall") || screen.contains(folder.path + "/hall"))
        #expect(screen.text(row: panel.layout.statusRow - 1).hasPrefix("hall-long.wav  hall.wav"))
        panel.type(".", at: 0.4)
        panel.press(.tab, at: 0.5)
        panel.press(.enter, at: 0.6)
        #expect(host.asked.map(\.0) == ["ir"] && host.asked.map(\.1) == [folder.path + "/hall.wav"])
        #expect(panel.shownMessage(at: 0.7)?.text == "ir: loaded hall.wav")
        #expect(PanelRenderer.render(panel, at: 0.7).screen.contains("Impulse Respo… hall.wav"))
    }

    @Test("Up and Down switch to the other file parameter, offering its path")
    func switchesFiles() {
        let host = FakeFileHost()
        let (panel, _) = makePanel(host: host)
        panel.press(.character("f"), at: 0)
        panel.press(.down, at: 0.1)
        guard case .fileEntry(let field, let file, _) = panel.mode else {
            Issue.record("no file prompt: \(panel.mode)")
            return
        }
        #expect(file == 1 && field.text == "/old/kick.wav")
    }

    @Test("with one file parameter, Up and Down leave what was typed alone")
    func oneFileKeepsTheText() {
        let host = FakeFileHost()
        host.current.removeLast()
        let (panel, _) = makePanel(host: host)
        panel.press(.character("f"), at: 0)
        panel.type("half/typed", at: 0.1)
        panel.press(.up, at: 0.2)
        panel.press(.down, at: 0.3)
        guard case .fileEntry(let field, let file, _) = panel.mode else {
            Issue.record("no file prompt: \(panel.mode)")
            return
        }
        #expect(file == 0 && field.text == "half/typed")
    }

    @Test("a file the host refuses is one line, and the old one stays; Escape loads nothing")
    func refused() {
        let host = FakeFileHost()
        let (panel, _) = makePanel(host: host)
        panel.press(.character("f"), at: 0)
        panel.type("notes.txt", at: 0.1)
        panel.press(.enter, at: 0.2)
        #expect(panel.shownMessage(at: 0.3) == Panel.Message(text: "set ir: 'notes.txt' is not a file", isError: true))
        #expect(host.current[0].path == nil)
        panel.press(.character("f"), at: 0.4)
        panel.type("x.wav", at: 0.5)
        panel.press(.escape, at: 0.6)
        #expect(host.asked.count == 1)
        #expect(panel.mode == .normal)
    }

    @Test("without file parameters, f says what it is for")
    func noFiles() {
        let (panel, _) = makePanel()
        panel.press(.character("f"), at: 0)
        #expect(panel.mode == .normal)
        #expect(panel.shownMessage(at: 0.1)?.text.hasPrefix("no file parameter here") == true)
    }
}
