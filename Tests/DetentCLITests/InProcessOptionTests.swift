import ArgumentParser
import OfflineRender
@testable import DetentCLI
import RenderJobs
import Testing

/// What the command line decides before anything runs, checked in process: parsing, the
/// values options become, and the one line and status a usage error turns into. The
/// behaviour that needs a process (files, servers, signals) is tested by running `detent`.
@Suite("detent: options in process")
struct InProcessOptionTests {
    /// The line `main` prints for the usage error in `arguments`, and the status it exits
    /// with: parsing, then the checks `render` makes first thing when it runs.
    static func failure(_ arguments: [String]) -> (line: String, status: Int32)? {
        do {
            let command = try DetentCLI.Detent.parseAsRoot(arguments)
            if let render = command as? RenderCommand {
                try render.options.check()
            }
            return nil
        } catch {
            let (line, status) = DetentCLI.Detent.report(error)
            return (line, status.rawValue)
        }
    }

    @Test("usage errors are one line and status 64", arguments: [
        (["render", "in.wav", "--tempo", "120", "-o", "x.wav"], "'--tempo'"),
        (["render", "a.wav", "b.wav", "-o", "x.wav"], "--out-dir"),
        (["render", "in.wav", "--normalize", "0x10"], "--normalize"),
        (["render", "in.wav", "--tail", "inf"], "--tail"),
        (["render", "in.wav", "--jobs", "0"], "--jobs"),
        (["frobnicate"], "'frobnicate'"),
    ])
    func usageErrors(arguments: [String], names: String) throws {
        let failure = try #require(Self.failure(arguments))
        #expect(failure.status == 64)
        #expect(failure.line.contains(names), "\(failure.line)")
        #expect(!failure.line.contains("\n"))
    }

    @Test("typed values become the settings the render uses")
    func values() throws {
        let render = try #require(try DetentCLI.Detent.parseAsRoot(["render", "in.wav", "--normalize", "-23LUFS", "--tail", "500ms"]) as? RenderCommand)
        #expect(try render.options.normalizeTarget == -23)
        #expect(try render.options.tailSetting == .seconds(0.5))
        let auto = try #require(try DetentCLI.Detent.parseAsRoot(["render", "in.wav", "--tail", "auto"]) as? RenderCommand)
        #expect(try auto.options.tailSetting == .auto)
    }
}
