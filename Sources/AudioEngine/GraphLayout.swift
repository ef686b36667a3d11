/// A graph's wiring as the audio thread reads it (``GraphRouting`` made into raw memory at
/// `prepare`): the connections with their compensating delays, each slot's output buffer,
/// the sums its inputs are gathered into, and the named inputs' lanes. Nothing here is
/// allocated or freed while audio runs.
struct GraphLayout: BitwiseCopyable {
    /// One connection: its source (a slot ≥ 0; −1 the main input; −2, −3 … named inputs 1,
    /// 2 …), its delay in frames and that delay's history (`delay` frames per channel, the
    /// source's last frames, oldest first; nil for none).
    struct Edge: BitwiseCopyable {
        var source: Int
        var delay: Int
        var history: UnsafeMutablePointer<Float>?
        /// How far in the connection is (0 silent … `full`), and where it is heading: a
        /// connection made or taken away live fades (a raised cosine, as a slot does).
        var presence: Int
        var target: Int
        let full: Int

        /// True when the connection is in at full level and staying so: nothing to fade.
        var steady: Bool { presence == full && target == full }
    }

    var edges: UnsafeMutablePointer<Edge>
    var edgeCount: Int
    /// Per slot, its main sources' first edge and count, and its side-chain sources'; the
    /// output's last.
    var mainFirst: UnsafeMutablePointer<Int>
    var mainCount: UnsafeMutablePointer<Int>
    var sideFirst: UnsafeMutablePointer<Int>
    var sideCount: UnsafeMutablePointer<Int>
    var outputFirst: Int
    var outputCount: Int
    /// True when a source of the output is one of the graph's inputs: the output is then
    /// gathered apart first, since it may be the very memory the input is read from.
    var outputReadsInput: Bool
    /// The buffers slots write (`channels × maxFrames` each), and which one each slot writes:
    /// a buffer is handed to a later slot once every slot that reads it has run, so a graph
    /// holds as many as it has signals alive at once (its widest cut), not one per slot.
    var buffers: UnsafeMutablePointer<Int>
    let bufferCount: Int
    /// Every slot's output (in its buffer), and the lanes pointing into it,
    /// `lanes` per slot (for writing, and the same for reading): the channels padded to whole
    /// groups of four, as the built-in kernel reads them, the padding writing to the engine's
    /// sink and reading silence. The buffers are laid out as the caller's are (``bind(stride:)``):
    /// channel after channel, or interleaved, so that a slot reads its source's lanes, or the
    /// caller's input, in place, with the one stride a kernel takes.
    var outputs: UnsafeMutablePointer<Float>
    var outLanes: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var readLanes: UnsafeMutablePointer<UnsafePointer<Float>>
    var lanes: Int
    /// Where a slot's several sources (or a delayed one) are summed, and its side-chain
    /// sources; the lanes of the first for a kernel.
    var sum: UnsafeMutablePointer<Float>
    var sumLanes: UnsafeMutablePointer<UnsafePointer<Float>>
    var sumWriteLanes: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var sideSum: UnsafeMutablePointer<Float>
    var sideWriteLanes: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    let slots: Int
    /// The named inputs' lanes in the current chunk (silence when the caller gave none).
    var namedCount: Int
    var namedLanes: UnsafeMutablePointer<UnsafePointer<Float>>
    var namedStrides: UnsafeMutablePointer<Int>
    let channels: Int
    let maxFrames: Int

    /// The layout of `routing` for slots of `latencies`, in `channels` channels of chunks of
    /// up to `maxFrames`, named inputs reading `silence` until bound.
    init(_ routing: GraphRouting, latencies: [Int], channels: Int, maxFrames: Int, fadeFrames: Int,
         silence: UnsafePointer<Float>, sink: UnsafeMutablePointer<Float>) {
        let lanes = (channels + 3) / 4 * 4
        self.lanes = lanes
        self.channels = channels
        self.maxFrames = maxFrames
        let slots = routing.main.count
        self.slots = slots
        let (arrivals, outputArrival) = routing.arrivals(latencies: latencies)
        var list: [Edge] = []
        func add(_ sources: [GraphRouting.Source], arrival: Int) {
            for source in sources {
                let delay = routing.delay(from: source, arrival: arrival, arrivals: arrivals, latencies: latencies)
                let code = switch source {
                case .slot(let s): s
                case .input(let k): -1 - k
                }
                var history: UnsafeMutablePointer<Float>?
                if delay > 0 {
                    history = .allocate(capacity: delay * channels)
                    history!.initialize(repeating: 0, count: delay * channels)
                }
                list.append(Edge(source: code, delay: delay, history: history, presence: fadeFrames, target: fadeFrames, full: fadeFrames))
            }
        }
        mainFirst = .allocate(capacity: max(1, slots))
        mainCount = .allocate(capacity: max(1, slots))
        sideFirst = .allocate(capacity: max(1, slots))
        sideCount = .allocate(capacity: max(1, slots))
        for s in 0..<slots {
            (mainFirst + s).initialize(to: list.count)
            add(routing.main[s], arrival: arrivals[s])
            (mainCount + s).initialize(to: list.count - mainFirst[s])
            (sideFirst + s).initialize(to: list.count)
            add(routing.side[s], arrival: arrivals[s])
            (sideCount + s).initialize(to: list.count - sideFirst[s])
        }
        outputFirst = list.count
        add(routing.output, arrival: outputArrival)
        outputCount = list.count - outputFirst
        outputReadsInput = routing.output.contains { if case .input = $0 { true } else { false } }
        edgeCount = list.count
        edges = .allocate(capacity: max(1, list.count))
        edges.initialize(from: list, count: list.count)
        let (assignment, count) = Self.buffers(routing)
        bufferCount = count
        buffers = .allocate(capacity: max(1, slots))
        buffers.initialize(from: assignment, count: assignment.count)
        outputs = .allocate(capacity: max(1, count * channels * maxFrames))
        outputs.initialize(repeating: 0, count: max(1, count * channels * maxFrames))
        outLanes = .allocate(capacity: max(1, slots * lanes))
        outLanes.initialize(repeating: sink, count: max(1, slots * lanes))
        readLanes = .allocate(capacity: max(1, slots * lanes))
        readLanes.initialize(repeating: silence, count: max(1, slots * lanes))
        sum = .allocate(capacity: channels * maxFrames)
        sum.initialize(repeating: 0, count: channels * maxFrames)
        sumLanes = .allocate(capacity: lanes)
        sumLanes.initialize(repeating: silence, count: lanes)
        sumWriteLanes = .allocate(capacity: lanes)
        sumWriteLanes.initialize(repeating: sink, count: lanes)
        sideSum = .allocate(capacity: channels * maxFrames)
        sideSum.initialize(repeating: 0, count: channels * maxFrames)
        sideWriteLanes = .allocate(capacity: channels)
        sideWriteLanes.initialize(repeating: sideSum, count: channels)
        namedCount = routing.inputs.count - 1
        namedLanes = .allocate(capacity: max(1, namedCount * channels))
        namedLanes.initialize(repeating: silence, count: max(1, namedCount * channels))
        namedStrides = .allocate(capacity: max(1, namedCount))
        namedStrides.initialize(repeating: 1, count: max(1, namedCount))
        bind(stride: 1)
    }

    /// Which buffer each slot of `routing` writes, and how many there are. Slots run in order;
    /// a slot's buffer is free again once the last slot reading it (through its main or side
    /// inputs) has run, and never while the output still reads it. A slot never writes the
    /// buffer a source it reads is in (it is still alive then): a line of slots takes two
    /// buffers in turn, parallel branches one each.
    static func buffers(_ routing: GraphRouting) -> (assignment: [Int], count: Int) {
        let slots = routing.main.count
        // The last slot that reads each slot's output (Int.max: the output reads it).
        var lastReader = Array(0..<slots)
        for reader in 0..<slots {
            for source in routing.main[reader] + routing.side[reader] {
                if case .slot(let s) = source { lastReader[s] = max(lastReader[s], reader) }
            }
        }
        for source in routing.output { if case .slot(let s) = source { lastReader[s] = .max } }
        var assignment = [Int](repeating: 0, count: slots)
        var free: [Int] = []
        var count = 0
        for s in 0..<slots {
            // Handed back: buffers whose every reader ran before this slot.
            for t in 0..<s where lastReader[t] == s - 1 { free.append(assignment[t]) }
            free.sort(by: >)
            if let reused = free.popLast() {
                assignment[s] = reused
            } else {
                assignment[s] = count
                count += 1
            }
        }
        return (assignment, count)
    }

    /// Channel `c` of a `channels × maxFrames` buffer laid out for `stride`.
    @_noLocks @inline(__always)
    func lane(_ base: UnsafeMutablePointer<Float>, _ c: Int, stride: Int) -> UnsafeMutablePointer<Float> {
        stride == 1 ? base + c &* maxFrames : base + c
    }

    /// Lays the buffers out as the caller's lanes are: `stride` 1 (channel after channel) or
    /// the channel count (interleaved).
    @_noLocks
    func bind(stride: Int) {
        for c in 0..<channels {
            sumWriteLanes[c] = lane(sum, c, stride: stride)
            sumLanes[c] = UnsafePointer(sumWriteLanes[c])
            sideWriteLanes[c] = lane(sideSum, c, stride: stride)
            for s in 0..<slots {
                outLanes[s &* lanes &+ c] = lane(outputs + buffers[s] &* channels &* maxFrames, c, stride: stride)
                readLanes[s &* lanes &+ c] = UnsafePointer(outLanes[s &* lanes &+ c])
            }
        }
    }

    /// Silence in every delay's history (the engine's `reset`).
    func clear(channels: Int) {
        for e in 0..<edgeCount where edges[e].delay > 0 {
            edges[e].history?.update(repeating: 0, count: edges[e].delay * channels)
        }
    }

    func deallocate() {
        for e in 0..<edgeCount { edges[e].history?.deallocate() }
        for p in [UnsafeMutableRawPointer(edges), UnsafeMutableRawPointer(mainFirst), UnsafeMutableRawPointer(mainCount),
                  UnsafeMutableRawPointer(sideFirst), UnsafeMutableRawPointer(sideCount), UnsafeMutableRawPointer(outputs),
                  UnsafeMutableRawPointer(outLanes), UnsafeMutableRawPointer(readLanes), UnsafeMutableRawPointer(sum),
                  UnsafeMutableRawPointer(sumLanes), UnsafeMutableRawPointer(sumWriteLanes),
                  UnsafeMutableRawPointer(sideSum), UnsafeMutableRawPointer(sideWriteLanes),
                  UnsafeMutableRawPointer(namedLanes), UnsafeMutableRawPointer(buffers)] {
            p.deallocate()
        }
        namedStrides.deallocate()
    }
}

extension RenderState {
    /// Renders frames `start..<end` of the current chunk through a graph: each slot in turn
    /// takes its sources (one undelayed source in place; several, or a delayed one, summed,
    /// each delayed to line up), runs (with its bypass and mix, as a chain's slot does) into
    /// its own buffer, and the output is the sum of the output's sources. Returns true when an
    /// input held non-finite samples.
    @_noLocks
    mutating func renderGraphSegment(_ g: GraphLayout, from start: Int, to end: Int, blockStart: Int64) -> Bool {
        // In pieces of a plug-in's longest run, from the segment's start (where an external
        // kernel's runs are cut anyway): every slot's buffers for a piece stay in the cache
        // while the next slot and the output read them.
        var nonFinite = false
        var from = start
        while from < end {
            let to = min(end, from + kernelFrames)
            if renderGraphPiece(g, from: from, to: to, blockStart: blockStart) { nonFinite = true }
            from = to
        }
        return nonFinite
    }

    @_noLocks
    private mutating func renderGraphPiece(_ g: GraphLayout, from start: Int, to end: Int, blockStart: Int64) -> Bool {
        var nonFinite = false
        let step = stride
        for s in 0..<slotCount {
            var input = g.sumLanes
            let first = g.mainFirst[s]
            if g.mainCount[s] == 1, g.edges[first].delay == 0, g.edges[first].source >= -1, g.edges[first].steady {
                // One source, in time: read in place (a kernel makes its input finite itself).
                let source = g.edges[first].source
                input = source >= 0 ? g.readLanes + source &* g.lanes : laneIn
            } else if gather(g, first: first, count: g.mainCount[s], into: g.sumWriteLanes, stride: step, from: start, to: end) {
                nonFinite = true
            }
            if g.sideCount[s] > 0 {
                if gather(g, first: g.sideFirst[s], count: g.sideCount[s], into: g.sideWriteLanes, stride: step, from: start, to: end) {
                    nonFinite = true
                }
                sideStrides[s] = step
                for c in 0..<channels { sideLanes[s &* channels &+ c] = UnsafePointer(g.sideWriteLanes[c]) }
            }
            // Into its own buffer, as a chain's slot runs (the output is metered after the sum).
            let lanes = Lanes(input: input, output: g.outLanes + s &* g.lanes, stride: step, channels: channels)
            if renderPlaced(s, lanes, from: start, to: end, blockStart: blockStart, passesInput: true, meters: nil).nonFinite {
                nonFinite = true
            }
        }
        if g.outputReadsInput {
            // Gathered apart, then written: the output may be the input's own memory.
            if gather(g, first: g.outputFirst, count: g.outputCount, into: g.sumWriteLanes, stride: step, from: start, to: end) {
                nonFinite = true
            }
            for c in 0..<channels {
                let src = g.sumLanes[c], dst = laneOut[c]
                for i in start..<end { dst[i &* step] = src[i &* step] }
            }
        } else if sumAndMeterOutput(g, from: start, to: end) {
            return nonFinite
        } else if gather(g, first: g.outputFirst, count: g.outputCount, into: laneOut, stride: step, from: start, to: end) {
            nonFinite = true
        }
        meterOutput(from: start, to: end)
        return nonFinite
    }

    /// The output of one or two slots in time (the usual graph: branches that meet at the
    /// end), summed and metered in one pass. Returns false, doing nothing, for any other.
    @_noLocks
    private mutating func sumAndMeterOutput(_ g: GraphLayout, from start: Int, to end: Int) -> Bool {
        let first = g.outputFirst, count = g.outputCount
        guard count == 1 || count == 2 else { return false }
        for e in first..<(first + count) where g.edges[e].delay != 0 || g.edges[e].source < 0 || !g.edges[e].steady { return false }
        let a = g.edges[first].source, b = g.edges[first + count - 1].source
        let step = stride
        for c in 0..<channels {
            let x = g.readLanes[a &* g.lanes &+ c], out = laneOut[c]
            var squares: Float = 0, peak = blockPeaks[c]
            if count == 2 {
                let y = g.readLanes[b &* g.lanes &+ c]
                for i in start..<end {
                    let j = i &* step
                    let v = x[j] + y[j]
                    out[j] = v
                    squares += v * v
                    peak = max(peak, v * v)
                }
            } else {
                for i in start..<end {
                    let j = i &* step
                    let v = x[j]
                    out[j] = v
                    squares += v * v
                    peak = max(peak, v * v)
                }
            }
            blockPeaks[c] = peak
            sumOfSquares[c] += Double(squares)
        }
        return true
    }

    /// Sums edges `first..<first + count` over `start..<end` into the lanes `dst` (laid out
    /// with `stride`), each through its delay: the first written, the others added. Samples
    /// from the graph's inputs are made finite and limited as every kernel takes them (a
    /// slot's output is so already). Returns true when one was not finite.
    @_noLocks
    private func gather(_ g: GraphLayout, first: Int, count: Int, into dst: UnsafeMutablePointer<UnsafeMutablePointer<Float>>,
                        stride dstStride: Int, from start: Int, to end: Int) -> Bool {
        var nonFinite = false
        let limit = Self.inputLimit
        if count == 0 {
            for c in 0..<channels {
                for i in start..<end { dst[c][i &* dstStride] = 0 }
            }
            return false
        }
        for e in first..<(first + count) {
            let edge = g.edges[e]
            let adding = e != first
            guard edge.steady else {
                if gatherFading(g, edge: e, adding: adding, into: dst, stride: dstStride, from: start, to: end) { nonFinite = true }
                continue
            }
            let fromInput = edge.source < 0
            for c in 0..<channels {
                let (src, step) = source(g, edge, channel: c)
                let out = dst[c]
                let delay = edge.delay
                guard delay > 0, let base = edge.history else {
                    if !fromInput {
                        if adding {
                            for i in start..<end { out[i &* dstStride] += src[i &* step] }
                        } else {
                            for i in start..<end { out[i &* dstStride] = src[i &* step] }
                        }
                        continue
                    }
                    for i in start..<end {
                        var x = src[i &* step]
                        if x.isFinite { x = min(max(x, -limit), limit) } else { x = 0; nonFinite = true }
                        if adding { out[i &* dstStride] += x } else { out[i &* dstStride] = x }
                    }
                    continue
                }
                let history = base + c * delay
                for i in start..<end {
                    let back = i - start - delay
                    var x = back >= 0 ? src[(start + back) &* step] : history[delay + back]
                    if x.isFinite { x = min(max(x, -limit), limit) } else { x = 0; nonFinite = true }
                    if adding { out[i &* dstStride] += x } else { out[i &* dstStride] = x }
                }
                Self.remember(src, stride: step, from: start, to: end, in: history, length: delay)
            }
        }
        return nonFinite
    }

    /// Where edge `edge`'s source is read for channel `c`, and its stride.
    @_noLocks @inline(__always)
    private func source(_ g: GraphLayout, _ edge: GraphLayout.Edge, channel c: Int) -> (UnsafePointer<Float>, Int) {
        if edge.source >= 0 { return (g.readLanes[edge.source &* g.lanes &+ c], stride) }
        if edge.source == -1 { return (laneIn[c], stride) }
        let k = -edge.source - 2
        return (g.namedLanes[k &* channels &+ c], g.namedStrides[k])
    }

    /// ``gather``'s way for a connection fading in or out (a live edit): each sample made
    /// finite and limited, delayed, and scaled by the square of the equal-power gain at the
    /// connection's presence, which moves a frame at a time toward its target.
    @_noLocks
    private func gatherFading(_ g: GraphLayout, edge e: Int, adding: Bool, into dst: UnsafeMutablePointer<UnsafeMutablePointer<Float>>,
                              stride dstStride: Int, from start: Int, to end: Int) -> Bool {
        let edge = g.edges[e]
        let limit = Self.inputLimit
        let step = edge.target > edge.presence ? 1 : (edge.target < edge.presence ? -1 : 0)
        var nonFinite = false
        var k = edge.presence
        for c in 0..<channels {
            let (src, srcStride) = source(g, edge, channel: c)
            let out = dst[c]
            let delay = edge.delay
            let history = delay > 0 ? edge.history.map { $0 + c * delay } : nil
            k = edge.presence
            for i in start..<end {
                var x: Float
                if let history {
                    let back = i - start - delay
                    x = back >= 0 ? src[(start + back) &* srcStride] : history[delay + back]
                } else {
                    x = src[i &* srcStride]
                }
                if x.isFinite { x = min(max(x, -limit), limit) } else { x = 0; nonFinite = true }
                let gain = fadeGains[k]
                x *= gain * gain
                if adding { out[i &* dstStride] += x } else { out[i &* dstStride] = x }
                if k != edge.target { k += step }
            }
            if let history { Self.remember(src, stride: srcStride, from: start, to: end, in: history, length: delay) }
        }
        g.edges[e].presence = k
        return nonFinite
    }
}
