import Parameters

extension Processor {
    /// What makes a processor's kernel from its format, files and state: how a processor runs
    /// somewhere else than in this process (an isolated slot) is swapped in.
    public typealias KernelFactory = @Sendable (_ format: KernelFormat, _ files: [FileParameter], _ state: SavedState?) throws -> PreparedKernel

    /// This processor with the kernel of each of its external processors (a chain's slots, or
    /// itself) made by `factory(processor, name)` instead, where that gives one — `name`
    /// being the slot's (nil for a processor alone); the
    /// built-in, and processors `factory` declines, are unchanged. The table, ids, files and
    /// state are the same, and so is the identifier: presets and sessions do not see the
    /// difference.
    public func makingKernels(_ factory: (Processor, String?) -> KernelFactory?) -> Processor {
        makingKernels(factory, slot: nil)
    }

    private func makingKernels(_ factory: (Processor, String?) -> KernelFactory?,
                               slot: String?) -> Processor {
        switch code {
        case .lowpassGain:
            return self
        case .chain(let slots):
            var copy = self
            let made = slots.map { slot in
                Slot(name: slot.name, processor: slot.processor.makingKernels(factory, slot: slot.name), bypass: slot.bypass, first: slot.first)
            }
            copy.code = .chain(made)
            // Each slot's words as its processor now has them (asked elsewhere, or none).
            var words = table.specs.map { $0.ownTexts?.texts }
            for slot in made {
                for (j, spec) in slot.processor.table.specs.enumerated() { words[slot.first.rawValue + j] = spec.ownTexts?.texts }
            }
            copy.table = table.replacingOwnTexts(words)
            return copy
        case .external:
            guard let make = factory(self, slot) else { return self }
            var copy = self
            // Its plug-in runs elsewhere: its words are asked there too, never here (where
            // asking would load it), or not at all (``ParameterTexts/elsewhere(row:reference:identifier:)``).
            let reference = foundAt ?? identifier, identifier = identifier
            copy.table = table.replacingOwnTexts(table.specs.indices.map { row in
                table.specs[row].ownTexts?.texts.elsewhere(row: row, reference: reference, identifier: identifier)
            })
            copy.fileKernel = make
            let files = files, state = state
            copy.code = .external { format in try make(format, files, state) }
            return copy
        }
    }

    /// The kernel of a processor on its own (not a chain, not the built-in) for `format`, as
    /// an engine's `prepare` makes it: for a process that runs one slot of another's engine.
    public func makeKernel(_ format: KernelFormat) throws -> PreparedKernel? {
        guard case .external(let make) = code else { return nil }
        return try make(format)
    }

    /// True for a processor whose kernel is external code (a plug-in), not the built-in or a chain.
    public var isExternal: Bool {
        if case .external = code { return true }
        return false
    }
}
