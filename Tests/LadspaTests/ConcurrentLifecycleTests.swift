import AudioEngine
import Foundation
import Ladspa
import LV2
import PluginFormats
import Synchronization
import Testing
import TestSupport

/// Plug-ins that share a library with global state — FFTW's planner, used here by zam's
/// reverb and head model (zita-convolver), x42's tuner, autotune and phase rotator, and swh's
/// LADSPA pitch scalers and impulse convolver — are made, prepared, run and freed on several
/// threads at once, LV2 and LADSPA mixed: the process-wide lifecycle lock
/// keeps their instantiation and cleanup apart, so none crashes (without it, two FFTW plans
/// made at once crashed the test process).
@Suite struct ConcurrentLifecycleTests {
    static let references = ["urn:zamaudio:ZamVerb", "ladspa:1193", "urn:zamaudio:ZamHeadX2", "ladspa:1194",
                             "http://gareus.org/oss/lv2/tuna#one", "ladspa:1199", "http://gareus.org/oss/lv2/fat1",
                             "http://gareus.org/oss/lv2/phaserotate"]

    @Test func pluginsSharingFFTWAreMadeAndFreedOnManyThreadsAtOnce() throws {
        let catalogue = PluginCatalogue(formats: [LV2Format(), LadspaFormat.ladspa])
        let processors = try Self.references.map { try catalogue.find($0).processor() }
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for round in 0..<12 {
                let processor = processors[(thread + round) % processors.count]
                do {
                    let engine = Engine(processor: processor)
                    try engine.prepare(sampleRate: 48_000, maxFrames: 256, channels: 2)
                    let noise = (0..<2).map { Signal.noise(frames: 1_024, seed: UInt64(thread * 10 + $0 + 1), amplitude: 0.25) }
                    let (output, _) = EngineRun.render(engine, noise, blockSize: 256)
                    if output.contains(where: { $0.contains { !$0.isFinite } }) {
                        failures.withLock { $0.append("\(processor.name): non-finite output") }
                    }
                } catch {
                    failures.withLock { $0.append("\(processor.name): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
    }
}
