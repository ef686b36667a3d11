import Foundation
import Testing
import TestSupport

/// A preset's sandbox plan (`"isolate"`), read before anything starts: one that cannot be read
/// is one line and status 65.
@Suite("a preset's isolate")
struct PresetIsolationTests {
    @Test("a plan that names a slot twice, or is no text, is refused in one line", arguments: [
        (#""a+a""#, "its 'isolate' slot 'a' is in two groups"), ("7", #""isolate" must be a string, found a number"#),
    ])
    func refusals(plan: String, message: String) throws {
        let folder = TemporaryFolder()
        let preset = folder.write("bad.json", text: #"{"formatVersion":1,"name":"Bad","values":{"cutoff":800},"isolate":\#(plan)}"#)
        let outcome = try Detent.run(["live", "--headless", "--preset", preset], in: folder.path, extra: ["JACK_DEFAULT_SERVER": "none"])
        #expect(outcome.status == 65)
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("detent: ") && lines[0].contains(message), "\(outcome.stderr)")
    }
}
