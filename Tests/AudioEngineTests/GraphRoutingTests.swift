@testable import AudioEngine
import TestSupport
import Testing

/// How a graph's connections are read: the ends of a connection, and the connections that
/// cannot be, each refused with a ``GraphError`` rather than misread or crashing.
@Suite("Graph routing")
struct GraphRoutingTests {
    func routing(_ wires: [(String, String)], slots: [String] = ["a", "b"], sideInputs: [Int]? = nil) throws(GraphError) -> GraphRouting {
        try Processor.routing(slots: slots, connections: wires, sideInputs: sideInputs ?? slots.map { _ in 0 }).routing
    }

    @Test("an end is NAME or NAME:sidechain, in any case")
    func ends() throws {
        let plain = try GraphRouting.End("comp")
        #expect(plain.node == "comp" && !plain.sideChain && plain.spelled("Comp") == "Comp")
        let side = try GraphRouting.End("comp:SideChain")
        #expect(side.node == "comp" && side.sideChain && side.spelled("comp") == "comp:sidechain")
    }

    @Test("an empty end, an empty name or port, or a second colon is refused, saying which", arguments: [
        ("", "is empty"), (":", "names no slot before ':'"), ("::", "has more than one ':'"), ("a:", "names no port after ':'"),
        (":sidechain", "names no slot before ':'"), ("a::sidechain", "has more than one ':'"), ("a:sidechain:", "has more than one ':'"),
    ])
    func malformedEnds(end: String, problem: String) {
        #expect(throws: GraphError.malformedEnd(end, problem)) { try GraphRouting.End(end) }
        // As a destination and as a source (`["a", ""]` crashed every front end).
        #expect(throws: GraphError.malformedEnd(end, problem)) { try routing([("input", "a"), ("a", end), ("a", "output")]) }
        #expect(throws: GraphError.malformedEnd(end, problem)) { try routing([("input", "a"), (end, "a"), ("a", "output")]) }
    }

    @Test("a port other than :sidechain is refused; as a source, any port is")
    func ports() {
        #expect(throws: GraphError.unknownPort("a:main")) { try routing([("input", "a:main"), ("a", "output")], slots: ["a"]) }
        #expect(throws: GraphError.unknownSource("a:main")) { try routing([("a:main", "output"), ("input", "a")], slots: ["a"]) }
        #expect(throws: GraphError.unknownSource("a:sidechain")) { try routing([("a:sidechain", "output"), ("input", "a")], slots: ["a"]) }
    }

    @Test("a connection given twice is refused, whatever its case, instead of being summed twice")
    func duplicates() throws {
        #expect(throws: GraphError.duplicateConnection("input", "a")) {
            try routing([("input", "a"), ("a", "output"), ("input", "a")], slots: ["a"])
        }
        #expect(throws: GraphError.duplicateConnection("A", "OUTPUT")) {
            try routing([("input", "a"), ("a", "output"), ("A", "OUTPUT")], slots: ["a"])
        }
        #expect(throws: GraphError.duplicateConnection("key", "a:sidechain")) {
            try routing([("input", "a"), ("key", "a:sidechain"), ("a", "output"), ("key", "a:sidechain")], slots: ["a"], sideInputs: [2])
        }
        // The same source into a slot's main and side-chain inputs is two connections.
        let both = try routing([("input", "a"), ("input", "a:sidechain"), ("a", "output")], slots: ["a"], sideInputs: [2])
        #expect(both.main == [[.input(0)]] && both.side == [[.input(0)]] && both.output == [.slot(0)])
    }

    @Test("a message shows at most 60 characters of a name read from outside, so it stays one short line")
    func longNames() {
        let long = String(repeating: "x", count: 100_000)
        let message = GraphError.unknownDestination(long).description
        #expect(message == "a connection goes to '\(String(repeating: "x", count: 59))…', which is no slot (nor output)")
    }
}

/// A graph's slot buffers: handed on once their readers have run, so a graph holds its widest
/// cut, not a buffer per slot.
@Suite("Graph buffers")
struct GraphBufferTests {
    func routing(_ wires: [(String, String)], slots: [String]) throws -> GraphRouting {
        try Processor.routing(slots: slots, connections: wires, sideInputs: slots.map { _ in 0 }).routing
    }

    @Test("a line of eight slots takes two buffers in turn")
    func line() throws {
        let names = (1...8).map { "s\($0)" }
        let wires = [("input", "s1")] + (1..<8).map { ("s\($0)", "s\($0 + 1)") } + [("s8", "output")]
        let (assignment, count) = GraphLayout.buffers(try routing(wires, slots: names))
        #expect(count == 2)
        #expect(assignment == [0, 1, 0, 1, 0, 1, 0, 1])
    }

    @Test("a diamond holds the three signals alive at its widest; branches the output reads stay")
    func diamond() throws {
        let wires = [("input", "a"), ("a", "b"), ("a", "c"), ("b", "d"), ("c", "d"), ("d", "output")]
        let (assignment, count) = GraphLayout.buffers(try routing(wires, slots: ["a", "b", "c", "d"]))
        #expect(count == 3)
        #expect(Set(assignment[0...2]).count == 3, "a is read by c, so b and c each need their own")
        #expect(assignment[3] == assignment[0], "d takes a's buffer once b and c have read it")
        // Four parallel branches summed at the output: each alive to the end.
        let wide = (1...4).flatMap { [("input", "p\($0)"), ("p\($0)", "output")] }
        #expect(GraphLayout.buffers(try routing(wide, slots: (1...4).map { "p\($0)" })).count == 4)
    }
}
