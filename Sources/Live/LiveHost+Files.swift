import Control
import AudioEngine
import JackHost
import Parameters
import Platform

extension LiveHost {
    /// Points a file parameter at `path` while the host runs (`set ir hall.wav`): the path is
    /// checked (a regular file that can be read), and the slot it belongs to is made again
    /// with it, off the audio thread — the plug-in loads the file as it is made, through its
    /// worker as it expects — and takes over at a block boundary, fading in as the old one
    /// fades out (10 ms); the other slots carry on untouched, and every value stays. Returns
    /// the absolute path loaded.
    package func setFile(_ id: String, path: String) throws(ChainEditError) -> String {
        let absolute: String
        guard let file = processor.file(id) else { throw ChainEditError("no file parameter '\(id)'") }
        do { absolute = try ReadableFile.checked(path) } catch { throw ChainEditError("set \(id): \(error)") }
        if file.expectsAudio, let problem = options.audioCheck?(absolute) { throw ChainEditError("set \(id): \(problem)") }
        let processor = try state.withLock { st throws(ChainEditError) -> Processor in
            guard st.processor.file(id) != nil else { throw ChainEditError("no file parameter '\(id)'") }
            let next: Processor
            do { next = try st.processor.settingFiles([id: absolute]) } catch { throw ChainEditError("set \(id): \(error)") }
            let owner = next.slots.firstIndex { id.hasPrefix($0.name + ".") } ?? 0
            try Self.remake([owner], of: next, &st, options, failing: "set \(id)", unchanged: "'\(id)' is unchanged")
            return next
        }
        if case .allowed(_, let changed) = chainEditing.withLock({ $0 }) { changed(processor) }
        changes.publish(.files)
        return absolute
    }

    /// Restores `state` (a preset's, loaded while the host runs) into the plug-ins it is for:
    /// each slot it names is made again with it, off the audio thread, and takes over at a
    /// block boundary, fading in as the old one fades out (10 ms); the other slots carry on
    /// untouched, and every value stays. A slot that takes a state lets go of the files chosen
    /// for it (the state holds its own). Nothing happens when no slot keeps a state.
    package func restoreState(_ saved: SavedState) throws(ChainEditError) {
        let processor = try state.withLock { st throws(ChainEditError) -> Processor? in
            let (next, remade) = st.processor.restoring(saved)
            guard !remade.isEmpty else { return nil }
            try Self.remake(Set(remade), of: next, &st, options, failing: "the preset's state", unchanged: "the plug-ins keep their state")
            return next
        }
        if let processor, case .allowed(_, let changed) = chainEditing.withLock({ $0 }) { changed(processor) }
        if processor != nil { changes.publish(.files) }
    }

    /// Hands the host over to `next`, the processor hosted with the slots at `remade` made
    /// again (a file set, a state restored) and the others the same: while running, an engine
    /// that keeps every other slot's kernel takes over at a block boundary, the remade slots
    /// fading in (10 ms); else the engine is made afresh. `st.processor` becomes `next`.
    /// - Throws: ``ChainEditError`` saying `failing` (a slot that cannot be made), or that the
    ///   server ran no cycle and `unchanged`.
    static func remake(_ remade: Set<Int>, of next: Processor, _ st: inout State, _ options: LiveHostOptions,
                       failing: String, unchanged: String) throws(ChainEditError) {
        if st.engine.sampleRate > 0 {
            let origins: [SlotOrigin] = (0..<max(1, next.slots.count)).map { remade.contains($0) ? .added : .kept($0) }
            let engine: Engine
            do {
                engine = try st.engine.successor(running: next, origins: origins, values: st.targets)
            } catch {
                throw ChainEditError("\(failing): \(error)")
            }
            guard run(engine, &st) else { throw ChainEditError("the JACK server ran no cycle within 2 s; \(unchanged)") }
        } else {
            st.engine = makeEngine(next, st.targets, options)
        }
        st.processor = next
    }
}
