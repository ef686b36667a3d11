import Foundation
import Glibc
import Testing
import TestSupport

/// `--http` through `detent-web`, the program `detent` starts beside it: what happens when it
/// is missing, and when it dies while the session runs.
@Suite("detent-web beside detent", .serialized)
struct WebProcessTests {
    /// The process id of the `detent-web` that `parent` started.
    static func server(of parent: pid_t) throws -> pid_t {
        let entries = try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap { Int32($0) }
        let found = entries.first { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.count == 2 && arguments[0].hasSuffix("/detent-web") && arguments[1] == "\(parent)"
        }
        return try #require(found, "no detent-web started by \(parent)")
    }

    /// True once `pid` has ended (a zombie no one has reaped yet counts as ended).
    static func gone(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    @Test("When detent-web dies, one warning says so and the session goes on")
    func serverDies() throws {
        let (_, detent, port) = try LiveWebTests.start()
        #expect(try httpGet(port: port, "/detent/param/cutoff?VALUE").status == 200)
        kill(try Self.server(of: detent.child.pid), SIGKILL)
        try detent.waitForMessage("the session goes on without the web panel")
        let lines = detent.messages.filter { $0.contains("detent-web") }
        #expect(lines == ["detent: warning: the web panel's server (detent-web) was killed by signal 9; the session goes on without the web panel"])
        #expect(try detent.ask("set cutoff 900") == "cutoff=900 Hz")
        #expect(detent.finish() == 0)
    }

    @Test("detent ends detent-web when it ends, and when it is killed")
    func serverEndsWithDetent() throws {
        let (_, detent, _) = try LiveWebTests.start()
        let server = try Self.server(of: detent.child.pid)
        #expect(detent.finish() == 0)
        try waitUntil("detent-web ends with detent") { Self.gone(server) }

        let (_, killed, _) = try LiveWebTests.start()
        let orphan = try Self.server(of: killed.child.pid)
        killed.child.signal(SIGKILL)
        killed.child.wait()
        try waitUntil("detent-web ends when detent is killed") { Self.gone(orphan) }
    }

    @Test("Without detent-web beside detent or on PATH, --http is one line and status 69")
    func missing() throws {
        let folder = TemporaryFolder()
        let copy = folder.file("detent")
        try FileManager.default.copyItem(atPath: try BuiltProducts.detent, toPath: copy)
        let server = try JackServer()
        var environment = server.clientEnvironment
        environment["PATH"] = "/usr/bin:/bin"
        let run = try ChildProcess.run(copy, ["live"] + server.liveArguments + ["--headless", "--no-midi", "--http", "0"],
                                       environment: environment)
        #expect(run.status.exited == 69, "\(run.stderrText)")
        let lines = run.stderrText.split(separator: "\n").filter { $0.contains("--http") }
        #expect(lines == ["detent: --http: the web panel's server, detent-web, is neither beside detent nor on PATH"])
    }
}
