import Synchronization

/// Carries parameter changes from control threads to the audio thread without locks on the
/// audio side, and never loses the final position of a knob.
///
/// The core is a bounded single-producer/single-consumer ring with its two indices on
/// separate cache lines. When the ring is full (the audio thread stalled, or a flood of
/// events), a change is not dropped: it goes to a per-parameter *latest-value slot* that the
/// audio thread reads at its next block. A knob may skip intermediate positions, never its
/// last one. Order is kept with a per-parameter epoch: once a parameter has a value in its
/// slot, every later change of that parameter goes to the slot too, until the audio thread
/// has taken it, and ring entries older than a taken slot value are discarded.
///
/// Control threads may call ``send(_:)`` concurrently: the producer side serialises them
/// with a mutex that the audio thread never touches.
///
/// ```swift
/// let queue = ParameterQueue()
/// queue.send(ParameterChange(.cutoff, 800))   // from the UI thread
/// ```
public final class ParameterQueue: @unchecked Sendable {
    /// How many changes the ring holds before values coalesce in the slots.
    public let capacity: Int
    /// The shared memory, as the audio thread sees it.
    let storage: QueueStorage
    /// The producers' epochs, one per parameter.
    private let producer: Mutex<[UInt32]>

    /// A queue for changes of `parameterCount` parameters (a processor's table size).
    public init(capacity: Int = 1024, parameterCount: Int) {
        precondition(capacity > 0)
        var size = 1
        while size < capacity { size <<= 1 }
        self.capacity = size
        storage = QueueStorage(capacity: size, parameterCount: parameterCount)
        producer = Mutex(Array(repeating: 0, count: parameterCount))
    }

    deinit { storage.deallocate() }

    /// Sends a change. Never blocks the audio thread and never fails.
    ///
    /// - Returns: `true` when the change went through the ring with its frame and ramp;
    ///   `false` when the ring was full and the value was coalesced into the parameter's
    ///   latest-value slot (applied at the next block start with the default ramp).
    @discardableResult
    public func send(_ change: ParameterChange) -> Bool {
        producer.withLock { epochs in
            let p = change.index
            var stamped = change
            stamped.epoch = epochs[p]
            if storage.slotPending(p) == false && storage.push(stamped) { return true }
            epochs[p] &+= 1
            storage.fillSlot(p, value: change.value, epoch: epochs[p])
            return false
        }
    }

    /// Sends a change only if it fits in the ring with its frame and ramp; `false` when it
    /// does not (the caller may process audio and try again). Used where no change may be
    /// coalesced, such as sample-accurate automation in offline renders.
    public func trySend(_ change: ParameterChange) -> Bool {
        producer.withLock { epochs in
            let p = change.index
            var stamped = change
            stamped.epoch = epochs[p]
            return storage.slotPending(p) == false && storage.push(stamped)
        }
    }

    /// Changes waiting in the ring (a snapshot; exact only when both sides are idle).
    public var pendingCount: Int { storage.count }
}

/// The queue's memory: ring indices, latest-value slots and the ring itself, in one
/// allocation. A plain struct of pointers, so the audio thread reads it with no reference
/// counting.
struct QueueStorage: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let capacity: Int
    let parameterCount: Int
    let ring: UnsafeMutablePointer<ParameterChange>

    private static let line = 64
    private static let slotStride = 16
    private var slotsOffset: Int { 2 * Self.line }

    init(capacity: Int, parameterCount: Int) {
        self.capacity = capacity
        self.parameterCount = parameterCount
        let slotsBytes = (parameterCount * Self.slotStride + Self.line - 1) / Self.line * Self.line
        let ringOffset = 2 * Self.line + slotsBytes
        let bytes = ringOffset + capacity * MemoryLayout<ParameterChange>.stride
        base = .allocate(byteCount: bytes, alignment: Self.line)
        base.bindMemory(to: Atomic<Int>.self, capacity: 1).initialize(to: Atomic(0))
        (base + Self.line).bindMemory(to: Atomic<Int>.self, capacity: 1).initialize(to: Atomic(0))
        for p in 0..<parameterCount {
            let slot = base + 2 * Self.line + p * Self.slotStride
            slot.bindMemory(to: Atomic<UInt32>.self, capacity: 2).initialize(to: Atomic(0))
            (slot + 4).bindMemory(to: Atomic<UInt32>.self, capacity: 1).initialize(to: Atomic(0))
            (slot + 8).bindMemory(to: Atomic<UInt64>.self, capacity: 1).initialize(to: Atomic(0))
        }
        ring = (base + ringOffset).bindMemory(to: ParameterChange.self, capacity: capacity)
    }

    func deallocate() { base.deallocate() }

    /// Written by the producer only.
    @inline(__always) private var head: UnsafeMutablePointer<Atomic<Int>> {
        @_noLocks get { base.assumingMemoryBound(to: Atomic<Int>.self) }
    }
    /// Written by the consumer only.
    @inline(__always) private var tail: UnsafeMutablePointer<Atomic<Int>> {
        @_noLocks get { (base + Self.line).assumingMemoryBound(to: Atomic<Int>.self) }
    }
    @inline(__always) private func pending(_ p: Int) -> UnsafeMutablePointer<Atomic<UInt32>> {
        (base + slotsOffset + p * Self.slotStride).assumingMemoryBound(to: Atomic<UInt32>.self)
    }
    @inline(__always) private func epoch(_ p: Int) -> UnsafeMutablePointer<Atomic<UInt32>> {
        (base + slotsOffset + p * Self.slotStride + 4).assumingMemoryBound(to: Atomic<UInt32>.self)
    }
    @inline(__always) private func valueBits(_ p: Int) -> UnsafeMutablePointer<Atomic<UInt64>> {
        (base + slotsOffset + p * Self.slotStride + 8).assumingMemoryBound(to: Atomic<UInt64>.self)
    }

    var count: Int {
        head.pointee.load(ordering: .acquiring) - tail.pointee.load(ordering: .acquiring)
    }

    // MARK: Producer side

    func push(_ change: ParameterChange) -> Bool {
        let h = head.pointee.load(ordering: .relaxed)
        let t = tail.pointee.load(ordering: .acquiring)
        guard h - t < capacity else { return false }
        ring[h & (capacity - 1)] = change
        head.pointee.store(h + 1, ordering: .releasing)
        return true
    }

    func slotPending(_ p: Int) -> Bool {
        pending(p).pointee.load(ordering: .acquiring) != 0
    }

    /// Epoch first, then the value with release: a reader that sees this value also sees
    /// this epoch (or a later one). A reader can pair an older value with a newer epoch —
    /// then it skips some intermediate ring entries and gets the newer value at the next
    /// block, since `pending` is raised after the value — but never a newer value with an
    /// older epoch, which would let stale ring entries move a knob backwards.
    func fillSlot(_ p: Int, value: Double, epoch e: UInt32) {
        epoch(p).pointee.store(e, ordering: .relaxed)
        valueBits(p).pointee.store(value.bitPattern, ordering: .releasing)
        pending(p).pointee.store(1, ordering: .releasing)
    }

    // MARK: Consumer side (the audio thread)

    /// The oldest change in the ring, without removing it.
    @_noLocks
    func peek() -> ParameterChange? {
        let t = tail.pointee.load(ordering: .relaxed)
        let h = head.pointee.load(ordering: .acquiring)
        guard t != h else { return nil }
        return ring[t & (capacity - 1)]
    }

    /// Removes the oldest change (after `peek` returned it).
    @_noLocks
    func pop() {
        let t = tail.pointee.load(ordering: .relaxed)
        tail.pointee.store(t + 1, ordering: .releasing)
    }

    /// Takes the latest coalesced value of parameter `p`, if one is waiting.
    @_noLocks
    func takeSlot(_ p: Int) -> (value: Double, epoch: UInt32)? {
        guard pending(p).pointee.exchange(0, ordering: .acquiring) != 0 else { return nil }
        let bits = valueBits(p).pointee.load(ordering: .acquiring)
        let e = epoch(p).pointee.load(ordering: .relaxed)
        return (Double(bitPattern: bits), e)
    }
}
