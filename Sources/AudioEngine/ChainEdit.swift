import Parameters

/// One change to a running chain: what `chain add`, `chain remove` and `chain move` ask for.
public enum ChainEdit: Sendable {
    /// `processor` into the chain as slot `name` (nil: a name made from the processor), at
    /// `position` (1 is first; nil: last).
    case add(name: String?, processor: Processor, position: Int?)
    /// The slot of that name out of the chain.
    case remove(String)
    /// The slot of that name to `position` (1 is first).
    case move(String, to: Int)
    /// In a graph: `processor` as slot `name` on the connection `from>to`, which then runs
    /// through it (the slot fades in from passing its input on, as a chain's does); where
    /// there is no such connection, as a new branch from `from` to `to`, fading in from silence.
    case insert(name: String?, processor: Processor, from: String, to: String)
    /// In a graph: a connection from `from` (a slot, `input` or a named input, new or not) to
    /// `to` (a slot, `SLOT:sidechain` or `output`), fading in.
    case connect(from: String, to: String)
    /// In a graph: the connection `from>to` out, fading.
    case disconnect(from: String, to: String)
    /// The slot of that name called `to` from now on: its ids change with it (`drive.gain`
    /// becomes `crunch.gain`), and its kernel, values and connections carry on untouched.
    case rename(String, to: String)
}

/// A chain after an edit: the processor, where each of its slots comes from, and which row
/// of the processor before each row continues as.
public struct EditedChain: Sendable {
    public let processor: Processor
    public let origins: [SlotOrigin]
    /// Old row → new row, for the rows that carry on (a removed slot's have none).
    public let rows: [ParameterIndex: ParameterIndex]
    /// A graph's connections (`FROM>TO`, as its identifier names them) that are new but carry
    /// on a signal already heard, so start at full level: the two halves of a connection a
    /// slot was put on, the bridges over a slot taken out. Other new connections fade in.
    public var arriving: Set<String> = []
    /// A graph's connections that go, but whose signal carries on through those arriving:
    /// they stay at full level while the edit's slots fade. Others that go fade out.
    public var staying: Set<String> = []
    /// Old slots that go without fading themselves: a graph's branch taken out, whose
    /// connections fade instead.
    public var unfaded: Set<Int> = []

    public init(processor: Processor, origins: [SlotOrigin], rows: [ParameterIndex: ParameterIndex]) {
        self.processor = processor
        self.origins = origins
        self.rows = rows
    }

    /// Values by old row, carried to the rows they continue as.
    public func carry(_ values: [ParameterIndex: Double]) -> [ParameterIndex: Double] {
        var carried: [ParameterIndex: Double] = [:]
        for (old, value) in values { if let new = rows[old] { carried[new] = value } }
        return carried
    }
}

extension Processor {
    /// The slot name a processor gets in a chain when none is given: `builtin`, or a plug-in
    /// URI's last part in lower case (`…/mda/Overdrive` → `overdrive`, `…/fil4#mono` →
    /// `fil4-mono`, `urn:zamaudio:ZamComp` → `zamcomp`), or its position when that gives
    /// nothing usable.
    public func defaultSlotName(position: Int) -> String {
        if self == .lowpassGain { return "builtin" }
        let tail = slotNameBase ?? identifier.split(whereSeparator: { $0 == "/" || $0 == ":" }).last.map(String.init) ?? ""
        var name = ""
        for scalar in tail.lowercased().unicodeScalars {
            let allowed = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
            name.unicodeScalars.append(allowed ? scalar : "-")
        }
        while name.hasSuffix("-") { name.removeLast() }
        return Processor.isSlotName(name) ? name : String(position)
    }

    /// `name`, or when it is taken in `names` (compared without case), `name-2`, `name-3`…
    public static func uniqueSlotName(_ name: String, among names: [String]) -> String {
        let taken = Set(names.map { $0.lowercased() })
        var candidate = name, n = 2
        while taken.contains(candidate.lowercased()) {
            candidate = "\(name)-\(n)"
            n += 1
        }
        return candidate
    }

    /// This processor's slots as (name, processor) pairs: a chain's, or this processor alone
    /// under its default slot name.
    public var chainParts: [(name: String, processor: Processor)] {
        slots.isEmpty ? [(defaultSlotName(position: 1), self)] : slots.map { ($0.name, $0.processor) }
    }

    /// The chain `edit` makes of this processor (a single processor becomes the first slot
    /// of a chain, its ids gaining its slot's prefix). Slots whose order among themselves is
    /// unchanged carry on in place; a moved slot fades out and in.
    /// - Throws: ``ChainError`` for an unknown slot, a bad position, a taken or bad name, or
    ///   the removal of the last slot.
    public func applying(_ edit: ChainEdit) throws(ChainError) -> EditedChain {
        if let routing { return try applying(edit, toGraph: routing) }
        let before = chainParts
        // Each part with its old slot index (nil for a new one).
        var parts: [(name: String, processor: Processor, from: Int?)] = before.enumerated().map { ($1.name, $1.processor, $0) }
        var moved: Int?
        func slot(_ name: String) throws(ChainError) -> Int { try Self.slotIndex(name, among: parts.map(\.name)) }
        func place(_ position: Int, count: Int) throws(ChainError) -> Int {
            guard (1...count).contains(position) else { throw .badPosition(position, count) }
            return position - 1
        }
        switch edit {
        case .add(let name, let processor, let position):
            guard processor.slots.isEmpty else { throw .nested(name ?? processor.name) }
            let slotName = name ?? Self.uniqueSlotName(processor.defaultSlotName(position: parts.count + 1), among: parts.map(\.name))
            let at = try position.map { p throws(ChainError) in try place(p, count: parts.count + 1) } ?? parts.count
            parts.insert((slotName, processor, nil), at: at)
        case .remove(let name):
            let i = try slot(name)
            guard parts.count > 1 else { throw .lastSlot(parts[i].name) }
            parts.remove(at: i)
        case .insert, .connect, .disconnect:
            // A chain is the graph of its line: wired, it becomes that graph, edited.
            return try applying(edit, toGraph: lineRouting())
        case .rename(let name, let new):
            let i = try slot(name)
            parts[i].name = try Self.newSlotName(new, for: parts[i].name, among: parts.map(\.name))
        case .move(let name, let position):
            let i = try slot(name)
            let to = try place(position, count: parts.count)
            let part = parts.remove(at: i)
            parts.insert(part, at: to)
            if to != i { moved = part.from }
        }
        let processor = try Processor.chain(parts.map { ($0.name, $0.processor) })
        let origins: [SlotOrigin] = parts.map { part in
            guard let from = part.from else { return .added }
            return from == moved ? .moved(from) : .kept(from)
        }
        return EditedChain(processor: processor, origins: origins, rows: carriedRows(into: processor, from: parts.map(\.from)))
    }

    /// The wiring of this chain's line (`input` → each slot in turn → `output`), as the graph
    /// it is: the routing a connection made, taken away or given a slot edits.
    func lineRouting() throws(ChainError) -> GraphRouting {
        let names = chainParts.map(\.name)
        let line = zip(["input"] + names, names + ["output"]).map { (from: $0, to: $1) }
        do {
            return try Processor.routing(slots: names, connections: line, sideInputs: chainParts.map(\.processor.sideInputs)).routing
        } catch {
            throw .graph(error)
        }
    }

    /// `next`, a whole other rig (a preset of another chain or graph loaded live), as an edit
    /// of this one: each slot of `next` whose name and processor a slot here has runs that
    /// slot's kernel, state and all — in place when those slots keep their order, else around
    /// a dip of the output, as a move does; the others fade in, and this rig's other slots
    /// fade out. From a chain to a graph (or back, or to or from a processor alone) every slot
    /// is new.
    public func replaced(by next: Processor) -> EditedChain {
        let old = chainParts, new = next.chainParts
        let sameKind = (routing == nil) == (next.routing == nil) && !slots.isEmpty && !next.slots.isEmpty
        var from: [Int?] = new.map { part in
            guard sameKind else { return nil }
            return old.firstIndex { $0.name.lowercased() == part.name.lowercased() && $0.processor.identifier == part.processor.identifier }
        }
        // Two new slots cannot share one old kernel.
        var taken = Set<Int>()
        for i in from.indices { if let f = from[i], !taken.insert(f).inserted { from[i] = nil } }
        let kept = from.compactMap { $0 }
        let inOrder = routing != nil || kept == kept.sorted()
        let origins: [SlotOrigin] = from.map { f in f.map { inOrder ? .kept($0) : .moved($0) } ?? .added }
        return EditedChain(processor: next, origins: origins, rows: carriedRows(into: next, from: from))
    }

    /// `new` as the name of the slot now called `old` among `names`: a slot's name, and not
    /// another slot's (the same slot may change only the case of its name).
    /// - Throws: ``ChainError/badName(_:)`` or ``ChainError/duplicateName(_:)``.
    static func newSlotName(_ new: String, for old: String, among names: [String]) throws(ChainError) -> String {
        guard isSlotName(new) else { throw .badName(new) }
        guard !names.contains(where: { $0.lowercased() == new.lowercased() && $0.lowercased() != old.lowercased() }) else {
            throw .duplicateName(new)
        }
        return new
    }

    /// The index of the slot `name` (any case) among `names`, a chain's or a graph's.
    /// - Throws: ``ChainError/unknownSlot(_:_:)`` naming the slots there are.
    static func slotIndex(_ name: String, among names: [String]) throws(ChainError) -> Int {
        guard let i = names.firstIndex(where: { $0.lowercased() == name.lowercased() }) else { throw .unknownSlot(name, names) }
        return i
    }

    /// Old row → new row when slot `s` of `processor` is this one's slot `from[s]` (nil: new).
    func carriedRows(into processor: Processor, from: [Int?]) -> [ParameterIndex: ParameterIndex] {
        var rows: [ParameterIndex: ParameterIndex] = [:]
        let oldSlots = slots
        for (s, from) in from.enumerated() {
            guard let from else { continue }
            let new = processor.slots[s]
            if oldSlots.isEmpty {
                for id in table.indices { rows[id] = new.row(id) }
            } else {
                rows[oldSlots[from].bypass] = new.bypass
                rows[oldSlots[from].mix] = new.mix
                for r in 0..<new.processor.table.count { rows[oldSlots[from].row(ParameterIndex(r))] = new.row(ParameterIndex(r)) }
            }
        }
        return rows
    }
}
