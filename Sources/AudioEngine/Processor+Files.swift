import Parameters

extension Processor {
    /// The same processor with the file parameters `paths` names (by id) set to those paths;
    /// its kernel loads them at `prepare`. A chain passes each `SLOT.ID` to its slot.
    ///
    /// ```swift
    /// let convolver = try processor.settingFiles(["ir": "/tmp/hall.wav"])
    /// ```
    ///
    /// - Throws: ``FileParameterError/unknown(_:)`` for an id that is no file parameter.
    public func settingFiles(_ paths: [String: String]) throws(FileParameterError) -> Processor {
        if paths.isEmpty { return self }
        if case .chain(let slots) = code {
            var remaining = paths
            let updated = try slots.map { slot throws(FileParameterError) in
                let prefix = slot.name + "."
                var own: [String: String] = [:]
                for (id, path) in paths where id.lowercased().hasPrefix(prefix.lowercased()) {
                    own[String(id.dropFirst(prefix.count))] = path
                    remaining[id] = nil
                }
                return Slot(name: slot.name, processor: try slot.processor.settingFiles(own), bypass: slot.bypass, first: slot.first)
            }
            if let id = remaining.keys.sorted().first { throw .unknown(id) }
            var copy = self
            copy.code = .chain(updated)
            copy.files = updated.flatMap { slot in
                slot.processor.files.map { $0.inSlot(slot.name) }
            }
            return copy
        }
        var copy = self
        for (id, path) in paths {
            guard let i = files.firstIndex(where: { $0.id.lowercased() == id.lowercased() }) else { throw .unknown(id) }
            copy.files[i].path = path
        }
        copy.rebindKernel()
        return copy
    }

    /// The same processor restoring `state` (nil: none) before its first block, after its
    /// default state and before its files. A chain takes a chain's state (``SavedState/slots(_:)``)
    /// and gives each slot its own — a slot it does not name starts from its defaults. A
    /// processor that keeps no state is returned unchanged.
    public func settingState(_ state: SavedState?) -> Processor {
        if case .chain(let slots) = code {
            var copy = self
            let updated = slots.map { slot in
                Slot(name: slot.name, processor: slot.processor.settingState(state?.slot(slot.name)), bypass: slot.bypass, first: slot.first)
            }
            copy.code = .chain(updated)
            copy.state = Self.slotStates(updated.map { ($0.name, $0.processor) })
            return copy
        }
        guard fileKernel != nil else { return self }
        if case .slots = state { return settingState(nil) }
        var copy = self
        copy.state = state
        copy.rebindKernel()
        return copy
    }

    /// The same processor with `state` restored in place of what it holds (a preset loaded
    /// while it runs): a chain's slots the state names take theirs, the others are unchanged;
    /// a processor on its own takes it whole. A slot that takes a state lets go of the files
    /// chosen for it — the state holds its own.
    ///
    /// - Returns: the processor, and the positions of the slots whose kernels must be made
    ///   again (`[0]` for a processor on its own that keeps a state; none when nothing changes).
    public func restoring(_ state: SavedState) -> (processor: Processor, remade: [Int]) {
        func restored(_ processor: Processor, _ state: SavedState) -> Processor {
            var copy = processor
            for i in copy.files.indices { copy.files[i].path = nil }
            return copy.settingState(state)
        }
        guard case .chain(let slots) = code else {
            guard keepsState, fileKernel != nil, !state.isChainState else { return (self, []) }
            return (restored(self, state), [0])
        }
        var remade: [Int] = []
        let updated = slots.enumerated().map { i, slot in
            guard slot.processor.keepsState, let own = state.slot(slot.name) else { return slot }
            remade.append(i)
            return Slot(name: slot.name, processor: restored(slot.processor, own), bypass: slot.bypass, first: slot.first)
        }
        var copy = self
        copy.code = .chain(updated)
        copy.files = updated.flatMap { slot in slot.processor.files.map { $0.inSlot(slot.name) } }
        copy.state = Self.slotStates(updated.map { ($0.name, $0.processor) })
        return (copy, remade)
    }

    /// A chain's state: its slots' own, by name; nil when none has one.
    static func slotStates(_ parts: [(name: String, processor: Processor)]) -> SavedState? {
        let states = parts.compactMap { part in part.processor.state.map { (part.name, $0) } }
        return states.isEmpty ? nil : .slots(Dictionary(states, uniquingKeysWith: { a, _ in a }))
    }

    /// The kernel made with the files and state chosen so far.
    private mutating func rebindKernel() {
        guard let make = fileKernel else { return }
        let chosen = files, state = state
        code = .external { format in try make(format, chosen, state) }
    }

    /// The file parameter with this id (any case), if there is one.
    public func file(_ id: String) -> FileParameter? {
        files.first { $0.id.lowercased() == id.lowercased() }
    }
}

/// A file parameter that cannot be set.
public enum FileParameterError: Error, Equatable, CustomStringConvertible {
    case unknown(String)

    public var description: String {
        switch self {
        case .unknown(let id): "no file parameter '\(id)'"
        }
    }
}
