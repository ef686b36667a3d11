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
    public func setFile(_ id: String, path: String) throws(ChainEditError) -> String {
        let absolute: String
        guard let file = processor.file(id) else { throw ChainEditError("no file parameter '\(id)'") }
        do { absolute = try ReadableFile.checked(path) } catch { throw ChainEditError("set \(id): \(error)") }
        if file.expectsAudio, let problem = options.audioCheck?(absolute) { throw ChainEditError("set \(id): \(problem)") }
        let processor = try state.withLock { st throws(ChainEditError) -> Processor in
            guard st.processor.file(id) != nil else { throw ChainEditError("no file parameter '\(id)'") }
            let next: Processor
            do { next = try st.processor.settingFiles([id: absolute]) } catch { throw ChainEditError("set \(id): \(error)") }
            let owner = next.slots.firstIndex { id.hasPrefix($0.name + ".") } ?? 0
            let origins: [SlotOrigin] = (0..<max(1, next.slots.count)).map { $0 == owner ? .added : .kept($0) }
            if st.engine.sampleRate > 0 {
                let engine: Engine
                do {
                    engine = try st.engine.successor(running: next, origins: origins, values: st.targets)
                } catch {
                    throw ChainEditError("set \(id): \(error)")
                }
                guard Self.run(engine, &st) else {
                    throw ChainEditError("the JACK server ran no cycle within 2 s; '\(id)' is unchanged")
                }
            } else {
                st.engine = Self.makeEngine(next, st.targets, options)
            }
            st.processor = next
            return next
        }
        if case .allowed(_, let changed) = chainEditing.withLock({ $0 }) { changed(processor) }
        return absolute
    }
}
