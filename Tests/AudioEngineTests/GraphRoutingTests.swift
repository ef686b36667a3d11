import AudioEngine
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
