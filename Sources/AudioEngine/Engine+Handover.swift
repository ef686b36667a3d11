import Parameters

/// Where a slot of a successor engine's chain comes from, in a live chain edit.
public enum SlotOrigin: Sendable, Equatable {
    /// Made for the successor: it fades in.
    case added
    /// Slot `n` of the engine taken over from, at the same place in the chain: it carries on
    /// with no fade, its kernel, values and glides untouched.
    case kept(Int)
    /// Slot `n`, elsewhere in the chain, its kernel's state (a reverb's tail, a compressor's
    /// envelope) kept: the chain's output dips out before the move and back in after it
    /// (``RenderState/dipOutput(from:to:)``).
    case moved(Int)
    /// Made for the successor, a graph's new branch: the slot plays at once, and its
    /// connections fade in instead.
    case joined

    /// The slot of the engine taken over from whose kernel this slot runs, if any.
    var source: Int? {
        switch self {
        case .added, .joined: nil
        case .kept(let n), .moved(let n): n
        }
    }

    /// True when the slot starts passing its input on and fades in.
    var fadesIn: Bool {
        if case .added = self { return true }
        return false
    }

    /// True when the slot's kernel plays on to the take-over without a fade of its own.
    var playsOn: Bool {
        switch self {
        case .kept, .moved: true
        case .added, .joined: false
        }
    }

    /// True when the slot moves: the output dips around the take-over.
    var moves: Bool {
        if case .moved = self { return true }
        return false
    }
}

/// What an engine made by ``Engine/successor(running:origins:values:)`` needs from the one it
/// follows, worked out before the audio thread sees either: raw tables only.
struct Handover: BitwiseCopyable {
    /// Per row of the old engine: the row it continues as here, or −1.
    let rowFrom: UnsafeMutablePointer<Int32>
    let oldRows: Int
    /// Per slot here: the old slot whose kernel it runs, or −1.
    let slotFrom: UnsafeMutablePointer<Int32>
    /// Per old slot: true when it carries on in place (no fade out).
    let stays: UnsafeMutablePointer<Bool>
    let oldSlots: Int
    /// Per graph connection here: the old one of the same ends and delay, whose delay line
    /// it takes over, or −1.
    let edgeFrom: UnsafeMutablePointer<Int32>
    let edges: Int
    /// Per old graph connection: true when it stays at full level while the old engine
    /// leaves (it carries on, or its signal does); the others fade out.
    let edgeStays: UnsafeMutablePointer<Bool>
    let oldEdges: Int
    /// True when a slot moves: the old engine's output fades to silence before the take-over.
    let dips: Bool

    init(from old: Engine, origins: [SlotOrigin], into engine: Engine, arriving: Set<String>, staying: Set<String>,
         unfaded: Set<Int>) {
        oldRows = old.render.parameterCount
        oldSlots = old.render.slotCount
        dips = origins.contains { $0.moves }
        rowFrom = .allocate(capacity: max(1, oldRows))
        rowFrom.initialize(repeating: -1, count: max(1, oldRows))
        slotFrom = .allocate(capacity: max(1, origins.count))
        slotFrom.initialize(repeating: -1, count: max(1, origins.count))
        stays = .allocate(capacity: max(1, oldSlots))
        stays.initialize(repeating: false, count: max(1, oldSlots))
        for s in unfaded where s < oldSlots { stays[s] = true }
        for (s, origin) in origins.enumerated() {
            guard let from = origin.source else { continue }
            slotFrom[s] = Int32(from)
            if origin.playsOn { stays[from] = true }
            let source = old.render.slots[from], target = engine.render.slots[s]
            for r in 0..<min(source.count, target.count) { rowFrom[source.base + r] = Int32(target.base + r) }
            if source.bypass >= 0 && target.bypass >= 0 {
                rowFrom[source.bypass] = Int32(target.bypass)
                rowFrom[source.mix] = Int32(target.mix)
            }
        }
        // A graph's connections, named by their ends as its identifier names them (the
        // layout holds them in that order). An old slot that carries on is called by the name
        // it has now, so a renamed slot's connections are the same connections.
        var oldNames = old.processor.slots.map(\.name)
        for (s, origin) in origins.enumerated() where s < engine.processor.slots.count {
            if let from = origin.source, from < oldNames.count { oldNames[from] = engine.processor.slots[s].name }
        }
        let oldWords = old.processor.routing?.words(slotNames: oldNames) ?? []
        let newWords = engine.processor.routing?.words(slotNames: engine.processor.slots.map(\.name)) ?? []
        oldEdges = oldWords.count
        edges = newWords.count
        edgeFrom = .allocate(capacity: max(1, edges))
        edgeFrom.initialize(repeating: -1, count: max(1, edges))
        edgeStays = .allocate(capacity: max(1, oldEdges))
        edgeStays.initialize(repeating: false, count: max(1, oldEdges))
        // A chain's line has no connections of its own to carry over or fade.
        guard old.processor.routing != nil, engine.processor.routing != nil,
              let was = old.render.graph, let now = engine.render.graph else { return }
        for (w, word) in oldWords.enumerated() where staying.contains(word) { edgeStays[w] = true }
        for (e, word) in newWords.enumerated() {
            if let w = oldWords.indices.first(where: { oldWords[$0] == word && was.edges[$0].delay == now.edges[e].delay }) {
                // The same connection, in time as before: it carries on, its delay line too.
                edgeFrom[e] = Int32(w)
                edgeStays[w] = true
            } else if !arriving.contains(word) {
                now.edges[e].presence = 0  // a new connection (or one newly delayed) fades in
            }
        }
    }

    func deallocate() {
        rowFrom.deallocate()
        slotFrom.deallocate()
        stays.deallocate()
        edgeFrom.deallocate()
        edgeStays.deallocate()
    }
}

extension Engine {
    /// An engine for `processor` — this engine's chain with slots added, removed or moved —
    /// prepared for the same format, that can take over from this one while it runs without
    /// a click or a gap: slots that stay keep their kernels (shared, not made again), values
    /// and glides; a slot added fades in, one removed fades out (10 ms, sin² and cos² gains
    /// that sum to one) over its undelayed input; around a move the whole output dips out and
    /// back in (10 ms each way). `origins[i]` says where slot `i` comes from;
    /// `values` are the starting values of the rows that are new.
    ///
    /// Not on the audio thread (it allocates and makes the new slots' kernels). Offer the
    /// successor through the running engine's ``EngineExchange``: the audio thread fades this
    /// engine's dropped slots out, then lets the successor take over.
    /// - Throws: what a new slot's kernel factory throws.
    public func successor(running processor: Processor, origins: [SlotOrigin],
                          values: [ParameterIndex: Double], arriving: Set<String> = [], staying: Set<String> = [],
                          unfaded: Set<Int> = []) throws -> Engine {
        precondition(sampleRate > 0, "only a prepared engine has a successor")
        precondition(origins.count == max(1, processor.slots.count), "one origin per slot")
        let next = Engine(processor: processor, initialValues: values, smoothingTime: smoothingTime,
                          queueCapacity: controls.capacity, controlInterval: controlInterval, kernelFrames: kernelFrames)
        next.beatsPerMinute = beatsPerMinute
        try next.prepare(sampleRate: sampleRate, maxFrames: maxFrames, channels: channels, realtime: realtime,
                         inheriting: (self, origins, arriving, staying, unfaded))
        return next
    }

    /// Fades out the slots the successor whose ``Handover`` this is does not keep in place,
    /// a block at a time; true once they are all out and it can take over (audio thread, on
    /// the running engine).
    @_noLocks
    func leave(_ handover: Handover?) -> Bool {
        guard let handover else { return true }
        render.leaving = true
        var done = true
        if handover.dips {
            render.outputTarget = 0
            if render.outputPresence != 0 { done = false }
        }
        for s in 0..<min(render.slotCount, handover.oldSlots) where !handover.stays[s] {
            render.slots[s].presenceTarget = 0
            if render.slots[s].presence != 0 { done = false }
        }
        if let graph = render.graph {
            for e in 0..<min(graph.edgeCount, handover.oldEdges) where !handover.edgeStays[e] {
                graph.edges[e].target = 0
                if graph.edges[e].presence != 0 { done = false }
            }
        }
        return done
    }

    /// Brings back every slot a withdrawn edit began to fade out (audio thread).
    @_noLocks
    func stay() {
        guard render.leaving else { return }
        render.leaving = false
        render.outputTarget = render.fadeFrames
        for s in 0..<render.slotCount { render.slots[s].presenceTarget = render.fadeFrames }
        if let graph = render.graph {
            for e in 0..<graph.edgeCount { graph.edges[e].target = graph.edges[e].full }
        }
    }

    /// Takes over from the engine whose audio-thread state and queue these are, at a block
    /// boundary once ``leave(_:)`` said so (audio thread): the frame count, the inherited
    /// slots' values, glides, filter state, bypass fades and delay lines, and the changes still
    /// queued for it (at once, on the rows they continue as; one stamped for a later frame
    /// applies now, at most a period early).
    @_noLocks
    func takeOver(render source: RenderState, queue: QueueStorage) {
        guard let handover else { return }
        for s in 0..<render.slotCount {
            let from = Int(handover.slotFrom[s])
            guard from >= 0 else { continue }
            let was = source.slots[from]
            if case .lowpassGain(let b) = render.slots[s].kernel, case .lowpassGain(let ob) = was.kernel {
                render.builtIns[b].copyState(from: source.builtIns[ob])
            }
            if was.bypass >= 0 { render.slots[s].fadePosition = was.fadePosition }
            if let delay = render.slots[s].delay, let oldDelay = was.delay, was.latency == render.slots[s].latency {
                for i in 0..<was.latency * render.channels { delay[i] = oldDelay[i] }
            }
        }
        if let graph = render.graph, let was = source.graph {
            for e in 0..<min(graph.edgeCount, handover.edges) {
                let from = Int(handover.edgeFrom[e])
                guard from >= 0, from < was.edgeCount, let history = graph.edges[e].history,
                      let old = was.edges[from].history else { continue }
                for i in 0..<graph.edges[e].delay &* render.channels { history[i] = old[i] }
            }
        }
        for p in 0..<min(source.parameterCount, handover.oldRows) {
            let q = Int(handover.rowFrom[p])
            guard q >= 0 else { continue }
            render.smoothers[q] = source.smoothers[p]
            render.controls[q] = source.controls[p]
        }
        // What was sent to the old engine and not yet taken.
        for p in 0..<source.parameterCount {
            guard let slot = queue.takeSlot(p) else { continue }
            source.appliedEpochs[p] = slot.epoch
            let q = Int(handover.rowFrom[p])
            if q >= 0 { render.apply(parameter: q, value: slot.value, rampFrames: -1) }
        }
        while let change = queue.peek() {
            queue.pop()
            let p = change.index
            guard p >= 0, p < source.parameterCount,
                  Int32(bitPattern: change.epoch &- source.appliedEpochs[p]) >= 0 else { continue }
            let q = Int(handover.rowFrom[p])
            if q >= 0 { render.apply(parameter: q, value: change.value, rampFrames: Int(change.rampFrames)) }
        }
        render.framePosition = source.framePosition
        render.refreshCoefficients()
    }
}
