import KnobKit

/// How far a drag must go, set for each knob as it is grabbed: from the size it is drawn at
/// and the unit the terminal reports the pointer in.
///
/// Cell reports come a whole row at a time, and with KnobKit's default travel of 8 rows a row
/// is 12.5 % of the range — far coarser than the values a knob shows. So the travel follows
/// the drawn knob (4 rows of drag for every 3 rows of knob, 8 for the standard 6), and the
/// slowest sideways speed is set so that one row there moves less than the smallest step
/// between two values the knob displays: a drag without modifiers, moved out sideways, can
/// land on every displayed value. The speed falls geometrically on the way out, so each
/// column sideways is a speed of its own.
extension Panel {
    /// The fewest rows of drag for the whole range, whatever the knob's size.
    static let minimumTravelRows = 8.0

    /// Sets knob `index`'s drag travel and slowest speed before a drag on it starts.
    func prepareDrag(_ index: Int) {
        let rows = layout.style == .full ? Double(layout.slot(of: index)?.art.height ?? 0) : 0
        let travel = max(Self.minimumTravelRows, rows * 4 / 3)
        knobs[index].behavior.travelCells = travel
        if let size = cellPixels, size.height > 0 {
            knobs[index].behavior.travelPixels = travel * Double(size.height)
        }
        let gap = displayGap(index)
        // One row at the slowest speed moves at most half the smallest displayed step.
        knobs[index].behavior.minimumSpeed = min(max(gap / 2 * travel, 1e-5), knobs[index].behavior.minimumSpeed)
        knobs[index].behavior.speedFalloff = .geometric
    }

    /// The smallest distance (normalised) between two neighbouring values knob `index`
    /// displays, found once by sampling its text along the range, then kept.
    func displayGap(_ index: Int) -> Double {
        if let gap = displayGaps[index] { return gap }
        let knob = knobs[index]
        let samples = 8192
        var gap = 1.0
        var runStart = 0.0
        var previous = knob.scale.format(knob.scale.value(atNormalized: 0), ascii: true)
        for i in 1...samples {
            let p = Double(i) / Double(samples)
            let text = knob.scale.format(knob.scale.value(atNormalized: p), ascii: true)
            guard text != previous else { continue }
            // A run of one text between two changes is one displayed step (the first run,
            // cut by the range's start, is not).
            if runStart > 0 { gap = min(gap, p - runStart) }
            runStart = p
            previous = text
        }
        gap = max(gap, 1 / Double(samples))
        displayGaps[index] = gap
        return gap
    }
}
