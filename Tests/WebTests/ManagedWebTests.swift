import Foundation
import Testing
import TestSupport

/// `detent live --http` under a session manager (the tests' own, speaking NSM's server side):
/// each session the manager opens gets the browser panel, titled with the session's name.
@Suite("The web panel under a session manager")
struct ManagedWebTests {
    /// The ports of the panels it said it serves, in order.
    static func webPorts(_ detent: LiveProgram) -> [Int] {
        detent.messages.compactMap { line in
            guard line.contains("web panel at http://"), let address = line.split(separator: "http://").last,
                  let hostPort = address.split(separator: "/").first else { return nil }
            return Int(hostPort.split(separator: ":").last ?? "")
        }
    }

    @Test("an opened session serves the panel; a switch serves the next one's")
    func sessionServesThePanel() throws {
        let server = try JackServer()
        let nsm = try FakeSessionManager()
        let folder = TemporaryFolder()
        var environment = server.clientEnvironment
        environment["NSM_URL"] = nsm.url
        let detent = try LiveProgram(server.liveArguments + ["--http", "0"], environment: environment)
        _ = try #require(nsm.expect("/nsm/server/announce"), "Detent announces itself")
        nsm.send("/reply", [.string("/nsm/server/announce"), .string("welcome"), .string("Fake NSM"), .string(":server-control:")])
        for (name, id) in [("Session A", "detent.nWEB"), ("Session B", "detent.nWEC")] {
            nsm.send("/nsm/client/open", [.string(folder.file(name)), .string(name), .string(id)])
            #expect(try #require(nsm.expect("/reply")).first == .string("/nsm/client/open"))
            try detent.waitForMessage("session '\(name)' open")
            try waitUntil("a panel for \(name)") { Self.webPorts(detent).count == (name == "Session A" ? 1 : 2) }
            let port = try #require(Self.webPorts(detent).last)
            let page = try PanelSocket(port: port, headers: ["Origin": "http://127.0.0.1:\(port)"])
            let layout = try page.next("layout")
            #expect(layout["title"] as? String == name)
        }
        #expect(detent.child.signal(SIGTERM))
        #expect(detent.child.wait().exited == 0)
    }
}
