import Parameters

import Synchronization

/// What the audio thread tells the rest of the program: current smoothed values, output
/// meters and counters, published once per block without locks.
///
/// Values and cumulative counters travel through a sequence lock: the audio thread (the only
/// writer) never waits; a reader retries in the rare case it overlapped a write. Output
/// peaks use an atomic maximum that the reader resets when it takes them, so no peak between
/// two reads is missed. RMS is derived from cumulative sums of squares, so a reader at any
/// rate gets the exact RMS of the interval since its previous read.
public final class EngineTelemetry: @unchecked Sendable {
    public let channels: Int
    let storage: TelemetryStorage
    /// The table the values are read through.
    private let table: ParameterTable

    init(channels: Int, table: ParameterTable, slots: Int = 1) {
        self.channels = channels
        self.table = table
        storage = TelemetryStorage(parameterCount: table.count, channels: channels, slots: slots)
    }

    deinit { storage.deallocate() }

    /// Each slot's frames of absurd output passed through, as last published (the peaks
    /// are left for ``snapshot()``): what a host watches to name a slot as it goes wrong.
    public func absurdFrames() -> [Int64] { repairs().absurdFrames }

    /// The counts of what was repaired, as last published: for a reader of nothing else (a
    /// Python call's report, read around every call), which need not build every
    /// parameter's value as ``snapshot()`` does.
    public func repairs() -> TelemetryRepairs {
        let words = storage.readConsistent()
        let first = storage.parameterCount + channels
        return TelemetryRepairs(nonFiniteBlocks: Int64(bitPattern: words[first + 1]),
                                sanitizedOutputSamples: Int64(bitPattern: words[first + 2]),
                                absurdFrames: (0..<storage.slots).map { Int64(bitPattern: words[first + 3 + $0]) })
    }

    /// Reads the latest published state and takes the output peaks (resetting them).
    /// Meant for one reader (the panel or the status command).
    public func snapshot() -> TelemetrySnapshot {
        let words = storage.readConsistent()
        let p = storage.parameterCount
        var values: [ParameterIndex: Double] = [:]
        for id in table.indices {
            values[id] = table[id].value(fromEngine: Double(bitPattern: words[id.rawValue]))
        }
        return TelemetrySnapshot(
            values: values,
            sumOfSquares: (0..<channels).map { Double(bitPattern: words[p + $0]) },
            framesProcessed: Int64(bitPattern: words[p + channels]),
            nonFiniteBlocks: Int64(bitPattern: words[p + channels + 1]),
            sanitizedOutputSamples: Int64(bitPattern: words[p + channels + 2]),
            peaks: (0..<channels).map { storage.takePeak($0) },
            absurdFrames: (0..<storage.slots).map { Int64(bitPattern: words[p + channels + 3 + $0]) })
    }
}

/// The repair counters of one reading of ``EngineTelemetry`` (``TelemetrySnapshot`` names them).
public struct TelemetryRepairs: Sendable, Equatable {
    public var nonFiniteBlocks: Int64
    public var sanitizedOutputSamples: Int64
    public var absurdFrames: [Int64]
}

/// One reading of ``EngineTelemetry``.
public struct TelemetrySnapshot: Sendable, Equatable {
    /// Current smoothed value of each parameter, in its own unit.
    public var values: [ParameterIndex: Double]
    /// Sum of squared output samples per channel since `prepare`.
    public var sumOfSquares: [Double]
    /// Frames processed since `prepare`.
    public var framesProcessed: Int64
    /// Blocks in which the input held NaN or infinity (replaced by silence).
    public var nonFiniteBlocks: Int64
    /// Output samples an external processor made NaN, infinite or denormal (written as 0).
    public var sanitizedOutputSamples: Int64
    /// Highest absolute output sample per channel since the previous snapshot.
    public var peaks: [Float]
    /// Per slot (in the processor's order; one for a single processor), the frames in which
    /// it put out absurd samples and passed its input through instead.
    public var absurdFrames: [Int64] = []

    /// RMS per output channel over the frames between `earlier` and this snapshot.
    public func rms(since earlier: TelemetrySnapshot?) -> [Double] {
        let frames = framesProcessed - (earlier?.framesProcessed ?? 0)
        return sumOfSquares.indices.map { c in
            guard frames > 0 else { return 0 }
            let before = earlier.map { c < $0.sumOfSquares.count ? $0.sumOfSquares[c] : 0 } ?? 0
            return (max(0, sumOfSquares[c] - before) / Double(frames)).squareRoot()
        }
    }
}

/// The telemetry memory as a struct of pointers, so the audio thread writes it with no
/// reference counting. Layout: a sequence word on its own cache line, then the words
/// (parameter values, per-channel sums of squares, frames, non-finite blocks, sanitized
/// output samples, each slot's absurd frames), then peaks.
struct TelemetryStorage: @unchecked Sendable {
    let parameterCount: Int
    let channels: Int
    let slots: Int
    let sequence: UnsafeMutablePointer<Atomic<UInt64>>
    let words: UnsafeMutablePointer<Atomic<UInt64>>
    let peaks: UnsafeMutablePointer<Atomic<UInt32>>
    var wordCount: Int { parameterCount + channels + 3 + slots }

    init(parameterCount: Int, channels: Int, slots: Int) {
        self.parameterCount = parameterCount
        self.channels = channels
        self.slots = slots
        let count = parameterCount + channels + 3 + slots
        let raw = UnsafeMutableRawPointer.allocate(byteCount: 64 + count * 8 + channels * 4 + 4, alignment: 64)
        sequence = raw.bindMemory(to: Atomic<UInt64>.self, capacity: 1)
        sequence.initialize(to: Atomic(0))
        words = (raw + 64).bindMemory(to: Atomic<UInt64>.self, capacity: count)
        for i in 0..<count { (words + i).initialize(to: Atomic(0)) }
        peaks = (raw + 64 + count * 8).bindMemory(to: Atomic<UInt32>.self, capacity: channels)
        for i in 0..<channels { (peaks + i).initialize(to: Atomic(0)) }
    }

    func deallocate() { UnsafeMutableRawPointer(sequence).deallocate() }

    // MARK: Writer (the audio thread)

    @_noLocks
    func beginWrite() {
        let s = sequence.pointee.load(ordering: .relaxed)
        sequence.pointee.store(s &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
    }

    @_noLocks
    func store(_ index: Int, _ bits: UInt64) {
        words[index].store(bits, ordering: .relaxed)
    }

    @_noLocks
    func endWrite() {
        let s = sequence.pointee.load(ordering: .relaxed)
        sequence.pointee.store(s &+ 1, ordering: .releasing)
    }

    /// Raises channel `c`'s peak to `square`, a squared sample (non-negative floats order
    /// like their bits, so an integer maximum works; the reader takes the square root).
    @_noLocks
    func raisePeak(_ c: Int, square: Float) {
        peaks[c].max(square.bitPattern, ordering: .relaxed)
    }

    // MARK: Reader

    func readConsistent() -> [UInt64] {
        var out = [UInt64](repeating: 0, count: wordCount)
        while true {
            let before = sequence.pointee.load(ordering: .acquiring)
            if before & 1 == 0 {
                for i in 0..<wordCount { out[i] = words[i].load(ordering: .relaxed) }
                atomicMemoryFence(ordering: .acquiring)
                if sequence.pointee.load(ordering: .relaxed) == before { return out }
            }
        }
    }

    func takePeak(_ c: Int) -> Float {
        Float(bitPattern: peaks[c].exchange(0, ordering: .relaxed)).squareRoot()
    }
}
