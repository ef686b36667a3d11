/// Consecutive slots run as one: isolated slots of one sandbox, each fed only by the one before
/// it, are run on one request to the sandbox's process (``ExternalKernel/RunChained``), which
/// hands each output on as ``renderExternal`` and the next slot's input would. A process woken
/// once a period for the run, not once per slot: that wake-up is most of what isolation costs.
///
/// Only a run that plays plainly is chained: every slot in, steady, at 100 % wet, not
/// bypassing, with no latency to keep a dry path for, no side signal, its controls still over
/// the piece (no glide to cut its runs), not padding a stream's end. Anything else, and a run
/// its kernels cannot take now (a slot starting, fading in or failed), runs slot by slot.
extension RenderState {
    /// The last slot of the run that can be chained from slot `s` in this piece (`s` when none):
    /// each next slot fed by the one before alone, in the same sandbox, and every one of them
    /// playing plainly.
    @_noLocks
    func chainEnd(from s: Int, _ g: GraphLayout, from start: Int, to end: Int, blockStart: Int64) -> Int {
        guard case .external(let first) = slots[s].kernel, first.runChained != nil else { return s }
        let group = UInt(bitPattern: first.chainGroup)
        var last = s
        while group != 0, last + 1 < slotCount, g.feedsNext[last], g.edges[g.mainFirst[last + 1]].steady,
              case .external(let next) = slots[last + 1].kernel, UInt(bitPattern: next.chainGroup) == group,
              plays(last + 1, from: start, blockStart: blockStart) {
            last += 1
        }
        return last > s && plays(s, from: start, blockStart: blockStart) ? last : s
    }

    /// Whether slot `s` plays plainly over a piece from `start` (see the type's note): in and
    /// steady, not blended or crossfaded, no latency or side signal, its controls not cutting
    /// its run.
    @_noLocks
    private func plays(_ s: Int, from start: Int, blockStart: Int64) -> Bool {
        let slot = slots[s]
        guard case .external(let kernel) = slot.kernel, kernel.side == nil, slot.latency == 0,
              slot.presence == fadeFrames, slot.presenceTarget == fadeFrames, !(slot.padsEnd && streamEnds),
              !blends(s), !crossfades(s) else { return false }
        guard !slot.whole else { return true }
        let frame = blockStart + Int64(start)
        for p in slot.base..<(slot.base + slot.count) {
            if smoothers[p].isRamping || (controls[p] != controlValue(p, of: slot) && frame & info[p].controlMask != 0) { return false }
        }
        return true
    }

    /// Slots `s...last` over `start..<end` as one (``chainEnd``), from `lanes.input` into
    /// `lanes.output`; `meters` meters the last's output. Returns nil when the kernels could
    /// not run together (each then runs alone: the caller goes on slot by slot, nothing
    /// having changed that a slot's own run does not set again), or whether the input held
    /// non-finite samples.
    @_noLocks
    mutating func renderChained(_ s: Int, through last: Int, _ lanes: Lanes, from start: Int, to end: Int, blockStart: Int64,
                                meters: Meters?) -> Bool? {
        guard case .external(let first) = slots[s].kernel, let runChained = first.runChained else { return nil }
        let frames = end - start
        var nonFinite = false
        for c in 0..<channels {
            if SampleScans.copyIn(from: lanes.input[c] + start &* lanes.stride, stride: lanes.stride, to: scratchIn + c * maxFrames,
                                  count: frames, limit: Self.inputLimit) {
                nonFinite = true
            }
            externalIn[c] = UnsafePointer(scratchIn + c * maxFrames)
            externalOut[c] = scratchOut + c * maxFrames
        }
        let frame = blockStart + Int64(start)
        for k in s...last {
            let slot = slots[k]
            guard case .external(let kernel) = slot.kernel else { return nil }
            // The values a run from here takes, as ``renderExternal`` sets them.
            for p in slot.base..<(slot.base + slot.count) where slot.whole || frame & info[p].controlMask == 0 {
                controls[p] = controlValue(p, of: slot)
            }
            chainContexts[k - s] = kernel.context
            chainControls[k - s] = UnsafePointer(controls + slot.base)
        }
        let count = last - s + 1
        let inputs = UnsafePointer(externalIn), outputs = UnsafePointer(externalOut)
        let contexts = UnsafePointer(chainContexts), controlTable = UnsafePointer(chainControls)
        let channels = self.channels, reports = chainReports
        let ran = _unsafePerformance { runChained(contexts, controlTable, count, inputs, outputs, channels, frames, reports) }
        guard ran == 1 else { return nil }
        for k in s...last {
            for p in slots[k].base..<(slots[k].base + slots[k].count) { smoothers[p].skip(frames) }
            let absurd = min(max(reports[k - s], 0), Int64(frames))
            slots[k].absurdFrames &+= absurd
            sanitizedOutput &+= absurd * Int64(channels)
        }
        sanitizedOutput &+= max(reports[count], 0)
        // Out: scratch → lanes, metered, a denormal made silence, as any slot's output.
        var sanitized: Int64 = 0
        for c in 0..<channels {
            var squares: Float = 0, peak: Float = meters?.peaks[c] ?? 0
            sanitized &+= SampleScans.copyOut(from: scratchOut + c * maxFrames, to: lanes.output[c] + start &* lanes.stride,
                                              stride: lanes.stride, count: frames, squares: &squares, peak: &peak)
            if let meters {
                meters.peaks[c] = peak
                meters.sums[c] += Double(squares)
            }
        }
        sanitizedOutput &+= sanitized
        return nonFinite
    }
}
