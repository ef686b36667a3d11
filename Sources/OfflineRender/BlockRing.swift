import Platform
import Synchronization

/// The block buffers the stages pass around, with the semaphores that order them: a slot is
/// free (the reader may fill it), filled (the engine may process it), then processed (the
/// writer may write it, and then frees it). A slot holding 0 frames marks the end.
///
/// `@unchecked Sendable`: each slot is touched by one stage at a time, and the semaphore
/// between two stages orders their accesses.
final class BlockRing: @unchecked Sendable {
    let slots: Int
    let blockFrames: Int
    let channels: Int
    /// Interleaved samples, `slots × blockFrames × channels`.
    let samples: UnsafeMutablePointer<Float>
    /// Frames in each slot.
    let frames: UnsafeMutablePointer<Int>
    /// Frames at the start of each slot that are not written (a processor's latency,
    /// dropped so that the output lines up with the input); set by the engine stage.
    let skipped: UnsafeMutablePointer<Int>
    /// Frames the input held, once the reader has reached its end (−1 before): what
    /// follows is padding.
    let inputFrames = Atomic<Int>(-1)
    let free: Semaphore
    let filled = Semaphore(0)
    let processed = Semaphore(0)
    private let stopped = Atomic(false)
    private let ending = Atomic(false)
    private let firstFailure = Mutex<AudioFileError?>(nil)

    init(slots: Int, blockFrames: Int, channels: Int) {
        self.slots = slots
        self.blockFrames = blockFrames
        self.channels = channels
        samples = .allocate(capacity: slots * blockFrames * channels)
        frames = .allocate(capacity: slots)
        frames.initialize(repeating: 0, count: slots)
        skipped = .allocate(capacity: slots)
        skipped.initialize(repeating: 0, count: slots)
        free = Semaphore(slots)
    }

    deinit {
        samples.deallocate()
        frames.deallocate()
        skipped.deallocate()
    }

    /// The first sample of a slot's block.
    func block(_ slot: Int) -> UnsafeMutablePointer<Float> {
        samples + slot * blockFrames * channels
    }

    var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// The engine stage has ended the output early (a tail that fell quiet): the reader stops
    /// at its next slot instead of padding further.
    var endRequested: Bool { ending.load(ordering: .acquiring) }

    /// Asks the reader to stop, and wakes it if it waits for a free slot.
    func requestEnd() {
        ending.store(true, ordering: .releasing)
        free.signal()
    }
    var failure: AudioFileError? { firstFailure.withLock { $0 } }

    /// Records the first error and stops every stage (each is woken from its wait).
    func fail(_ error: AudioFileError) {
        firstFailure.withLock { if $0 == nil { $0 = error } }
        stopped.store(true, ordering: .releasing)
        free.signal()
        filled.signal()
        processed.signal()
    }
}
