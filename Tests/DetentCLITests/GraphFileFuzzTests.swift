import Foundation
import RenderJobs
import TestSupport
import Testing
import Rig

/// Graph files as a careless user or an attacker writes them, read in process as `detent
/// params --graph` reads them: each is a graph or one line saying what is wrong with it,
/// never a crash. Drawn from a fixed seed, so a failure replays.
@Suite("Hostile graph files")
struct GraphFileFuzzTests {
    /// Ends that crashed (`""`, `:`, `::`), were misread (`a:`) or merely are odd.
    static let ends = ["input", "output", "a", "b", "c", "A", "key", "in", "", ":", "::", "a:", ":a", ":sidechain",
                       "a:sidechain", "B:SideChain", "a:main", "a::sidechain", "output:sidechain", "input:sidechain",
                       "x y", "a\u{0}", "\u{0}", "a\nb", "é", "a>b", String(repeating: "n", count: 70_000)]
    static let slotNames = ["a", "b", "c", "A", "input", "output", "", "x y", "a:b", "k\u{0}", String(repeating: "s", count: 41), "é"]
    static let values = [#"{"cutoff": 300}"#, #"{"gain": "-6dB", "resonance": true}"#, #"{"zz": 1}"#, #"{"cutoff": [1]}"#,
                         #"{"cutoff": "\u0000"}"#, "[]", "7"]

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A graph file: mostly well-formed JSON with random slots and connections (some repeated),
    /// else a truncated one, deep nesting, or bytes at random.
    static func graph(_ random: inout TestSupport.SplitMix64) -> [UInt8] {
        // Slots mostly of good, distinct names, so that the connections are what is tried.
        var names = Array(["a", "b", "c"].shuffled(using: &random).prefix(1 + Int(random.next() % 3)))
        if random.chance(0.15) { names[0] = random.pick(slotNames) }
        var slots: [String] = []
        for name in names {
            let plugin = random.chance(0.95) ? #""builtin""# : "5"
            let values = random.chance(0.2) ? ", \"values\": \(random.pick(values))" : ""
            slots.append("\(quoted(name)): {\"plugin\": \(plugin)\(values)}")
        }
        // Often a wiring that works, with a few ends at random over it; else ends at random.
        var connections: [String] = []
        if random.chance(0.4) {
            connections = ["[\"input\", \(quoted(names[0]))]"] + names.map { "[\(quoted($0)), \"output\"]" }
        }
        for _ in 0..<Int(random.next() % (connections.isEmpty ? 8 : 3)) {
            if random.chance(0.15), let earlier = connections.last { connections.append(earlier); continue }
            let pool = random.chance(0.5) ? ["input", "output", "key", "A"] + names + names.map { $0 + ":sidechain" } : ends
            connections.append(random.chance(0.05) ? random.pick(["[1, 2]", #"["a"]"#, #""a>b""#, "null"])
                               : "[\(quoted(random.pick(pool))), \(quoted(random.pick(pool)))]")
        }
        let text = "{\"slots\": {\(slots.joined(separator: ", "))}, \"connections\": [\(connections.joined(separator: ", "))]}"
        switch random.next() % 20 {
        case 0: return Array(text.utf8.prefix(Int(random.next() % UInt64(text.utf8.count))))
        case 1:
            let depth = 1 + Int(random.next() % 100_000)
            return Array(("{\"slots\": {\"a\": {\"plugin\": \"builtin\"}}, \"connections\": " + String(repeating: "[", count: depth)
                          + String(repeating: "]", count: depth) + "}").utf8)
        case 2: return (0..<Int(random.next() % 200)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        default: return Array(text.utf8)
        }
    }

    @Test("400 random graph files: each a graph, or refused with one line naming the file")
    func randomGraphs() throws {
        let folder = TemporaryFolder()
        let path = folder.file("g.json")
        var random = TestSupport.SplitMix64(seed: 46)
        var made = 0
        for n in 0..<400 {
            let bytes = Self.graph(&random)
            folder.write("g.json", bytes)
            do {
                let processor = try GraphFile.read(path).processor()
                #expect(processor.routing != nil, "case \(n)")
                made += 1
            } catch {
                let message = error.description
                #expect(message.hasPrefix(path + ": ") && message.count > path.count + 2, "case \(n): \(message)")
                #expect(!message.contains("\n") && !message.contains("\r") && message.count < 600,
                        "case \(n) (\(String(decoding: bytes.prefix(300), as: UTF8.self))): \(message.prefix(700))")
            }
        }
        // Well-formed graphs come up too, so the reading past the checks is exercised.
        #expect(made >= 5, "\(made) graphs made")
    }
}
