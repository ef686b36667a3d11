import KnobKit

/// Draws a knob from KnobKit's geometry: the arc (track, progress, ticks, indicator) in
/// braille or ASCII, and the one-line bar of the compact layout.
///
/// Nothing here decides where the needle is or where progress starts: the knob's
/// ``KnobKit/Knob/geometry(at:)`` (and its shown and origin positions for the bar) answer
/// that, animations and bipolar origins included. The painter only scales the unit circle to
/// cells and picks characters.
public enum KnobPainter {
    /// The arc's box in cells: 14 × 6 cells are 28 × 24 braille dots, room for a round arc of
    /// radius 13 dots whose gap points down (it reaches 13 · cos 45° ≈ 9.2 dots below the centre).
    public static let artColumns = 14
    public static let artRows = 6

    /// A knob's box in cells. The standard 14 × 6 is the smallest; a larger window draws
    /// larger knobs of the same shape (``ArtSize/init(rows:)``), every length scaled alike.
    public struct ArtSize: Sendable, Hashable {
        public let columns: Int
        public let rows: Int

        /// The box `rows` high (at least the standard 6) and as wide as the standard's shape.
        public init(rows: Int) {
            self.rows = max(rows, KnobPainter.artRows)
            columns = Int((Double(self.rows) * Double(KnobPainter.artColumns) / Double(KnobPainter.artRows)).rounded())
        }

        public static let standard = ArtSize(rows: KnobPainter.artRows)

        /// How much larger than the standard.
        var scale: Double { Double(rows) / Double(KnobPainter.artRows) }

        /// Braille: the arc's centre and radius in dots.
        var dotCenter: (x: Double, y: Double) { (Double(columns), KnobPainter.dotCenter.y * scale) }
        var dotRadius: Double { min(KnobPainter.dotRadius * scale, Double(columns) - 1) }
        /// Braille: how many dots thick the progress arc is.
        var progressThickness: Int { max(2, Int((2 * scale).rounded())) }

        /// The arc's centre in cells from the box's top-left corner.
        public var center: (x: Double, y: Double) { (dotCenter.x / 2, dotCenter.y / 4) }

        /// ASCII: the arc's radii and centre in cells.
        var asciiRadius: (x: Double, y: Double) { (KnobPainter.asciiRadius.x * scale, KnobPainter.asciiRadius.y * scale) }
        var asciiCenter: (x: Double, y: Double) { (Double(columns) / 2, KnobPainter.asciiCenter.y * scale) }
    }

    /// Braille: the arc's radius and centre in dots.
    static let dotRadius = 13.0
    static let dotCenter = (x: 14.0, y: 13.5)

    /// The arc's centre, in cells from the box's top-left corner (half cells allowed): where a
    /// circular drag turns around.
    public static let center = (x: dotCenter.x / 2, y: dotCenter.y / 4)

    /// ASCII: the arc's radii in cells (a cell is about twice as tall as wide).
    static let asciiRadius = (x: 6.5, y: 3.25)
    static let asciiCenter = (x: 7.0, y: 3.4)

    /// Ranks: where parts share a cell, the indicator wins over progress, progress over ticks,
    /// ticks over the track.
    static let trackRank = 1, tickRank = 2, progressRank = 3, indicatorRank = 4

    /// Draws `knob`'s arc as shown at `time` with its box's top-left at (`x`, `y`).
    public static func drawArc(
        _ knob: Knob, at time: Double, progressRole: CellRole, ascii: Bool,
        into buffer: inout ScreenBuffer, x: Int, y: Int, size: ArtSize = .standard
    ) {
        let geometry = knob.geometry(at: time)
        if ascii {
            var canvas = CharacterCanvas(columns: size.columns, rows: size.rows)
            drawASCII(geometry, progressRole: progressRole, on: &canvas, size: size)
            canvas.draw(into: &buffer, x: x, y: y)
        } else {
            var canvas = BrailleCanvas(columns: size.columns, rows: size.rows)
            drawBraille(geometry, progressRole: progressRole, on: &canvas, size: size)
            canvas.draw(into: &buffer, x: x, y: y)
        }
    }

    /// The braille picture: a thin track, a progress arc two dots thick, ticks set one dot
    /// inside the progress band, and the indicator from the arc toward the centre.
    public static func drawBraille(_ g: KnobGeometry, progressRole: CellRole, on canvas: inout BrailleCanvas, size: ArtSize = .standard) {
        let r = size.dotRadius, c = size.dotCenter, thickness = size.progressThickness
        func plot(_ p: KnobPoint, scale: Double, role: CellRole, rank: Int) {
            canvas.plot(x: c.x + p.x * scale, y: c.y + p.y * scale, role: role, rank: rank)
        }
        for p in samples(g.track, radius: r) { plot(p, scale: r, role: .track, rank: trackRank) }
        if !g.progress.isEmpty {
            for p in samples(g.progress, radius: r) {
                for inset in 0..<thickness { plot(p, scale: r - Double(inset), role: progressRole, rank: progressRank) }
            }
        }
        for tick in g.ticks {
            let s = r - Double(thickness)
            canvas.line(fromX: c.x + tick.line.from.x * s, y0: c.y + tick.line.from.y * s,
                        toX: c.x + tick.line.to.x * s, y1: c.y + tick.line.to.y * s, role: .tick, rank: tickRank)
        }
        // The indicator is drawn twice, half a dot to either side, so it reads as a needle.
        let line = g.indicator
        let across = KnobArc.point(atAngle: g.valueAngle + Double.pi / 2, radius: 0.5)
        for side in [-1.0, 1.0] {
            let dx = across.x * side, dy = across.y * side
            canvas.line(fromX: c.x + line.from.x * r + dx, y0: c.y + line.from.y * r + dy,
                        toX: c.x + line.to.x * r + dx, y1: c.y + line.to.y * r + dy, role: .indicator, rank: indicatorRank)
        }
    }

    /// The ASCII picture: the track in dots, progress in strokes along the arc, ticks as `+`
    /// on the track, the indicator as strokes toward the centre.
    public static func drawASCII(_ g: KnobGeometry, progressRole: CellRole, on canvas: inout CharacterCanvas, size: ArtSize = .standard) {
        let r = size.asciiRadius, c = size.asciiCenter
        func place(_ p: KnobPoint, scale: Double) -> (x: Double, y: Double) {
            (c.x + p.x * r.x * scale, c.y + p.y * r.y * scale)
        }
        for p in samples(g.track, radius: r.x * 2) {
            let at = place(p, scale: 1)
            canvas.plot(x: at.x, y: at.y, ".", role: .track, rank: trackRank)
        }
        for tick in g.ticks {
            let at = place(tick.line.from, scale: 1)
            canvas.plot(x: at.x, y: at.y, "+", role: .tick, rank: tickRank)
        }
        if !g.progress.isEmpty {
            for (p, angle) in zip(samples(g.progress, radius: r.x * 2), sampleAngles(g.progress, radius: r.x * 2)) {
                let at = place(p, scale: 1)
                // The arc's tangent at `angle` runs at `angle` + 90°.
                canvas.plot(x: at.x, y: at.y, CharacterCanvas.stroke(atAngle: angle + Double.pi / 2),
                            role: progressRole, rank: progressRank)
            }
        }
        let from = place(g.indicator.from, scale: 1), to = place(g.indicator.to, scale: 1)
        let stroke = CharacterCanvas.stroke(atAngle: g.valueAngle)
        let steps = Int(8 * size.scale)
        for i in 0...steps {
            let t = Double(i) / Double(steps)
            canvas.plot(x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t, stroke,
                        role: .indicator, rank: indicatorRank)
        }
    }

    /// Enough points along `segment` (unit circle) that, scaled to `radius` dots, no dot is skipped.
    static func samples(_ segment: KnobArcSegment, radius: Double) -> [KnobPoint] {
        sampleFractions(segment, radius: radius).map { segment.point(atFraction: $0) }
    }

    static func sampleAngles(_ segment: KnobArcSegment, radius: Double) -> [Double] {
        sampleFractions(segment, radius: radius).map { segment.angle(atFraction: $0) }
    }

    private static func sampleFractions(_ segment: KnobArcSegment, radius: Double) -> [Double] {
        let count = max(Int((segment.span * radius * 3).rounded(.up)), 1)
        return (0...count).map { Double($0) / Double(count) }
    }

    // MARK: - The compact layout's bar

    /// Draws `knob` as a horizontal bar `width` cells wide: the track along the bottom, the
    /// progress from the knob's progress origin to its shown position, and the indicator as
    /// a full-height line at the shown position.
    public static func drawBar(
        _ knob: Knob, at time: Double, width: Int, progressRole: CellRole, ascii: Bool,
        into buffer: inout ScreenBuffer, x: Int, y: Int
    ) {
        guard width > 0 else { return }
        let origin = knob.progressOriginPosition
        let shown = knob.shownPosition(at: time)
        if ascii {
            var canvas = CharacterCanvas(columns: width, rows: 1)
            let at = index(shown, count: width), from = index(origin, count: width)
            for i in 0..<width { canvas.set(column: i, row: 0, "-", role: .track, rank: trackRank) }
            if origin != shown {
                for i in min(at, from)...max(at, from) { canvas.set(column: i, row: 0, "=", role: progressRole, rank: progressRank) }
            }
            canvas.set(column: at, row: 0, "|", role: .indicator, rank: indicatorRank)
            canvas.draw(into: &buffer, x: x, y: y)
        } else {
            var canvas = BrailleCanvas(columns: width, rows: 1)
            let dots = canvas.dotsWide
            let at = index(shown, count: dots), from = index(origin, count: dots)
            for i in 0..<dots { canvas.set(dotX: i, dotY: 3, role: .track, rank: trackRank) }
            if origin != shown {
                for i in min(at, from)...max(at, from) {
                    for row in 1...3 { canvas.set(dotX: i, dotY: row, role: progressRole, rank: progressRank) }
                }
            }
            for row in 0...3 { canvas.set(dotX: at, dotY: row, role: .indicator, rank: indicatorRank) }
            canvas.draw(into: &buffer, x: x, y: y)
        }
    }

    /// The slot (0 ..< count) of normalised position `p`.
    static func index(_ p: Double, count: Int) -> Int {
        let clamped = p.isNaN ? 0 : min(max(p, 0), 1)
        return min(Int((clamped * Double(count - 1)).rounded()), count - 1)
    }
}
