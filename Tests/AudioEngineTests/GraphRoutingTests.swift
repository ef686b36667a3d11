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

/// A graph's slot buffers: handed on once their readers have run, taken on in place by a
/// source's last reader, the output's own slot writing the caller's output, so a graph holds
/// its widest cut, not a buffer per slot, and a chain none.
@Suite("Graph buffers")
struct GraphBufferTests {
    func routing(_ wires: [(String, String)], slots: [String]) throws -> GraphRouting {
        try Processor.routing(slots: slots, connections: wires, sideInputs: slots.map { _ in 0 }).routing
    }

    @Test("a line of eight slots runs in place in the caller's output, as a chain does: no buffer")
    func line() throws {
        let names = (1...8).map { "s\($0)" }
        let wires = [("input", "s1")] + (1..<8).map { ("s\($0)", "s\($0 + 1)") } + [("s8", "output")]
        let (assignment, count) = GraphLayout.buffers(try routing(wires, slots: names))
        #expect(count == 0)
        #expect(assignment == [Int](repeating: -1, count: 8))
        #expect(GraphLayout.buffers(.line(8)) == (assignment, count))
    }

    @Test("a diamond holds the two signals alive at its widest; branches the output reads stay")
    func diamond() throws {
        let wires = [("input", "a"), ("a", "b"), ("a", "c"), ("b", "d"), ("c", "d"), ("d", "output")]
        let (assignment, count) = GraphLayout.buffers(try routing(wires, slots: ["a", "b", "c", "d"]))
        #expect(count == 2)
        #expect(assignment[1] != assignment[0], "b reads a, which c reads after it")
        #expect(assignment[2] == assignment[0], "c, a's last reader, runs in place in a's buffer")
        #expect(assignment[3] == -1, "d, the output's one source, writes the caller's output")
        // Four parallel branches summed at the output: each alive to the end.
        let wide = (1...4).flatMap { [("input", "p\($0)"), ("p\($0)", "output")] }
        #expect(GraphLayout.buffers(try routing(wide, slots: (1...4).map { "p\($0)" })).count == 4)
    }

    @Test("a connection delayed to line up is no place to run in place")
    func delayed() throws {
        // c's main input comes from a, its side chain from b, 64 frames late: a's connection
        // into c is delayed by 64, so c cannot run in a's buffer.
        let wires = [("input", "a"), ("input", "b"), ("a", "c"), ("b", "c:sidechain"), ("c", "output")]
        let r = try Processor.routing(slots: ["a", "b", "c"], connections: wires, sideInputs: [0, 0, 1]).routing
        #expect(GraphLayout.buffers(r, latencies: [0, 0, 0]).assignment[2] == GraphLayout.buffers(r).assignment[0],
                "in time, c runs in a's buffer")
        let late = GraphLayout.buffers(r, latencies: [0, 64, 0]).assignment
        #expect(late[2] == -1 && late[0] >= 0 && late[0] != late[1], "late, c writes the output itself, from a's kept apart")
        let chained = try routing([("input", "a"), ("a", "b"), ("b", "output")], slots: ["a", "b"])
        #expect(GraphLayout.buffers(chained, latencies: [64, 32]).assignment == [-1, -1], "a line has no delays")
    }
}
