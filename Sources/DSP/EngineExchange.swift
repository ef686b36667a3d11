import Synchronization

/// The engine an audio thread runs, and the one offered to take over from it: how a live
/// chain edit reaches the audio thread without a lock and without a gap.
///
/// ```swift
/// let exchange = EngineExchange(engine)                 // the audio thread's view
/// let next = try engine.successor(running: chain, origins: [.kept(0), .added], values: values)
/// exchange.offer(next)                                  // control thread
/// // audio thread, each block:
/// let (running, _) = exchange.engineForBlock()          // fades out, then takes over
/// ```
///
/// The exchange holds no references: whoever made the engines keeps them alive until the
/// audio thread is known to have left the old one (``engineForBlock()`` says so once).
public final class EngineExchange: @unchecked Sendable {
    private let current: Atomic<UnsafeMutableRawPointer>
    private let pending = Atomic<UnsafeMutableRawPointer?>(nil)

    public init(_ engine: Engine) {
        current = Atomic(Unmanaged.passUnretained(engine).toOpaque())
    }

    /// Whether `engine` is the one the audio thread runs.
    public func isRunning(_ engine: Engine) -> Bool {
        current.load(ordering: .acquiring) == Unmanaged.passUnretained(engine).toOpaque()
    }

    /// Offers `next` (made by ``Engine/successor(running:origins:values:)`` of the running
    /// engine) to take over at the audio thread's next block boundary once the slots it
    /// drops have faded out (control thread).
    public func offer(_ next: Engine) {
        pending.store(Unmanaged.passUnretained(next).toOpaque(), ordering: .releasing)
    }

    /// Withdraws `next` if the audio thread has not taken it yet: true when withdrawn (the
    /// old engine keeps running and brings back any slot it had begun to fade out), false when
    /// it is taking over or has.
    public func withdraw(_ next: Engine) -> Bool {
        pending.compareExchange(expected: Unmanaged.passUnretained(next).toOpaque(), desired: nil,
                                ordering: .acquiringAndReleasing).exchanged
    }

    /// Makes `engine` the running one at once, for when no audio thread runs.
    public func replace(with engine: Engine) {
        pending.store(nil, ordering: .relaxed)
        current.store(Unmanaged.passUnretained(engine).toOpaque(), ordering: .releasing)
    }

    /// The engine to run this block (audio thread): the running one, which fades out what an
    /// offered successor drops, then — at the block where that is done — the successor,
    /// having taken over. `tookOver` is true for that one block: from then on the old engine
    /// is never touched again.
    @_noLocks
    public func engineForBlock() -> (engine: UnsafeMutableRawPointer, tookOver: Bool) {
        let now = current.load(ordering: .relaxed)
        let running = Unmanaged<Engine>.fromOpaque(now)
        guard let offered = pending.load(ordering: .acquiring) else {
            running._withUnsafeGuaranteedRef { $0.stay() }
            return (now, false)
        }
        let next = Unmanaged<Engine>.fromOpaque(offered)
        let handover = next._withUnsafeGuaranteedRef { $0.handover }
        let ready = running._withUnsafeGuaranteedRef { $0.leave(handover) }
        guard ready, pending.compareExchange(expected: offered, desired: nil, ordering: .acquiringAndReleasing).exchanged
        else { return (now, false) }
        let old = running._withUnsafeGuaranteedRef { ($0.render, $0.queue) }
        next._withUnsafeGuaranteedRef { $0.takeOver(render: old.0, queue: old.1) }
        current.store(offered, ordering: .releasing)
        return (offered, true)
    }
}
