import Foundation
import Testing
import TestSupport

/// `detent panel --http`: the terminal panel (in tmux) and the browser panel over one set of
/// values, without audio: a key in the terminal reaches the page, a page's value the terminal.
@Suite("detent panel --http", .serialized)
struct PanelWebTests {
    @Test("The terminal's keys reach the page; the page's values are where the terminal's knobs turn from")
    func sharedValues() throws {
        let binary = try BuiltProducts.detent
        let folder = TemporaryFolder()
        let tmux = try TmuxSession(shellIn: folder.path)
        defer { tmux.close() }
        #expect(try tmux.wait { $0.contains("$") })
        try tmux.type("cd \(folder.path); \(binary) panel --http 0 2> messages")
        try tmux.send("Enter")
        #expect(try tmux.wait { $0.contains("[Cutoff]") })
        let line = try #require((try? String(contentsOfFile: folder.file("messages"), encoding: .utf8))?
            .split(separator: "\n").first { $0.contains("web panel at http://127.0.0.1:") })
        let port = try #require(Int(line.split(separator: ":").last?.split(separator: "/").first ?? ""))

        let page = try PanelSocket(port: port, headers: ["Origin": "http://127.0.0.1:\(port)"])
        #expect(entry("cutoff", in: try page.next("layout"))?["value"] as? Double == 1000)
        // k turns the focused knob (cutoff) one step up, 1 % of its travel.
        try tmux.type("k")
        let turned = try page.next("values") { entry("cutoff", in: $0) != nil }
        let up = try #require(entry("cutoff", in: turned)?["position"] as? Double)
        #expect(abs(up - (log(50) / log(1000) + 0.01)) < 1e-9)
        // From the page: the terminal takes the value, and its next step starts there.
        page.send(#"{"type":"value","id":"cutoff","value":2500}"#)
        _ = try page.next("values") { entry("cutoff", in: $0)?["value"] as? Double == 2500 }
        #expect(try tmux.wait { $0.contains("2.50 kHz") })
        try tmux.type("k")
        let again = try page.next("values") { (entry("cutoff", in: $0)?["value"] as? Double ?? 2500) != 2500 }
        let position = try #require(entry("cutoff", in: again)?["position"] as? Double)
        #expect(abs(position - (log(125) / log(1000) + 0.01)) < 1e-9)
        try tmux.type("q")
        #expect(try tmux.wait { $0.contains("$ ") && !$0.contains("[Cutoff]") })
    }
}
