import Parameters

extension Processor {
    /// The graph `edit` makes of this one (wired as `routing`). Slots keep their kernels
    /// wherever the new order puts them; what fades is the signal that changes:
    ///
    /// - a slot put on a connection fades in from passing its input on, as a chain's does,
    ///   while the connection's two halves carry the signal at full level;
    /// - a slot added as a new branch plays at once, its connections fading in from silence
    ///   (its input too: a delay's first echo starts as gently as the branch);
    /// - a slot taken out of a line fades to passing its input on, then its sources are wired
    ///   straight to where it went (its side-chain sources go with it); a parallel branch taken
    ///   out (its sources reach where it went another way) plays on while its way out fades;
    /// - a connection made fades in, one taken away fades out.
    ///
    /// - Throws: ``ChainError`` for an unknown slot or connection, a taken or bad name, the
    ///   last slot, a move (a graph's order is its connections'), or a graph that cannot be
    ///   (``GraphError``: a cycle, a slot with no path to the output…).
    func applying(_ edit: ChainEdit, toGraph routing: GraphRouting) throws(ChainError) -> EditedChain {
        var draft = GraphDraft(parts: chainParts.enumerated().map { ($1.name, $1.processor, $0) },
                               wires: routing.words(slotNames: chainParts.map(\.name)).map { Self.wire($0) }, routing: routing)
        switch edit {
        case .add:
            throw .graphEdit("a graph's slot goes on a connection: chain add [NAME=]PLUGIN at FROM>TO")
        case .move:
            throw .graphEdit("a graph's slots are placed by their connections: chain connect FROM TO, chain disconnect FROM TO")
        case .insert(let name, let processor, let from, let to):
            try draft.insert(processor, named: name, from: from, to: to)
        case .remove(let name):
            try draft.remove(name)
        case .connect(let from, let to):
            let wire = Wire(from: try draft.spelled(from), to: try draft.spelled(to))
            guard !draft.wires.contains(wire) else { throw .graphEdit("\(wire.word) is connected already") }
            draft.wires.append(wire)
        case .disconnect(let from, let to):
            let wire = Wire(from: try draft.spelled(from), to: try draft.spelled(to))
            guard let i = draft.wires.firstIndex(of: wire) else {
                throw .graphEdit("there is no connection \(wire.word) (the graph's: \(draft.wires.map(\.word).joined(separator: " ")))")
            }
            draft.wires.remove(at: i)
        case .rename(let name, let new):
            try draft.rename(name, to: new)
        }
        return try draft.edited(from: self)
    }

    /// A graph being edited: its slots (each with where it comes from), its connections, and
    /// what the edit's fades need to know — the connections that arrive carrying a signal
    /// already heard and those that go while it carries on, the slot added as a branch, the
    /// slot that goes without fading itself.
    private struct GraphDraft {
        var parts: [(name: String, processor: Processor, from: Int?)]
        var wires: [Wire]
        let routing: GraphRouting
        var arriving: [Wire] = [], staying: [Wire] = []
        var branch: String?
        var quiet: Int?

        init(parts: [(name: String, processor: Processor, from: Int?)], wires: [Wire], routing: GraphRouting) {
            self.parts = parts
            self.wires = wires
            self.routing = routing
        }

        var names: [String] { parts.map(\.name) }

        /// A typed end as the graph spells it: a slot's name, `input`, `output`, a named
        /// input (a new one as typed), `SLOT:sidechain`.
        func spelled(_ text: String) throws(ChainError) -> String {
            let end: GraphRouting.End
            do { end = try GraphRouting.End(text) } catch { throw .graph(error) }
            let known = names + routing.inputs + [GraphRouting.outputName]
            return end.spelled(known.first { $0.lowercased() == end.node.lowercased() } ?? end.node)
        }

        /// `processor` as slot `name` on the connection `from>to` (its halves arrive while the
        /// connection stays), or as a new branch where there is none.
        mutating func insert(_ processor: Processor, named name: String?, from: String, to: String) throws(ChainError) {
            guard processor.slots.isEmpty else { throw .nested(name ?? processor.name) }
            let slotName = name ?? Processor.uniqueSlotName(processor.defaultSlotName(position: parts.count + 1), among: names)
            guard Processor.isSlotName(slotName) else { throw .badName(slotName) }
            guard !names.contains(where: { $0.lowercased() == slotName.lowercased() }) else { throw .duplicateName(slotName) }
            let wire = Wire(from: try spelled(from), to: try spelled(to))
            parts.append((slotName, processor, nil))
            let halves = [Wire(from: wire.from, to: slotName), Wire(from: slotName, to: wire.to)]
            if let i = wires.firstIndex(of: wire) {
                wires.remove(at: i)
                staying.append(wire)
                arriving += halves
            } else {
                branch = slotName
            }
            wires += halves
        }

        /// The slot `name` called `new`: its connections follow it (a side chain's too), and
        /// carry on at full level (the handover matches them by the names the slots have now).
        mutating func rename(_ name: String, to new: String) throws(ChainError) {
            let i = try Processor.slotIndex(name, among: names)
            let old = parts[i].name
            let spelled = try Processor.newSlotName(new, for: old, among: names)
            let side = ":\(GraphRouting.sideChainPort)"
            func renamed(_ end: String) -> String { end == old ? spelled : end == old + side ? spelled + side : end }
            wires = wires.map { Wire(from: renamed($0.from), to: renamed($0.to)) }
            parts[i].name = spelled
        }

        /// The slot `name` out: a source that reached a destination only through it (a line
        /// through it) is bridged to it; one that still reaches it another way (a parallel
        /// branch taken out) is not — the branch just goes, faded out.
        mutating func remove(_ name: String) throws(ChainError) {
            let i = try Processor.slotIndex(name, among: names)
            guard parts.count > 1 else { throw .lastSlot(parts[i].name) }
            let gone = parts[i].name
            let side = "\(gone):\(GraphRouting.sideChainPort)"
            let inputs = wires.filter { $0.to == gone || $0.to == side }
            let sources = wires.filter { $0.to == gone }.map(\.from)
            let destinations = wires.filter { $0.from == gone }.map(\.to)
            wires.removeAll { $0.from == gone || $0.to == gone || $0.to == side }
            let bridges = destinations.flatMap { d in sources.filter { !reaches($0, d) }.map { Wire(from: $0, to: d) } }
            for bridge in bridges {
                staying.append(Wire(from: gone, to: bridge.to))
                wires.append(bridge)
                arriving.append(bridge)
            }
            if !bridges.isEmpty {
                staying += sources.map { Wire(from: $0, to: gone) }
            } else {
                // Nothing passes through it: it plays on, fed as before, while its way out fades.
                quiet = i
                staying += inputs
            }
            parts.remove(at: i)
        }

        /// Whether `from` reaches `target` through the connections there are now.
        private func reaches(_ from: String, _ target: String) -> Bool {
            var seen: Set<String> = [from], todo = [from]
            while let node = todo.popLast() {
                for wire in wires where wire.from == node {
                    if wire.to == target { return true }
                    let slot = (try? GraphRouting.End(wire.to))?.node ?? wire.to
                    if seen.insert(slot).inserted { todo.append(slot) }
                }
            }
            return false
        }

        /// The graph the draft makes, in an order where sources come first, with where each
        /// slot comes from and what fades; `old` is the graph edited.
        func edited(from old: Processor) throws(ChainError) -> EditedChain {
            let made: (order: [Int], routing: GraphRouting)
            do {
                made = try Processor.routing(slots: names, connections: wires.map { ($0.from, $0.to) },
                                             sideInputs: parts.map(\.processor.sideInputs))
            } catch {
                throw .graph(error)
            }
            let ordered = made.order.map { parts[$0] }
            let processor: Processor
            do {
                processor = try Processor.graph(ordered.map { ($0.name, $0.processor) }, routing: made.routing)
            } catch let error as ChainError {
                throw error
            } catch let error as GraphError {
                throw .graph(error)
            } catch {
                throw .graphEdit("\(error)")
            }
            let origins: [SlotOrigin] = ordered.map { part in
                if let from = part.from { return .kept(from) }
                return part.name == branch ? .joined : .added
            }
            var edited = EditedChain(processor: processor, origins: origins,
                                     rows: old.carriedRows(into: processor, from: ordered.map(\.from)))
            edited.arriving = Set(arriving.map(\.word))
            edited.staying = Set(staying.map(\.word))
            if let quiet { edited.unfaded = [quiet] }
            return edited
        }
    }

    /// One connection as a graph's identifier writes it, `FROM>TO`.
    struct Wire: Equatable {
        let from: String
        let to: String
        var word: String { "\(from)>\(to)" }
    }

    static func wire(_ word: String) -> Wire {
        let arrow = word.firstIndex(of: ">")!
        return Wire(from: String(word[..<arrow]), to: String(word[word.index(after: arrow)...]))
    }
}
