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
    /// default state and before its files. A processor that keeps no state, and a chain, are
    /// returned unchanged.
    public func settingState(_ state: SavedState?) -> Processor {
        guard fileKernel != nil else { return self }
        var copy = self
        copy.state = state
        copy.rebindKernel()
        return copy
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
