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
    /// Every slot's output (`channels × maxFrames` each) and the lanes pointing at it,
    /// `lanes` per slot: the channels padded to whole groups of four, as the built-in kernel
    /// reads them, the padding writing to the engine's sink (and the sum's reading silence).
    var outputs: UnsafeMutablePointer<Float>
    var outLanes: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    var lanes: Int
    /// Where a slot's main inputs (and the output) are summed, and its side-chain inputs.
    var sum: UnsafeMutablePointer<Float>
    var sumLanes: UnsafeMutablePointer<UnsafePointer<Float>>
    var sideSum: UnsafeMutablePointer<Float>
    /// The named inputs' lanes in the current chunk (silence when the caller gave none).
    var namedCount: Int
    var namedLanes: UnsafeMutablePointer<UnsafePointer<Float>>
    var namedStrides: UnsafeMutablePointer<Int>

    /// The layout of `routing` for slots of `latencies`, in `channels` channels of chunks of
    /// up to `maxFrames`, named inputs reading `silence` until bound.
    init(_ routing: GraphRouting, latencies: [Int], channels: Int, maxFrames: Int, silence: UnsafePointer<Float>,
         sink: UnsafeMutablePointer<Float>) {
        let lanes = (channels + 3) / 4 * 4
        self.lanes = lanes
        let slots = routing.main.count
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
                list.append(Edge(source: code, delay: delay, history: history))
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
        edgeCount = list.count
        edges = .allocate(capacity: max(1, list.count))
        edges.initialize(from: list, count: list.count)
        outputs = .allocate(capacity: max(1, slots * channels * maxFrames))
        outputs.initialize(repeating: 0, count: max(1, slots * channels * maxFrames))
        outLanes = .allocate(capacity: max(1, slots * lanes))
        for s in 0..<slots {
            for c in 0..<lanes { (outLanes + s * lanes + c).initialize(to: c < channels ? outputs + (s * channels + c) * maxFrames : sink) }
        }
        sum = .allocate(capacity: channels * maxFrames)
        sum.initialize(repeating: 0, count: channels * maxFrames)
        sumLanes = .allocate(capacity: lanes)
        for c in 0..<lanes { (sumLanes + c).initialize(to: c < channels ? UnsafePointer(sum + c * maxFrames) : silence) }
        sideSum = .allocate(capacity: channels * maxFrames)
        sideSum.initialize(repeating: 0, count: channels * maxFrames)
        namedCount = routing.inputs.count - 1
        namedLanes = .allocate(capacity: max(1, namedCount * channels))
        namedLanes.initialize(repeating: silence, count: max(1, namedCount * channels))
        namedStrides = .allocate(capacity: max(1, namedCount))
        namedStrides.initialize(repeating: 1, count: max(1, namedCount))
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
                  UnsafeMutableRawPointer(outLanes), UnsafeMutableRawPointer(sum), UnsafeMutableRawPointer(sumLanes),
                  UnsafeMutableRawPointer(sideSum), UnsafeMutableRawPointer(namedLanes)] {
            p.deallocate()
        }
        namedStrides.deallocate()
    }
}

extension RenderState {
    /// Renders frames `start..<end` of the current chunk through a graph: each slot in turn
    /// takes the sum of its sources (each delayed to line up), runs (with its bypass and mix,
    /// as a chain's slot does) into its own buffer, and the output is the sum of the output's
    /// sources. Returns true when an input held non-finite samples.
    @_noLocks
    mutating func renderGraphSegment(_ g: GraphLayout, from start: Int, to end: Int, blockStart: Int64) -> Bool {
        var nonFinite = false
        for s in 0..<slotCount {
            if gather(g, first: g.mainFirst[s], count: g.mainCount[s], into: g.sum, from: start, to: end) { nonFinite = true }
            if g.sideCount[s] > 0 {
                if gather(g, first: g.sideFirst[s], count: g.sideCount[s], into: g.sideSum, from: start, to: end) { nonFinite = true }
                sideStrides[s] = 1
                for c in 0..<channels { sideLanes[s &* channels &+ c] = UnsafePointer(g.sideSum + c * maxFrames) }
            }
            let lanes = Lanes(input: g.sumLanes, output: g.outLanes + s * g.lanes, stride: 1, channels: channels)
            if renderWithDry(s, lanes, from: start, to: end, blockStart: blockStart, meters: nil).nonFinite { nonFinite = true }
        }
        // Gathered apart, then written: the output may be the input's own memory, which the
        // output's sources (the input itself, a dry path) read.
        if gather(g, first: g.outputFirst, count: g.outputCount, into: g.sum, from: start, to: end) { nonFinite = true }
        for c in 0..<channels {
            let src = g.sum + c * maxFrames, dst = laneOut[c]
            for i in start..<end { dst[i &* stride] = src[i] }
        }
        meterOutput(from: start, to: end)
        return nonFinite
    }

    /// Sums edges `first..<first + count` over `start..<end` into `dst` (`channels × maxFrames`),
    /// each through its delay, its samples made finite and limited as every kernel takes them.
    /// Returns true when one was not finite.
    @_noLocks
    private func gather(_ g: GraphLayout, first: Int, count: Int, into dst: UnsafeMutablePointer<Float>,
                        from start: Int, to end: Int) -> Bool {
        var nonFinite = false
        let limit = Self.inputLimit
        for c in 0..<channels { (dst + c * maxFrames + start).update(repeating: 0, count: end - start) }
        for e in first..<(first + count) {
            let edge = g.edges[e]
            for c in 0..<channels {
                let src: UnsafePointer<Float>, step: Int
                if edge.source >= 0 {
                    src = UnsafePointer(g.outLanes[edge.source &* g.lanes &+ c])
                    step = 1
                } else if edge.source == -1 {
                    src = laneIn[c]
                    step = stride
                } else {
                    let k = -edge.source - 2
                    src = g.namedLanes[k &* channels &+ c]
                    step = g.namedStrides[k]
                }
                let out = dst + c * maxFrames
                let delay = edge.delay
                guard delay > 0, let base = edge.history else {
                    for i in start..<end {
                        let x = src[i &* step]
                        if x.isFinite { out[i] += min(max(x, -limit), limit) } else { nonFinite = true }
                    }
                    continue
                }
                let history = base + c * delay
                for i in start..<end {
                    let back = i - start - delay
                    let x = back >= 0 ? src[(start + back) &* step] : history[delay + back]
                    if x.isFinite { out[i] += min(max(x, -limit), limit) } else { nonFinite = true }
                }
                let n = end - start
                if n >= delay {
                    for j in 0..<delay { history[j] = src[(end - delay + j) &* step] }
                } else {
                    for j in 0..<(delay - n) { history[j] = history[j + n] }
                    for j in 0..<n { history[delay - n + j] = src[(start + j) &* step] }
                }
            }
        }
        return nonFinite
    }
}
