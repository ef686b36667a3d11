/// A graph's wiring as the audio thread reads it (``GraphRouting`` made into raw memory at
/// `prepare`; a chain's is the graph of its line, so every rig renders one way): the
/// connections with their compensating delays, each slot's output buffer, the sums its inputs
/// are gathered into, and the named inputs' lanes. Nothing here is allocated or freed while
/// audio runs.
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
        var steady: Bool { @_noLocks get { presence == full && target == full } }
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
    /// The buffers slots write (`channels × maxFrames` each), and which one each slot writes
    /// (−1: the caller's output): a buffer is handed to a later slot once every slot that
    /// reads it has run, so a graph holds as many as it has signals alive at once (its widest
    /// cut), not one per slot (``buffers(_:latencies:)``).
    var buffers: UnsafeMutablePointer<Int>
    let bufferCount: Int
    /// Per slot, true when it writes the very memory it reads (its one source's buffer,
    /// handed on to it): it runs in place, as every slot of a chain after the first does.
    var inPlace: UnsafeMutablePointer<Bool>
    /// The slot the output is when it writes the caller's output itself (the output's one
    /// source, in time: a chain's last slot), or −1.
    let direct: Int
    /// Per slot, true when its output goes to the next slot alone, in time, and is that slot's
    /// only main input: the two may run as one (``RenderState/renderChained``).
    var feedsNext: UnsafeMutablePointer<Bool>
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
    /// `fades` says whether its connections can fade in and out (a graph edited live; a chain,
    /// edited by its slots' own fades, never): where no slot ever sums, the sums take no memory.
    init(_ routing: GraphRouting, latencies: [Int], channels: Int, maxFrames: Int, fadeFrames: Int, fades: Bool,
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
        let (assignment, count) = Self.buffers(routing, latencies: latencies)
        bufferCount = count
        buffers = .allocate(capacity: max(1, slots))
        buffers.initialize(from: assignment, count: assignment.count)
        let placed = Self.placement(routing, assignment: assignment)
        inPlace = .allocate(capacity: max(1, slots))
        inPlace.initialize(from: placed.inPlace, count: slots)
        direct = placed.direct
        feedsNext = .allocate(capacity: max(1, slots))
        feedsNext.initialize(from: Self.handOns(routing, edges: list, mainFirst: mainFirst), count: slots)
        // Where nothing is ever summed (one source per slot, in time, steady), the sums are unused.
        let (mains, sides) = (mainCount, sideCount)
        let sums = fades || list.contains { $0.delay > 0 } || (0..<slots).contains { mains[$0] != 1 } || direct < 0
        let sideSums = (0..<slots).contains { sides[$0] > 0 }
        outputs = .filled(max(1, count * channels * maxFrames), with: 0)
        outLanes = .filled(max(1, slots * lanes), with: sink)
        readLanes = .filled(max(1, slots * lanes), with: silence)
        sum = .filled(sums ? channels * maxFrames : channels, with: 0)
        sumLanes = .filled(lanes, with: silence)
        sumWriteLanes = .filled(lanes, with: sink)
        sideSum = .filled(sideSums ? channels * maxFrames : channels, with: 0)
        sideWriteLanes = .filled(channels, with: sideSum)
        namedCount = routing.inputs.count - 1
        namedLanes = .filled(max(1, namedCount * channels), with: silence)
        namedStrides = .filled(max(1, namedCount), with: 1)
        self.sums = sums
        self.sideSums = sideSums
        self.sink = sink
        bind(stride: 1, output: nil)
    }

    /// False when ``sum`` (``sideSum``) is too small to sum into: no slot ever needs it.
    let sums: Bool
    let sideSums: Bool
    /// Where the lanes of slots that write the caller's output point until it is given.
    let sink: UnsafeMutablePointer<Float>

    /// Which buffer each slot of `routing` writes (−1: the caller's output), and how many
    /// there are. Slots run in order; a slot's buffer is free again once the last slot
    /// reading it (through its main or side inputs) has run, and never while the output still
    /// reads it. A slot whose one main source, in time, is read by it alone takes that
    /// source's buffer on and runs in place; the output's one source, in time, writes the
    /// caller's output, with the slots whose buffers it took on, once no later slot reads the
    /// main input (which may be the output's own memory). A line of slots is a chain: every
    /// slot in the caller's output, no buffer at all; parallel branches take one each.
    static func buffers(_ routing: GraphRouting, latencies given: [Int]? = nil) -> (assignment: [Int], count: Int) {
        let slots = routing.main.count
        let latencies = given ?? [Int](repeating: 0, count: slots)
        let arrivals = routing.arrivals(latencies: latencies)
        // The last slot that reads each slot's output (Int.max: the output reads it).
        var lastReader = Array(0..<slots)
        for reader in 0..<slots {
            for source in routing.main[reader] + routing.side[reader] {
                if case .slot(let s) = source { lastReader[s] = max(lastReader[s], reader) }
            }
        }
        for source in routing.output { if case .slot(let s) = source { lastReader[s] = .max } }
        // The slot whose buffer each slot takes on, or −1.
        var continues = [Int](repeating: -1, count: slots)
        for s in 0..<slots {
            guard routing.main[s].count == 1, case .slot(let t) = routing.main[s][0], lastReader[t] == s,
                  routing.delay(from: .slot(t), arrival: arrivals.slots[s], arrivals: arrivals.slots, latencies: latencies) == 0
            else { continue }
            continues[s] = t
        }
        // The run of slots that ends in the output's one source writes the caller's output.
        var direct = Set<Int>()
        if routing.output.count == 1, case .slot(let last) = routing.output[0] {
            var run = [last]
            while continues[run[run.count - 1]] >= 0 { run.append(continues[run[run.count - 1]]) }
            let first = run[run.count - 1]
            let readsInputLater = ((first + 1)..<slots).contains { reader in
                (routing.main[reader] + routing.side[reader]).contains(.input(0))
            }
            if !readsInputLater { direct = Set(run) }
        }
        var assignment = [Int](repeating: 0, count: slots)
        var free: [Int] = []
        var count = 0
        let carried = Set(continues.filter { $0 >= 0 })
        for s in 0..<slots {
            // Handed back: buffers whose every reader ran before this slot (and not taken on).
            for t in 0..<s where lastReader[t] == s - 1 && !carried.contains(t) && assignment[t] >= 0 { free.append(assignment[t]) }
            free.sort(by: >)
            if direct.contains(s) {
                assignment[s] = -1
            } else if continues[s] >= 0 {
                assignment[s] = assignment[continues[s]]
            } else if let reused = free.popLast() {
                assignment[s] = reused
            } else {
                assignment[s] = count
                count += 1
            }
        }
        return (assignment, count)
    }

    /// Per slot of `routing`, whether its output is read by the next slot alone, as that
    /// slot's one main source, undelayed (`edges` laid out from `mainFirst`).
    static func handOns(_ routing: GraphRouting, edges: [Edge], mainFirst: UnsafeMutablePointer<Int>) -> [Bool] {
        let slots = routing.main.count
        var readers = [Int](repeating: 0, count: slots)
        for sources in routing.main + routing.side + [routing.output] {
            for case .slot(let t) in sources { readers[t] += 1 }
        }
        return (0..<slots).map { s in
            guard s + 1 < slots, readers[s] == 1, routing.main[s + 1] == [.slot(s)] else { return false }
            return edges[mainFirst[s + 1]].delay == 0
        }
    }

    /// Per slot of `routing`, whether it runs in place (``inPlace``), and the slot that writes
    /// the caller's output as the output's one source (``direct``), from `assignment`.
    static func placement(_ routing: GraphRouting, assignment: [Int]) -> (inPlace: [Bool], direct: Int) {
        let inPlace = routing.main.indices.map { s in
            if routing.main[s].count == 1, case .slot(let t) = routing.main[s][0] { assignment[s] == assignment[t] } else { false }
        }
        if routing.output.count == 1, case .slot(let last) = routing.output[0], assignment[last] == -1 { return (inPlace, last) }
        return (inPlace, -1)
    }

    /// Channel `c` of a `channels × maxFrames` buffer laid out for `stride`.
    @_noLocks @inline(__always)
    func lane(_ base: UnsafeMutablePointer<Float>, _ c: Int, stride: Int) -> UnsafeMutablePointer<Float> {
        stride == 1 ? base + c &* maxFrames : base + c
    }

    /// Lays the buffers out as the caller's lanes are: `stride` 1 (channel after channel) or
    /// the channel count (interleaved); the slots that write the caller's output write
    /// `output`'s lanes (the sink until it is given).
    @_noLocks
    func bind(stride: Int, output: UnsafePointer<UnsafeMutablePointer<Float>>?) {
        for c in 0..<channels {
            if sums {
                sumWriteLanes[c] = lane(sum, c, stride: stride)
                sumLanes[c] = UnsafePointer(sumWriteLanes[c])
            }
            if sideSums { sideWriteLanes[c] = lane(sideSum, c, stride: stride) }
            for s in 0..<slots {
                let b = buffers[s]
                outLanes[s &* lanes &+ c] = b >= 0 ? lane(outputs + b &* channels &* maxFrames, c, stride: stride) : output?[c] ?? sink
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
                  UnsafeMutableRawPointer(namedLanes), UnsafeMutableRawPointer(buffers), UnsafeMutableRawPointer(inPlace)] {
            p.deallocate()
        }
        namedStrides.deallocate()
        feedsNext.deallocate()
    }
}

extension RenderState {
    /// Renders frames `start..<end` of the current chunk through a graph: each slot in turn
    /// takes its sources (one undelayed source in place; several, or a delayed one, summed,
    /// each delayed to line up), runs (with its bypass and mix) into its buffer, and the
    /// output is the sum of the output's sources — or, where the output's one source wrote
    /// the caller's output itself (a chain's last slot), already there. The output is metered
    /// when `metering`. Returns true when an input held non-finite samples.
    @_noLocks
    mutating func renderGraphSegment(_ g: GraphLayout, from start: Int, to end: Int, blockStart: Int64, metering: Bool) -> Bool {
        // In pieces of a plug-in's longest run, from the segment's start (where an external
        // kernel's runs are cut anyway): every slot's buffers for a piece stay in the cache
        // while the next slot and the output read them.
        var nonFinite = false
        var from = start
        while from < end {
            let to = min(end, from + kernelFrames)
            if renderGraphPiece(g, from: from, to: to, blockStart: blockStart, metering: metering) { nonFinite = true }
            from = to
        }
        return nonFinite
    }

    @_noLocks
    private mutating func renderGraphPiece(_ g: GraphLayout, from start: Int, to end: Int, blockStart: Int64, metering: Bool) -> Bool {
        var nonFinite = false
        let step = stride
        // The output's own slot meters what it writes, as a processor alone does, unless a
        // fade of its connection to the output changes it afterwards.
        let meters = Meters(sums: sumOfSquares, peaks: blockPeaks)
        let metersDirect = metering && g.direct >= 0 && g.edges[g.outputFirst].steady
        var s = 0
        while s < slotCount {
            defer { s += 1 }
            var input = g.sumLanes
            var readsOwn = false
            let first = g.mainFirst[s]
            if g.mainCount[s] == 1, g.edges[first].delay == 0, g.edges[first].source >= -1, g.edges[first].steady {
                // One source, in time: read in place (a kernel makes its input finite itself).
                let source = g.edges[first].source
                input = source >= 0 ? g.readLanes + source &* g.lanes : laneIn
                readsOwn = source >= 0 && g.inPlace[s]
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
            // Isolated slots of one sandbox in a row: one request for them all, into the last's buffer.
            let last = chainEnd(from: s, g, from: start, to: end, blockStart: blockStart)
            if last > s {
                let here = metersDirect && last == g.direct
                let lanes = Lanes(input: input, output: g.outLanes + last &* g.lanes, stride: step, channels: channels)
                if let chainedNonFinite = renderChained(s, through: last, lanes, from: start, to: end, blockStart: blockStart,
                                                        meters: here ? meters : nil) {
                    if chainedNonFinite { nonFinite = true }
                    s = last
                    continue
                }
            }
            // Into its buffer, as a chain's slot runs; one that reads its own buffer has its
            // input there already when it is out.
            let here = metersDirect && s == g.direct
            let lanes = Lanes(input: input, output: g.outLanes + s &* g.lanes, stride: step, channels: channels)
            let ran = renderPlaced(s, lanes, from: start, to: end, blockStart: blockStart, passesInput: !readsOwn,
                                   meters: here ? meters : nil)
            if ran.nonFinite { nonFinite = true }
            if here && ran.remeter { meterOutput(from: start, to: end) }
        }
        if g.direct >= 0 {
            // Already in the caller's output; a fading connection to it scales it there.
            if !g.edges[g.outputFirst].steady {
                if gather(g, first: g.outputFirst, count: 1, into: laneOut, stride: step, from: start, to: end) { nonFinite = true }
                if metering { meterOutput(from: start, to: end) }
            }
            return nonFinite
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
        } else if metering && sumAndMeterOutput(g, from: start, to: end) {
            return nonFinite
        } else if gather(g, first: g.outputFirst, count: g.outputCount, into: laneOut, stride: step, from: start, to: end) {
            nonFinite = true
        }
        if metering { meterOutput(from: start, to: end) }
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

extension UnsafeMutablePointer {
    /// `count` new elements, each `value` (made at `prepare`, never on the audio thread).
    static func filled(_ count: Int, with value: Pointee) -> UnsafeMutablePointer<Pointee> {
        let memory = UnsafeMutablePointer<Pointee>.allocate(capacity: count)
        memory.initialize(repeating: value, count: count)
        return memory
    }
}
