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
    /// The offered engine's address, or 0. While the audio thread reads the offer — the
    /// successor's hand-over tables — it sets the low bit (a literal 1 below): the offer is then
    /// neither withdrawn nor freed under it (engines are aligned, so the bit is free).
    private let pending = Atomic<UInt>(0)

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
        pending.store(Self.address(next), ordering: .releasing)
    }

    /// What ``withdraw(_:)`` found.
    public enum Withdrawal: Sendable, Equatable {
        /// Withdrawn: the old engine keeps running and brings back any slot it had begun to
        /// fade out; the audio thread will never read the offer again, and it may be freed.
        case withdrawn
        /// Taken over: it runs, or is about to (``isRunning(_:)`` says when).
        case takenOver
        /// The audio thread is reading it this moment (a few hundred instructions): ask again.
        case busy
    }

    /// Withdraws `next` unless the audio thread has taken it, or is reading it now (control
    /// thread). Only `.withdrawn` lets the caller free it.
    public func withdraw(_ next: Engine) -> Withdrawal {
        let offered = Self.address(next)
        let (exchanged, found) = pending.compareExchange(expected: offered, desired: 0, ordering: .acquiringAndReleasing)
        if exchanged { return .withdrawn }
        return found == offered | 1 ? .busy : .takenOver
    }

    /// Makes `engine` the running one at once, for when no audio thread runs.
    public func replace(with engine: Engine) {
        pending.store(0, ordering: .relaxed)
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
        guard let offered = claimOffer() else {
            running._withUnsafeGuaranteedRef { $0.stay() }
            return (now, false)
        }
        let next = Unmanaged<Engine>.fromOpaque(offered)
        let handover = next._withUnsafeGuaranteedRef { $0.handover }
        let ready = running._withUnsafeGuaranteedRef { $0.leave(handover) }
        guard ready else {
            releaseClaim(offered)
            return (now, false)
        }
        let old = running._withUnsafeGuaranteedRef { ($0.render, $0.queue) }
        next._withUnsafeGuaranteedRef { $0.takeOver(render: old.0, queue: old.1) }
        current.store(offered, ordering: .releasing)
        pending.store(0, ordering: .releasing)
        return (offered, true)
    }

    /// Claims the offer for reading (audio thread): its address, or nil when there is none.
    /// Until ``releaseClaim(_:)`` (or the take-over), a withdrawal finds it busy.
    @_noLocks
    func claimOffer() -> UnsafeMutableRawPointer? {
        let value = pending.load(ordering: .acquiring)
        guard value != 0, value & 1 == 0,
              pending.compareExchange(expected: value, desired: value | 1,
                                      ordering: .acquiringAndReleasing).exchanged
        else { return nil }
        return UnsafeMutableRawPointer(bitPattern: value)
    }

    /// Gives back a claimed offer that did not take over this block (audio thread).
    @_noLocks
    func releaseClaim(_ offered: UnsafeMutableRawPointer) {
        let value = UInt(bitPattern: offered)
        _ = pending.compareExchange(expected: value | 1, desired: value, ordering: .releasing)
    }

    private static func address(_ engine: Engine) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(engine).toOpaque())
    }
}
