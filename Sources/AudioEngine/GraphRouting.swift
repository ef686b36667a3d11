/// How the slots of a graph are wired: where each slot's main and side-chain inputs come
/// from, and what reaches the output. A chain is the graph `input → 1 → 2 → … → output`
/// (``line(_:)``, as the engine lays it out); a graph runs its slots in the order given (sources first: the
/// order ``Processor/graph(_:routing:)`` checks), sums what meets at a slot or at the
/// output, and delays each connection so that parallel paths of different latencies line up.
public struct GraphRouting: Sendable, Equatable {
    /// Where audio comes from: one of the graph's inputs (0 is the main input, `input`; the
    /// others are named inputs, `key`), or a slot's output.
    public enum Source: Sendable, Hashable {
        case input(Int)
        case slot(Int)
    }

    /// The graph's inputs by name: `input` first, then the named ones in the order they appear.
    public var inputs: [String]
    /// Per slot: the sources summed into its main inputs, and into its side-chain inputs.
    public var main: [[Source]]
    public var side: [[Source]]
    /// The sources summed into the output.
    public var output: [Source]

    /// The line of `slots` slots, `input → 1 → 2 → … → output`: a chain (or a processor alone).
    static func line(_ slots: Int) -> GraphRouting {
        GraphRouting(inputs: [mainInput], main: (0..<slots).map { $0 == 0 ? [.input(0)] : [.slot($0 - 1)] },
                     side: [[Source]](repeating: [], count: slots), output: slots > 0 ? [.slot(slots - 1)] : [.input(0)])
    }

    public static let mainInput = "input"
    public static let outputName = "output"
    public static let sideChainPort = "sidechain"

    public init(inputs: [String], main: [[Source]], side: [[Source]], output: [Source]) {
        self.inputs = inputs
        self.main = main
        self.side = side
        self.output = output
    }

    /// When each node's signal is complete, in frames behind the graph's input: a slot's
    /// inputs arrive when its latest source does (a source's arrival plus its slot's latency),
    /// and every other source is delayed to match. `latencies` are the slots' own.
    public func arrivals(latencies: [Int]) -> (slots: [Int], output: Int) {
        var at = [Int](repeating: 0, count: main.count)
        func ready(_ source: Source) -> Int {
            switch source {
            case .input: 0
            case .slot(let s): at[s] + latencies[s]
            }
        }
        for s in main.indices { at[s] = (main[s] + side[s]).map(ready).max() ?? 0 }
        return (at, output.map(ready).max() ?? 0)
    }

    /// The frames a connection from `source` into a node that its sources reach by `arrival`
    /// is delayed by, so that it lines up with the latest of them.
    public func delay(from source: Source, arrival: Int, arrivals: [Int], latencies: [Int]) -> Int {
        switch source {
        case .input: arrival
        case .slot(let s): arrival - arrivals[s] - latencies[s]
        }
    }

    /// The graph's latency: when the output is complete.
    public func latency(slotLatencies: [Int]) -> Int { arrivals(latencies: slotLatencies).output }

    /// One end of a connection as written, `FROM` or `TO`: a node (a slot, `input`, a named
    /// input or `output`) and whether the end is a slot's side-chain input (`SLOT:sidechain`).
    /// Graph files, graph identifiers and live edits read their ends here, so an end with
    /// nothing before or after its colon is refused in one place instead of misread (`a:` was
    /// taken as `a`'s main input, `:` crashed).
    public struct End: Sendable, Hashable {
        /// The node's name as written.
        public let node: String
        /// True for `NAME:sidechain`.
        public let sideChain: Bool

        /// Reads `text`: `NAME`, or `NAME:sidechain` in any case.
        ///
        /// - Throws: ``GraphError/malformedEnd(_:_:)`` for an empty end, an empty name or port,
        ///   more than one colon; ``GraphError/unknownPort(_:)`` for a port other than `sidechain`.
        public init(_ text: String) throws(GraphError) {
            let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
            guard let first = pieces.first, !text.isEmpty else { throw .malformedEnd(text, "is empty") }
            guard pieces.count <= 2 else { throw .malformedEnd(text, "has more than one ':'") }
            guard !first.isEmpty else { throw .malformedEnd(text, "names no slot before ':'") }
            if pieces.count == 2 {
                guard !pieces[1].isEmpty else { throw .malformedEnd(text, "names no port after ':'") }
                guard pieces[1].lowercased() == sideChainPort else { throw .unknownPort(text) }
            }
            node = String(first)
            sideChain = pieces.count == 2
        }

        /// The end as a graph's identifier writes it, with `node` spelled as given.
        public func spelled(_ node: String) -> String { sideChain ? "\(node):\(sideChainPort)" : node }
    }

    /// The connections as `FROM>TO` words (`input>lo`, `key>comp:sidechain`, `comp>output`),
    /// in slot order then the output's: how a graph's identifier stores them.
    func words(slotNames: [String]) -> [String] {
        func name(_ source: Source) -> String {
            switch source {
            case .input(let k): inputs[k]
            case .slot(let s): slotNames[s]
            }
        }
        var words: [String] = []
        for s in main.indices {
            words += main[s].map { "\(name($0))>\(slotNames[s])" }
            words += side[s].map { "\(name($0))>\(slotNames[s]):\(Self.sideChainPort)" }
        }
        return words + output.map { "\(name($0))>\(Self.outputName)" }
    }
}

extension Processor {
    /// The prefix of a graph's identifier: `graph:NAME=IDENTIFIER … | FROM>TO …`, which names
    /// every slot and connection, so a preset of one graph is refused by another, and the
    /// graph can be made again from a preset or a session.
    public static let graphPrefix = "graph:"

    /// Slots wired as `routing` says, as one processor: the table, ids and everything else are
    /// a chain's of the same slots (`SLOT.ID`, `SLOT.bypass`, `SLOT.mix`), so presets,
    /// automation, MIDI, OSC and the panels take a graph as they take a chain. The slots must
    /// come in an order where every slot's sources come before it.
    ///
    /// - Throws: ``ChainError`` as ``chain(_:)`` does, or ``GraphError`` for a source that
    ///   comes after the slot it feeds.
    /// The graph of `parts` wired by `connections` (`FROM`, `TO` as a graph file names them),
    /// its slots put in an order where every slot's sources come first: a graph file's, a
    /// preset's or a session's.
    ///
    /// - Throws: ``GraphError`` for wiring that cannot be (a cycle, a slot with no way out…),
    ///   ``ChainError`` as ``chain(_:)`` does.
    public static func graph(_ parts: [(name: String, processor: Processor)], connections: [(from: String, to: String)]) throws -> Processor {
        let (order, routing) = try routing(slots: parts.map(\.name), connections: connections,
                                           sideInputs: parts.map(\.processor.sideInputs))
        return try graph(order.map { parts[$0] }, routing: routing)
    }

    public static func graph(_ parts: [(name: String, processor: Processor)], routing: GraphRouting) throws -> Processor {
        precondition(routing.main.count == parts.count && routing.side.count == parts.count, "one routing entry per slot")
        for s in parts.indices {
            for case .slot(let from) in routing.main[s] + routing.side[s] where from >= s {
                throw GraphError.cycle([parts[s].name, parts[from].name])
            }
        }
        var graph = try chain(parts)
        let names = parts.map(\.name)
        graph.identifier = graphPrefix + parts.map { "\($0.name)=\($0.processor.identifier)" }.joined(separator: " ")
            + " | " + routing.words(slotNames: names).joined(separator: " ")
        graph.name = "graph of " + parts.map(\.processor.name).joined(separator: ", ")
        graph.routing = routing
        return graph
    }

    /// A graph identifier's slots (name, identifier) and connection words; nil when
    /// `identifier` is not a graph's.
    public static func graphParts(of identifier: String) -> (slots: [(name: String, identifier: String)], connections: [(from: String, to: String)])? {
        guard identifier.hasPrefix(graphPrefix) else { return nil }
        let halves = identifier.dropFirst(graphPrefix.count).split(separator: "|", maxSplits: 1)
        guard halves.count == 2 else { return nil }
        var slots: [(name: String, identifier: String)] = []
        for word in halves[0].split(separator: " ") {
            guard let eq = word.firstIndex(of: "=") else { return nil }
            slots.append((String(word[..<eq]), String(word[word.index(after: eq)...])))
        }
        var connections: [(from: String, to: String)] = []
        for word in halves[1].split(separator: " ") {
            guard let arrow = word.firstIndex(of: ">") else { return nil }
            connections.append((String(word[..<arrow]), String(word[word.index(after: arrow)...])))
        }
        return slots.isEmpty ? nil : (slots, connections)
    }

    /// The routing `connections` describe among slots `names` (`[FROM, TO]`: FROM a slot, `input`
    /// or a named input; TO a slot, `SLOT:sidechain` or `output`), with the slots put in an
    /// order where sources come first (the order given, where it allows).
    ///
    /// - Throws: ``GraphError`` for a malformed end (``GraphRouting/End``), an unknown slot or
    ///   port, a connection given twice, a cycle, a slot with no path to the output, a graph
    ///   with nothing at its output.
    public static func routing(slots names: [String], connections: [(from: String, to: String)],
                               sideInputs: [Int]) throws(GraphError) -> (order: [Int], routing: GraphRouting) {
        let index = Dictionary(names.enumerated().map { ($1.lowercased(), $0) }, uniquingKeysWith: { a, _ in a })
        var inputs = [GraphRouting.mainInput]
        var main = [[GraphRouting.Source]](repeating: [], count: names.count)
        var side = main
        var output: [GraphRouting.Source] = []
        var made = Set<Connection>()
        for (from, to) in connections {
            let source = try Self.source(from, slots: index, inputs: &inputs)
            let target = try Self.target(to, slots: index, names: names, sideInputs: sideInputs)
            // Each would be summed: a repeated line would play twice as loud.
            guard made.insert(Connection(source: source, target: target)).inserted else { throw .duplicateConnection(from, to) }
            switch target {
            case .output: output.append(source)
            case .main(let s), .side(let s):
                if source == .slot(s) { throw .cycle([names[s], names[s]]) }
                if case .main = target { main[s].append(source) } else { side[s].append(source) }
            }
        }
        guard !output.isEmpty else { throw .noOutput }
        // Sources first (Kahn's algorithm, taking the earliest ready slot each time).
        var order: [Int] = []
        var placed = Set<Int>()
        while order.count < names.count {
            guard let next = names.indices.first(where: { s in
                !placed.contains(s) && (main[s] + side[s]).allSatisfy { if case .slot(let from) = $0 { placed.contains(from) } else { true } }
            }) else {
                let left = names.indices.filter { !placed.contains($0) }.map { names[$0] }
                throw .cycle(left)
            }
            order.append(next)
            placed.insert(next)
        }
        // Every slot must reach the output.
        var reaches = Set<Int>()
        for case .slot(let s) in output { reaches.insert(s) }
        for s in order.reversed() where !reaches.contains(s) {
            let feeds = names.indices.contains { d in reaches.contains(d) && (main[d] + side[d]).contains(.slot(s)) }
            if feeds { reaches.insert(s) }
        }
        if let lost = order.first(where: { !reaches.contains($0) }) { throw .noPathToOutput(names[lost]) }
        // Renumbered in that order.
        let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        func renumber(_ sources: [GraphRouting.Source]) -> [GraphRouting.Source] {
            sources.map { if case .slot(let s) = $0 { .slot(position[s]!) } else { $0 } }
        }
        return (order, GraphRouting(inputs: inputs, main: order.map { renumber(main[$0]) }, side: order.map { renumber(side[$0]) },
                                    output: renumber(output)))
    }
}

/// A connection as ``Processor/routing(slots:connections:sideInputs:)`` reads it, whatever
/// the case its ends were written in: two alike are one connection given twice.
private struct Connection: Hashable {
    enum Target: Hashable {
        case output
        case main(Int)
        case side(Int)
    }

    let source: GraphRouting.Source
    let target: Target
}

extension Processor {
    /// Where a connection from `from` comes from: a slot (of those `index` finds by name in
    /// lower case), the main input, or a named input (a new one added to `inputs`).
    private static func source(_ from: String, slots index: [String: Int], inputs: inout [String]) throws(GraphError) -> GraphRouting.Source {
        // A source is a node: a port (`a:sidechain`, `a:x`) is none.
        let end: GraphRouting.End
        do { end = try GraphRouting.End(from) } catch { throw error == .unknownPort(from) ? .unknownSource(from) : error }
        guard !end.sideChain else { throw .unknownSource(from) }
        if let s = index[from.lowercased()] { return .slot(s) }
        guard from.lowercased() != GraphRouting.outputName else { throw .unknownSource(from) }
        if let k = inputs.firstIndex(where: { $0.lowercased() == from.lowercased() }) { return .input(k) }
        guard Processor.isSlotName(from) else { throw .unknownSource(from) }
        // Live, a named input's ports are NAME_1…: `in` and `out` are the main ports'.
        guard !["in", "out"].contains(from.lowercased()) else { throw .reservedInput(from) }
        inputs.append(from)
        return .input(inputs.count - 1)
    }

    /// Where a connection to `to` goes: the output, or a slot's main or side-chain inputs.
    private static func target(_ to: String, slots index: [String: Int], names: [String],
                               sideInputs: [Int]) throws(GraphError) -> Connection.Target {
        let end = try GraphRouting.End(to)
        if !end.sideChain && end.node.lowercased() == GraphRouting.outputName { return .output }
        guard let s = index[end.node.lowercased()] else { throw .unknownDestination(to) }
        guard !end.sideChain || sideInputs[s] > 0 else { throw .noSideChain(names[s]) }
        return end.sideChain ? .side(s) : .main(s)
    }
}

extension Processor {
    /// The slots a host may feed a side signal to (indices into ``chainParts``): those with
    /// side-chain inputs that a graph does not wire itself.
    public var keyedSlots: [Int] {
        let parts = chainParts
        return parts.indices.filter { parts[$0].processor.sideInputs > 0 && (routing?.side[$0].isEmpty ?? true) }
    }

    /// A graph's named inputs, in order (`key`); none for a chain.
    public var namedInputs: [String] { routing.map { Array($0.inputs.dropFirst()) } ?? [] }

    /// Every name a side signal may go to: the keyed slots', then the named inputs.
    public var keyNames: [String] { keyedSlots.map { chainParts[$0].name } + namedInputs }
}

/// Why a graph cannot be made.
public enum GraphError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownSource(String)
    case unknownDestination(String)
    case unknownPort(String)
    case noSideChain(String)
    case cycle([String])
    case noPathToOutput(String)
    case noOutput
    case reservedInput(String)
    /// An end of a connection that is not `NAME` or `NAME:sidechain` (the end, and what is wrong).
    case malformedEnd(String, String)
    /// The same connection twice (as written, `FROM` and `TO`).
    case duplicateConnection(String, String)

    public var description: String {
        switch self {
        case .unknownSource(let name): "a connection comes from '\(Self.shown(name))', which is no slot or input"
        case .unknownDestination(let name): "a connection goes to '\(Self.shown(name))', which is no slot (nor output)"
        case .unknownPort(let name): "a connection goes to '\(Self.shown(name))': a slot's only port is :sidechain"
        case .noSideChain(let name): "a connection goes to \(name):sidechain, but slot '\(name)' has no side-chain input"
        case .cycle(let names): "the connections make a cycle through \(names.joined(separator: ", "))"
        case .noPathToOutput(let name): "slot '\(name)' has no path to the output"
        case .noOutput: "no connection goes to the output"
        case .reservedInput(let name): "'\(name)' cannot name an input: its ports would be the main \(name)_1…; name it otherwise"
        case .malformedEnd(let end, let problem):
            "a connection's end '\(Self.shown(end))' \(problem): write SLOT, SLOT:sidechain, input, a named input or output"
        case .duplicateConnection(let from, let to): "the connection \(Self.shown(from))>\(Self.shown(to)) is given twice (each would be heard)"
        }
    }

    /// A name as read, at most 60 characters of it: a graph file or a typed edit can hold
    /// one of any length, and a message stays a line.
    private static func shown(_ name: String) -> String {
        name.count <= 60 ? name : name.prefix(59) + "…"
    }
}
