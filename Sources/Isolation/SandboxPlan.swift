/// Which isolated slots share a process, as Bitwig's sandbox modes: each alone (`--isolate`),
/// all together (`--isolate=together`: one process serves them all), or named groups (`--isolate=drive+eq,verb`: `drive` and `eq` share one, `verb`
/// has one, every other slot one of its own). A fault in a sandbox takes all of its slots down,
/// and they are started again together.
package enum SandboxPlan: Sendable, Equatable {
    case alone
    /// Each alone, as ``alone``, but a slot made again while its process still runs (its
    /// engine not yet let go) is served by that process: the plug-in made anew, no process
    /// started. Python's chains start afresh at every whole signal, and this keeps that cheap.
    case kept
    case together
    /// Slot names, lowercased, group by group.
    case groups([[String]])

    /// The plan `text` says: `together`, or groups of slot names (`+` within a group, `,`
    /// between groups).
    ///
    /// - Throws: ``SlotError`` naming what is wrong: an empty name, or a slot in two groups.
    package init(parsing text: String) throws(SlotError) {
        let trimmed = Self.trim(Substring(text))
        if trimmed == "together" { self = .together; return }
        if trimmed == "each" || trimmed.isEmpty { self = .alone; return }
        var seen = Set<String>()
        var groups: [[String]] = []
        for group in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            var names: [String] = []
            for name in group.split(separator: "+", omittingEmptySubsequences: false) {
                let slot = Self.trim(name).lowercased()
                guard !slot.isEmpty else { throw SlotError("--isolate: an empty slot name in '\(text)' (groups: SLOT+SLOT,SLOT)") }
                guard seen.insert(slot).inserted else { throw SlotError("--isolate: slot '\(slot)' is in two groups") }
                names.append(slot)
            }
            groups.append(names)
        }
        self = .groups(groups)
    }

    private static func trim(_ text: Substring) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// The plan as `--isolate=` takes it, and as a session keeps it.
    package var text: String {
        switch self {
        case .alone, .kept: "each"
        case .together: "together"
        case .groups(let groups): groups.map { $0.joined(separator: "+") }.joined(separator: ",")
        }
    }

    /// The sandbox slot `name` runs in: nil for a process of its own.
    func sandbox(of name: String?) -> String? {
        switch self {
        case .alone: return nil
        case .kept: return "kept " + (name?.lowercased() ?? "")
        case .together: return "together"
        case .groups(let groups):
            guard let name = name?.lowercased(), let group = groups.first(where: { $0.contains(name) }) else { return nil }
            return group.joined(separator: "+")
        }
    }

    /// The slots the plan names that `slots` (a rig's slot names) lacks.
    package func unknownSlots(among slots: [String]) -> [String] {
        guard case .groups(let groups) = self else { return [] }
        let known = Set(slots.map { $0.lowercased() })
        return groups.joined().filter { !known.contains($0) }
    }
}
