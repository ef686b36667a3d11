import Foundation
import RenderJobs
import TestSupport
import Testing

/// Manifests as a careless user or an attacker writes them, planned in process as `detent
/// render --manifest` plans them (every line read, checked and resolved, nothing rendered):
/// each line is a job or fails alone in one line, and the batch is never lost to one line.
/// Drawn from a fixed seed, so a failure replays.
@Suite("Hostile manifests")
struct ManifestFuzzTests {
    /// Paths a line may name, from the manifest's folder: files that are there (audio, graphs
    /// good and bad), missing ones, a folder, and what must never be taken as a path.
    static let paths = ["in.wav", "missing.wav", "sub", "good.json", "empty-end.json", "colon.json", "twice.json", "", "-",
                        "good.json\u{0}x", "in.wav\u{0}", "\u{0}", "a\u{1b}[2Jb.wav", String(repeating: "p", count: 300)]
    static let fields = ["input", "output", "graph", "chain", "sidechain", "automation", "midi", "preset", "set", "values",
                         "plugin", "tail", "format", "subtype", "bpm", "block", "loudness", "frobnicate", "in\u{0}put"]

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String { GraphFileFuzzTests.quoted(text) }

    /// A JSON value for `field`: mostly of the kind it takes, sometimes of any kind.
    static func value(_ field: String, _ random: inout TestSupport.SplitMix64) -> String {
        if random.chance(0.1) { return random.pick(["null", "true", "7", "-1e999", "[]", "{}", #"["in.wav", 3]"#, "\"\""]) }
        switch field {
        case "input" where random.chance(0.3):
            return "{\"input\": \(quoted(random.pick(paths))), \"key\": \(quoted(random.pick(paths)))}"
        case "input", "output", "graph", "chain", "automation", "midi", "sidechain": return quoted(random.pick(paths))
        case "plugin": return random.pick([#""builtin""#, #"["builtin", "x=builtin"]"#, #""x=builtin""#])
        case "set": return random.pick([#""cutoff=300""#, #"["a.gain=-6", "gain=\u0000"]"#, #""=""#])
        case "values": return random.pick([#"{"cutoff": 300}"#, #"{"a.cutoff": "1k"}"#, #"{"zz": [1]}"#])
        default: return quoted(random.pick(["2", "auto", "flac", "float", "0", "99999", "x\u{0}"]))
        }
    }

    /// One line: mostly an object of random fields (an input and an output most of the time),
    /// else a truncated one, deep nesting, or bytes at random (no newline: that would be two lines).
    static func line(_ number: Int, _ random: inout TestSupport.SplitMix64) -> [UInt8] {
        var members: [String] = []
        if random.chance(0.9) { members.append("\"input\": \(quoted(random.chance(0.8) ? "in.wav" : random.pick(paths)))") }
        if random.chance(0.9) { members.append("\"output\": \(quoted("out/\(number).wav"))") }
        for _ in 0..<Int(random.next() % 4) {
            let field = random.pick(fields)
            members.append("\(quoted(field)): \(value(field, &random))")
        }
        let text = "{" + members.joined(separator: ", ") + "}"
        switch random.next() % 20 {
        case 0: return Array(text.utf8.prefix(Int(random.next() % UInt64(text.utf8.count))))
        case 1: return Array((String(repeating: "[", count: 1 + Int(random.next() % 50_000)) + "]").utf8)
        case 2: return (0..<Int(random.next() % 200)).map { _ in UInt8(truncatingIfNeeded: random.next()) }.filter { $0 != 0x0A }
        default: return Array(text.utf8)
        }
    }

    @Test("a manifest of 300 random lines is planned whole: each line a job or one line that names it")
    func randomLines() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([[Float](repeating: 0.25, count: 480)]))
        try FileManager.default.createDirectory(atPath: folder.file("sub"), withIntermediateDirectories: false)
        folder.write("good.json", text: #"{"slots":{"a":{"plugin":"builtin"}},"connections":[["input","a"],["key","a"],["a","output"]]}"#)
        folder.write("empty-end.json", text: #"{"slots":{"a":{"plugin":"builtin"}},"connections":[["input","a"],["a",""]]}"#)
        folder.write("colon.json", text: #"{"slots":{"a":{"plugin":"builtin"}},"connections":[["input",":"],["a","output"]]}"#)
        folder.write("twice.json", text: #"{"slots":{"a":{"plugin":"builtin"}},"connections":[["input","a"],["a","output"],["a","output"]]}"#)
        var random = TestSupport.SplitMix64(seed: 4646)
        var text: [UInt8] = []
        for number in 1...300 { text += Self.line(number, &random) + [0x0A] }
        let manifest = folder.write("jobs.jsonl", text)
        var options = RenderOptions()
        options.batch.manifest = manifest
        options.quiet = true
        let plan = try BatchPlan(options)
        #expect(plan.entries.count == 300, "one entry per line, none lost")
        var rendering = 0
        for entry in plan.entries {
            switch entry.action {
            case .render: rendering += 1
            case .skip: Issue.record("line \(entry.line?.number ?? 0) skipped")
            case .fail(let failure):
                let message = failure.description
                #expect(!message.isEmpty && !message.contains("\n") && !message.contains("\r") && message.count < 2_000,
                        "line \(entry.line?.number ?? 0): \(message.prefix(900))")
                #expect(failure.exitCode != 70, "an internal error on line \(entry.line?.number ?? 0): \(message.prefix(300))")
            }
        }
        #expect(rendering >= 20, "\(rendering) lines would render")
    }
}
