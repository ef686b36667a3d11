import Foundation
import Testing
import TestSupport

/// The systemd user unit docs/live.md gives, and Scripts/install writes: systemd's own checker
/// finds nothing wrong with it, and it starts the binary the script installs.
@Suite struct ServiceUnitTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(.enabled(if: InCI.required(FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")), "needs systemd-analyze"))
    func theDocumentedUnitPassesSystemdsChecker() throws {
        let docs = try String(contentsOf: Self.root.appendingPathComponent("docs/live.md"), encoding: .utf8)
        let start = try #require(docs.range(of: "```ini\n"))
        let end = try #require(docs.range(of: "\n```", range: start.upperBound..<docs.endIndex))
        var unit = String(docs[start.upperBound..<end.lowerBound])
        #expect(unit.contains("ExecStart=%h/.local/bin/detent live --service"))
        #expect(unit.contains("StartLimitIntervalSec=0") && unit.contains("RestartSec=") && unit.contains("Wants="))
        // The script's install path, the binary standing in for the one it installs.
        unit = unit.replacingOccurrences(of: "%h/.local/bin/detent", with: try BuiltProducts.detent)
        let folder = TemporaryFolder()
        let path = folder.write("detent.service", text: unit + "\n")
        let run = try ChildProcess.run("/usr/bin/systemd-analyze", ["verify", path])
        #expect(run.status.exited == 0)
        #expect(run.stderrText.isEmpty, "\(run.stderrText)")
        // And the script installs there.
        let script = try String(contentsOf: Self.root.appendingPathComponent("Scripts/install"), encoding: .utf8)
        #expect(script.contains("prefix=\"${PREFIX:-$HOME/.local}\"") && script.contains("\"$prefix/bin/detent\""))
    }
}
