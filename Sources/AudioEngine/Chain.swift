import Parameters

extension Processor {
    /// One processor of a chain: its slot name, the processor, and where its rows are in the
    /// chain's table (its bypass toggle, its dry/wet mix, then its own rows in order).
    public struct Slot: Sendable {
        /// Short and unique in the chain (`eq`, `builtin`, `2`): the prefix of its ids.
        public let name: String
        public let processor: Processor
        /// The chain's row that bypasses this slot.
        public let bypass: ParameterIndex
        /// The chain's row of the slot's dry/wet mix (the row after its bypass): 100 % its
        /// output, 0 % its input, latency-aligned, the blend linear.
        public var mix: ParameterIndex { ParameterIndex(bypass.rawValue + 1) }
        /// The chain's row of the slot's first parameter.
        public let first: ParameterIndex

        /// The chain's row of the slot's own row `index`.
        public func row(_ index: ParameterIndex) -> ParameterIndex { ParameterIndex(first.rawValue + index.rawValue) }

        /// The slot's rows in the chain's table.
        public var rows: Range<Int> { first.rawValue..<first.rawValue + processor.table.count }
    }

    /// The prefix of a chain's identifier: `chain:NAME=IDENTIFIER NAME=IDENTIFIER…`, a text
    /// that names every slot and that presets store, so a preset of one chain is refused by
    /// another.
    public static let chainPrefix = "chain:"

    /// Several processors in series as one: a table of their rows joined (ids `NAME.ID`, each
    /// slot's bypass toggle `NAME.bypass` and dry/wet `NAME.mix` first), audio passed from each slot to the next in
    /// the engine's buffers, MIDI to every slot that takes it, latency summed. A chain of one
    /// part is still a chain (`NAME.ID`, with its bypass): what is left when a live chain
    /// loses all its slots but one, so its ids, presets and mappings stay.
    ///
    /// ```swift
    /// let chain = try Processor.chain([("lp", .lowpassGain), ("od", overdrive)])
    /// chain.table.textIDs   // ["lp.bypass", "lp.mix", "lp.cutoff", …, "od.bypass", "od.mix", "od.drive", …]
    /// ```
    ///
    /// - Throws: ``ChainError`` for no parts, a bad or repeated name, or a part that is
    ///   itself a chain.
    public static func chain(_ parts: [(name: String, processor: Processor)]) throws(ChainError) -> Processor {
        guard !parts.isEmpty else { throw .empty }
        var seen = Set<String>()
        for part in parts {
            guard isSlotName(part.name) else { throw .badName(part.name) }
            guard seen.insert(part.name.lowercased()).inserted else { throw .duplicateName(part.name) }
            guard part.processor.slots.isEmpty else { throw .nested(part.name) }
        }
        var specs: [ParameterSpec] = []
        var slots: [Slot] = []
        var expensive = Set<ParameterIndex>()
        var controllers = Set<Int>()
        for (name, processor) in parts {
            let table = processor.table
            let bypassID = table.find("bypass") == nil ? "\(name).bypass" : "\(name).slot-bypass"
            let bypass = ParameterIndex(specs.count)
            specs.append(ParameterSpec(
                id: bypassID, name: "Bypass", unit: .none, range: 0...1, taper: .linear,
                defaultValue: 0, smoothing: .none, kind: .toggle))
            // Smoothed in the engine like any knob: a move of the mix never clicks.
            let mixID = table.find("mix") == nil ? "\(name).mix" : "\(name).slot-mix"
            specs.append(ParameterSpec(
                id: mixID, name: "Mix", unit: .percent, range: 0...100, taper: .linear,
                defaultValue: 100, smoothing: .linear))
            let first = ParameterIndex(specs.count)
            for spec in table.specs {
                // A controller number turns one knob: the first slot that asks for it keeps it.
                let controller = spec.midiController.flatMap { controllers.insert($0).inserted ? $0 : nil }
                specs.append(spec.renamed("\(name).\(spec.id)", midiController: controller))
            }
            for index in processor.expensive { expensive.insert(ParameterIndex(first.rawValue + index.rawValue)) }
            slots.append(Slot(name: name, processor: processor, bypass: bypass, first: first))
        }
        let table: ParameterTable
        do {
            table = try ParameterTable(specs)
        } catch {
            throw .duplicateName(error.description)
        }
        var chain = Processor(
            identifier: chainPrefix + parts.map { "\($0.name)=\($0.processor.identifier)" }.joined(separator: " "),
            name: parts.map(\.processor.name).joined(separator: " → "), table: table, code: .chain(slots),
            expensive: expensive, acceptsMIDI: parts.contains { $0.processor.acceptsMIDI },
            isSource: parts[0].processor.isSource,
            outputs: parts.flatMap { part in
                part.processor.outputs.map { OutputSpec(id: "\(part.name).\($0.id)", name: $0.name, unit: $0.unit, range: $0.range) }
            })
        chain.makesMIDI = parts.contains { $0.processor.makesMIDI }
        chain.isMIDIOnly = parts.allSatisfy { $0.processor.isMIDIOnly }
        chain.keepsState = parts.contains { $0.processor.keepsState }
        chain.runsWholeBlocks = parts.contains { $0.processor.runsWholeBlocks }
        chain.state = slotStates(parts)
        chain.files = slots.flatMap { slot in
            slot.processor.files.map { $0.inSlot(slot.name) }
        }
        return chain
    }

    /// Whether `name` can name a slot: a letter or digit first, then letters, digits, `_`
    /// and `-` (no `.`, which separates it from the ids; no `=` or spaces).
    public static func isSlotName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 40,
              first.properties.isAlphabetic || ("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
    }

    /// `NAME=REFERENCE` split into a slot's name and what it hosts (`--plugin lp=builtin`,
    /// `chain add drive=…`); the name is nil when there is none, or when what stands before
    /// `=` cannot name a slot (a URI with `=` in it is a reference whole).
    public static func slotNameAndReference(_ text: String) -> (name: String?, reference: String) {
        if let eq = text.firstIndex(of: "=") {
            let name = String(text[..<eq]), rest = String(text[text.index(after: eq)...])
            if isSlotName(name), !rest.isEmpty { return (name, rest) }
        }
        return (nil, text)
    }

    /// The slots a chain identifier names, as (name, identifier) pairs; nil when `identifier`
    /// is not a chain's.
    public static func chainParts(of identifier: String) -> [(name: String, identifier: String)]? {
        guard identifier.hasPrefix(chainPrefix) else { return nil }
        var parts: [(name: String, identifier: String)] = []
        for word in identifier.dropFirst(chainPrefix.count).split(separator: " ") {
            guard let eq = word.firstIndex(of: "=") else { return nil }
            parts.append((String(word[..<eq]), String(word[word.index(after: eq)...])))
        }
        return parts.isEmpty ? nil : parts
    }
}

/// Why processors cannot be joined into a chain.
public enum ChainError: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case badName(String)
    case duplicateName(String)
    case nested(String)
    /// A live edit named a slot the chain does not have (the name, and the slots there are).
    case unknownSlot(String, [String])
    /// A live edit's position outside 1 … the number of places.
    case badPosition(Int, Int)
    /// A live edit would remove the chain's only slot.
    case lastSlot(String)
    /// A live edit of a graph would make one that cannot be.
    case graph(GraphError)
    /// A live edit a graph does not take, and what to do instead.
    case graphEdit(String)

    public var description: String {
        switch self {
        case .empty: "a chain needs at least one processor"
        case .badName(let name):
            "'\(name)' cannot name a chain slot: use letters, digits, _ and - (starting with a letter or digit)"
        case .duplicateName(let name): "two chain slots are named '\(name)': give one another name (--plugin NAME=URI)"
        case .nested(let name): "slot '\(name)' is itself a chain: list its processors instead"
        case .unknownSlot(let name, let slots): "the chain has no slot '\(name)' (its slots: \(slots.joined(separator: ", ")))"
        case .badPosition(let position, let count): "position \(position) is not in the chain: 1 … \(count)"
        case .lastSlot(let name): "'\(name)' is the chain's only slot: a chain keeps at least one"
        case .graph(let error): error.description
        case .graphEdit(let reason): reason
        }
    }
}

/// A chain's kernel owners seen as one: messages and output values of every slot, prefixed
/// with its name, and the chain's latency, the sum of its slots'.
final class ChainReports: KernelReports, @unchecked Sendable {
    let names: [String]
    let owners: [AnyObject?]
    /// A graph's wiring, whose latency is its longest path's, not the sum.
    let routing: GraphRouting?

    init(names: [String], owners: [AnyObject?], routing: GraphRouting? = nil) {
        self.names = names
        self.owners = owners
        self.routing = routing
    }

    private var reports: [(String, any KernelReports)] {
        zip(names, owners).compactMap { name, owner in (owner as? any KernelReports).map { (name, $0) } }
    }

    func takeMessages() -> [String] {
        reports.flatMap { name, reports in reports.takeMessages().map { "\(name): \($0)" } }
    }

    var outputValues: [OutputValue] {
        reports.flatMap { name, reports in reports.outputValues.map { OutputValue(id: "\(name).\($0.id)", value: $0.value) } }
    }

    func takeOwnChanges() -> [OutputValue] {
        reports.flatMap { name, reports in reports.takeOwnChanges().map { OutputValue(id: "\(name).\($0.id)", value: $0.value) } }
    }

    var latency: Int {
        guard let routing else { return reports.reduce(0) { $0 + $1.1.latency } }
        return routing.latency(slotLatencies: owners.map { ($0 as? any KernelReports)?.latency ?? 0 })
    }

    var faults: [(slot: String, reason: String)] {
        reports.flatMap { name, reports in reports.faults.map { (name, $0.reason) } }
    }

    /// Each isolated slot's sandbox, by slot name.
    var sandboxes: [String: String] {
        Dictionary(reports.compactMap { name, reports in reports.sandboxName.map { (name, $0) } }, uniquingKeysWith: { a, _ in a })
    }

    /// Every slot's MIDI output, in frame order (a slot before a later one at the same frame).
    func takeMIDIOutput() -> MIDIOutput {
        var taken = MIDIOutput()
        for (_, reports) in reports {
            let part = reports.takeMIDIOutput()
            taken.messages += part.messages
            taken.dropped += part.dropped
        }
        // A stable sort: `sort` is not, so the slot order is made part of the key.
        taken.messages = taken.messages.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }
            .map(\.element)
        return taken
    }
}
