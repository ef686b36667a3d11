import RenderJobs
import ArgumentParser
import CRealtime
import AudioEngine
import Parameters
import Platform
import LV2
import Rig

/// The real-time audit's child side: the plug-in hosted as `detent live` hosts it (its worker
/// on a thread of its own), its `run()` driven block after block with moving controls, each
/// block inside a real-time region of the preloaded RealtimeSanitizer runtime, which writes a
/// report to stderr for each unsafe call made there (see ``RealtimeAudit``).
///
/// Only the engine's calls are inside a region — `beginMIDI`, `addMIDI` and `process`, which
/// the compiler proves free of allocation and locks on Detent's side — so every report is a
/// call the plug-in made (or a library it called) while its `run()` ran on the audio thread.
/// The worker's `work()` runs on its own thread, outside any region, as the LV2 worker
/// extension allows it to block.
enum RealtimeAuditRun {
    /// Lines the child writes among the runtime's reports, so the parent can tell where the
    /// reports came from.
    enum Marker {
        static let prefix = "detent-rt-audit: "
        /// The first block is done; reports from here on came later.
        static let laterBlocks = prefix + "later blocks"
        /// The run finished: `done blocks=N frames=F notes=0|1 stopped=0|S`, where S is the
        /// time limit in seconds that cut it short.
        static let done = prefix + "done"
    }

    static let sampleRate = 48_000.0
    static let blockFrames = 256
    static let channels = 2

    /// Runs `uri` for `seconds` of audio as fast as it goes, or until `wallLimit` passes.
    static func run(uri: String, seconds: Double, wallLimit: Duration) throws {
        guard detent_rtsan_start() == 1 else {
            throw CommandFailure("the real-time audit's child needs the RealtimeSanitizer runtime preloaded "
                                 + "(run `detent plugins --check`)", exitCode: 69)
        }
        let processor = try InstalledPlugins.catalogue.find(uri).processor()
        let engine = Engine(processor: processor)
        try engine.prepare(sampleRate: sampleRate, maxFrames: blockFrames, channels: channels, realtime: true)
        let table = processor.table
        let blocks = max(1, Int((seconds * sampleRate / Double(blockFrames)).rounded(.up)))
        let noise = Noise(frames: Int(sampleRate), channels: channels)
        let buffers = AuditBuffers(channels: channels, frames: blockFrames)
        defer { buffers.deallocate() }
        var random = Noise.Generator(seed: 0x5EED)
        let start = ContinuousClock.now
        var done = 0
        var stopped = false
        for b in 0..<blocks {
            if b > 0 && ContinuousClock.now - start > wallLimit {
                stopped = true
                break
            }
            // Inputs: noise, with every eighth stretch of 32 blocks silent (a tail decays).
            let silent = (b / 32) % 8 == 7
            noise.fill(buffers, block: b, frames: blockFrames, silent: silent)
            // Controls: each sweeps its range twice, from its own phase; every 64th block
            // they all jump to random places. Toggles and enumerations step through theirs.
            for id in table.indices {
                let position: Double
                if b % 64 == 63 {
                    position = random.unit()
                } else {
                    let phase = 2 * Double(b) / Double(blocks) + 0.37 * Double(id.rawValue)
                    position = abs(phase.truncatingRemainder(dividingBy: 2) - 1)
                }
                engine.controls.send(ParameterChange(id, table[id].value(atNormalized: position)))
            }
            // Notes for a processor that takes MIDI: one starts every 4 blocks, and stops 2
            // blocks later.
            buffers.midiCount = 0
            if processor.acceptsMIDI {
                let note = UInt8(36 + (b / 4 * 7) % 48)
                if b % 4 == 0 { buffers.addMIDI(frame: 0, [0x90, note, 100]) }
                if b % 4 == 2 { buffers.addMIDI(frame: 64, [0x80, note, 0]) }
            }
            var block = AuditBlock(engine: Unmanaged.passUnretained(engine), buffers: buffers, frames: blockFrames)
            if b == 0 {
                auditFirstBlock(&block)
                LineWriter(fileDescriptor: 2).line(Marker.laterBlocks)
            } else {
                auditLaterBlock(&block)
            }
            done += 1
        }
        withExtendedLifetime(engine) {}
        LineWriter(fileDescriptor: 2).line(
            "\(Marker.done) blocks=\(done) frames=\(done * blockFrames) notes=\(processor.acceptsMIDI ? 1 : 0) "
                + "stopped=\(stopped ? Int(wallLimit.components.seconds) : 0)")
    }
}

/// What one audited block hands the engine, all prepared before the real-time region.
struct AuditBlock {
    var engine: Unmanaged<Engine>
    var input: UnsafePointer<UnsafePointer<Float>>
    var output: UnsafePointer<UnsafeMutablePointer<Float>>
    var frames: Int
    var midi: UnsafePointer<UInt8>
    var midiFrames: UnsafePointer<Int>
    var midiCount: Int

    init(engine: Unmanaged<Engine>, buffers: AuditBuffers, frames: Int) {
        self.engine = engine
        input = UnsafePointer(buffers.input)
        output = UnsafePointer(buffers.output)
        self.frames = frames
        midi = UnsafePointer(buffers.midi)
        midiFrames = UnsafePointer(buffers.midiFrames)
        midiCount = buffers.midiCount
    }
}

// The first block and the later ones run through two call sites, so their stacks differ: the
// runtime reports each distinct stack once, and an unsafe call made in every `run()` is then
// reported both for the first block and for a later one, not only for the first.

/// The first block, in a real-time region.
@_noLocks @inline(never)
func auditFirstBlock(_ block: UnsafePointer<AuditBlock>) {
    auditRegion(block)
}

/// A later block, in a real-time region.
@_noLocks @inline(never)
func auditLaterBlock(_ block: UnsafePointer<AuditBlock>) {
    auditRegion(block)
}

@_noLocks @inline(__always)
func auditRegion(_ block: UnsafePointer<AuditBlock>) {
    _unsafePerformance { detent_rtsan_enter() }
    block.pointee.engine._withUnsafeGuaranteedRef { engine in
        engine.beginMIDI()
        for m in 0..<block.pointee.midiCount {
            engine.addMIDI(frame: block.pointee.midiFrames[m], bytes: block.pointee.midi + 3 * m, size: 3)
        }
        engine.process(input: block.pointee.input, output: block.pointee.output, frames: block.pointee.frames)
    }
    _unsafePerformance { detent_rtsan_exit() }
}
