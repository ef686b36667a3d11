import AudioEngine
import Dispatch
import LV2
import Synchronization
import Testing
import TestSupport

/// Plug-in instances made and freed on many threads at once, as parallel renders and a live
/// host's re-preparations do. lilv counts the users of each shared library in the world it
/// shares; a count changed without the world's lock once unloaded a library whose plug-in was
/// still running, and the next `run()` jumped into unmapped memory.
@Suite("Plug-in lifetimes")
struct PluginLifetimeTests {
    @Test("instances made and freed on eight threads at once keep every running plug-in's library loaded")
    func concurrentMakeAndFree() {
        let uris = ["http://plugin.org.uk/swh-plugins/buttlow_iir", "http://plugin.org.uk/swh-plugins/butthigh_iir"]
        let input = [Signal.noise(frames: 512, seed: 3)]
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            // One engine lives across the whole loop while others come and go beside it.
            guard let keeper = try? PluginRenderTests.engine(uris[worker % 2], maxFrames: 256).0 else {
                failures.withLock { $0.append("worker \(worker) could not make its engine") }
                return
            }
            for round in 0..<3000 {
                do {
                    _ = try PluginRenderTests.engine(uris[(worker + round) % 2], maxFrames: 256)
                } catch {
                    failures.withLock { $0.append("worker \(worker), round \(round): \(error)") }
                }
                _ = EngineRun.render(keeper, input, blockSize: 256)
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
    }
}
