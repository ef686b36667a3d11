import Control
import AudioEngine
import JackHost
import Parameters
import Synchronization

extension LiveHost {
    /// Whether the chain may be edited, and how: what ``allowChainEdits(resolve:changed:)``
    /// and ``refuseChainEdits(_:)`` last said.
    enum ChainEditing {
        case allowed(resolve: ProcessorResolver, changed: @Sendable (Processor) -> Void)
        case refused(String)
    }

    /// Lets typed commands and OSC edit the chain: `resolve` finds a processor to add, and
    /// `changed` hears of every new chain (presets, the panel), after it runs.
    package func allowChainEdits(resolve: @escaping ProcessorResolver, changed: @escaping @Sendable (Processor) -> Void) {
        chainEditing.withLock { $0 = .allowed(resolve: resolve, changed: changed) }
    }

    /// A number that moves with every chain edit (front ends that show the table rebuild then).
    package var chainGeneration: Int { state.withLock { $0.chainGeneration } }

    /// The processor hosted, its chain generation and where its parameters are heading, read
    /// together (a front end rebuilding for a new chain).
    package var chainSnapshot: (processor: Processor, generation: Int, targets: [ParameterIndex: Double]) {
        state.withLock { st in
            st.absorbMIDI()
            return (st.processor, st.chainGeneration, st.targets)
        }
    }

    /// ``set(_:)``, only while the chain is still generation `generation`: a remote request
    /// read against an older table must not turn the row that now means another parameter.
    /// Returns false when it was dropped.
    @discardableResult
    package func set(_ values: [ParameterIndex: Double], ifGeneration generation: Int) -> Bool {
        // The check and the sending happen under the host's lock, so no edit comes between.
        state.withLock { st in st.chainGeneration == generation ? sendLocked(values, &st) : false }
    }

    /// Refuses chain edits, saying `reason` (a front end that cannot follow one is open).
    package func refuseChainEdits(_ reason: String) {
        chainEditing.withLock { $0 = .refused(reason) }
    }

    /// Adds, removes or moves a slot while the host runs (in a graph: adds or removes a slot
    /// or a connection). The new chain is prepared off the audio thread, around the kernels of
    /// the slots that stay, and takes over at a block boundary: a slot added fades in, one
    /// removed fades out, one moved does both, a connection made or taken away fades (10 ms
    /// each); the others carry on untouched, their values, glides and state intact. Values,
    /// MIDI mappings and knob positions follow their parameters to their new ids. Returns the
    /// chain now hosted.
    package func editChain(_ request: ChainRequest) throws(ChainEditError) -> Processor {
        let (resolve, changed) = try editing()
        func find(_ reference: String) throws(ChainEditError) -> Processor {
            do { return try resolve(reference) } catch { throw ChainEditError("\(error)") }
        }
        let edit: ChainEdit
        switch request {
        case .add(let reference, let name, let position):
            edit = .add(name: name, processor: try find(reference), position: position)
        case .insert(let reference, let name, let from, let to):
            edit = .insert(name: name, processor: try find(reference), from: from, to: to)
        case .remove(let name): edit = .remove(name)
        case .move(let name, let position): edit = .move(name, to: position)
        case .connect(let from, let to): edit = .connect(from: from, to: to)
        case .disconnect(let from, let to): edit = .disconnect(from: from, to: to)
        case .rename(let name, let new): edit = .rename(name, to: new)
        }
        let processor = try state.withLock { st throws(ChainEditError) -> Processor in
            st.absorbMIDI()
            if case .rename(let name, _) = request, let slot = Self.sandboxes(of: st).keys.first(where: { $0.lowercased() == name.lowercased() }) {
                // Its process was started for that name, and reports its faults by it.
                throw ChainEditError("'\(slot)' runs in a process of its own (--isolate), which keeps its name: remove it and add it again under the new one")
            }
            let edited: EditedChain
            do { edited = try st.processor.applying(edit) } catch { throw ChainEditError("\(error)") }
            try takeOver(edited, &st)
            return edited.processor
        }
        changes.publish(.chain)
        changed(processor)
        return processor
    }

    /// Swaps the whole rig for the processor `identifier` names — a chain's, a graph's or one
    /// processor's, as a preset records it (a preset of another rig loaded live): its plug-ins
    /// found as `chain add` finds them, the slots both rigs have (same name, same plug-in)
    /// carrying on untouched, the others fading in and out as an edit's do. Returns the rig
    /// now hosted.
    package func replaceRig(_ identifier: String) throws(ChainEditError) -> Processor {
        let (resolve, changed) = try editing()
        let next: Processor
        do {
            if let (slots, connections) = Processor.graphParts(of: identifier) {
                next = try Processor.graph(try slots.map { ($0.name, try resolve($0.identifier)) }, connections: connections)
            } else if let slots = Processor.chainParts(of: identifier) {
                next = try Processor.chain(slots.map { ($0.name, try resolve($0.identifier)) })
            } else {
                next = try resolve(identifier)
            }
        } catch {
            throw ChainEditError("\(error)")
        }
        let processor = try state.withLock { st throws(ChainEditError) -> Processor in
            st.absorbMIDI()
            try takeOver(st.processor.replaced(by: next), &st)
            return next
        }
        changes.publish(.chain)
        changed(processor)
        return processor
    }

    /// How a chain may be edited now, or why it may not.
    private func editing() throws(ChainEditError) -> (ProcessorResolver, @Sendable (Processor) -> Void) {
        switch chainEditing.withLock({ $0 }) {
        case .allowed(let resolve, let changed): return (resolve, changed)
        case .refused(let reason): throw ChainEditError(reason)
        }
    }

    /// Hands the host over to the chain `edited` makes: prepared beside the running engine,
    /// taking over at a block boundary; values, MIDI mappings and knob positions follow their
    /// parameters' new rows. The caller holds the host's lock.
    private func takeOver(_ edited: EditedChain, _ st: inout State) throws(ChainEditError) {
        let table = edited.processor.table
        guard table.count <= JackSession.parameterCapacity else {
            throw ChainEditError("a live chain holds at most \(JackSession.parameterCapacity) parameters; this one would have \(table.count)")
        }
        if let problem = JackSession.sideSetProblem(edited.processor, registered: st.session?.sideSets ?? []) {
            throw ChainEditError(problem)
        }
        let targets = table.complete(edited.carry(st.targets))
        let midi = st.midi.map { $0.retabled(table, rows: edited.rows) }
        if st.engine.sampleRate > 0 {
            let next: Engine
            do {
                next = try st.engine.successor(running: edited.processor, origins: edited.origins, values: targets,
                                               arriving: edited.arriving, staying: edited.staying, unfaded: edited.unfaded)
            } catch {
                throw ChainEditError("\(error)")
            }
            // Controllers rest while rows change meaning: a message in between would turn
            // the row of the other table.
            let old = st.midi
            if let old { st.session?.updateMIDI(MIDIControls(table: old.table, channel: old.channel, controllers: [:])) }
            guard Self.run(next, &st) else {
                if let old { st.session?.updateMIDI(old) }
                throw ChainEditError("the JACK server ran no cycle within 2 s; the chain is unchanged")
            }
        } else {
            st.engine = Self.makeEngine(edited.processor, targets, options)
        }
        st.processor = edited.processor
        st.chainGeneration += 1
        st.targets = targets
        st.midi = midi
        if let session = st.session {
            session.retable(table, values: targets)
            if let midi { session.updateMIDI(midi) }
            // Settings controllers made before the edit are in the targets already.
            st.midiCounts.seen = Dictionary(uniqueKeysWithValues: table.indices.map { ($0, session.midiLastSet($0).generation) })
        }
    }
}
