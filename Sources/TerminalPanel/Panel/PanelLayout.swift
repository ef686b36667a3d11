import KnobKit

/// Where everything goes for a terminal of a given size.
///
/// Three styles, picked by size: the full layout (a row of knobs drawn as arcs, then meters
/// and the response curve as room allows; the knobs grow with the window, up to
/// ``knobHeightShare`` of its height, and the rest goes to the meters and the curve), the compact layout (one line per knob with a bar,
/// for short or narrow windows), and a "too small" notice. Drawing and mouse hit-testing both
/// read the same layout, so a click lands on what is drawn there.
public struct PanelLayout: Sendable, Hashable {
    public enum Style: Sendable, Hashable {
        case full, compact, tooSmall
    }

    /// A rectangle of cells.
    public struct Frame: Sendable, Hashable {
        public var x: Int, y: Int, width: Int, height: Int

        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        public func contains(x px: Int, y py: Int) -> Bool {
            px >= x && py >= y && px < x + width && py < y + height
        }
    }

    /// One knob's place.
    public struct KnobSlot: Sendable, Hashable {
        /// Where a click or wheel reaches this knob.
        public var frame: Frame
        /// Full layout: the arc's box. Compact layout: the bar (one row).
        public var art: Frame
        /// The row of the name (full layout: under the arc; compact: the knob's line).
        public var nameRow: Int
        /// The row of the value.
        public var valueRow: Int
        /// The column where the name starts (compact) or the slot's centre column (full).
        public var nameColumn: Int
        /// The column where the value starts (compact only).
        public var valueColumn: Int
        /// The point drags turn around, in cells (half cells allowed).
        public var center: KnobPoint
    }

    public let style: Style
    public let width: Int
    public let height: Int
    public let slots: [KnobSlot]
    /// One row per meter, when they fit.
    public let meters: Frame?
    /// The response plot's box (title row, plot rows and the axis row), when it fits.
    public let plot: Frame?
    public let statusRow: Int
    /// The size the knobs are drawn at (the standard in the compact and too-small layouts).
    public let artSize: KnobPainter.ArtSize

    /// Columns of one knob in the full layout: the arc and a gap.
    public static let slotWidth = KnobPainter.artColumns + 2
    /// Rows of one knob in the full layout: the arc, the name, the value.
    public static let knobRows = KnobPainter.artRows + 2
    /// The value column's width in the compact layout ("+12.0 dB", "20.0 kHz").
    public static let valueWidth = 9
    /// The narrowest bar the compact layout draws.
    public static let minimumBar = 6
    /// The fewest rows the response plot is drawn in (title, plot, axis).
    public static let minimumPlotRows = 6
    /// The most of the rows below the header a knob row (arc, name, value) may take: the
    /// curve and the meters keep the rest.
    public static let knobHeightShare = 0.4

    /// The largest knob for the window: as tall as the height share allows and as wide as the
    /// row of `knobCount` knobs fits; never smaller than the standard.
    static func artSize(width: Int, height: Int, knobCount: Int) -> KnobPainter.ArtSize {
        let byHeight = Int(Double(height - 4) * knobHeightShare) - 2
        var rows = max(byHeight, KnobPainter.artRows)
        while rows > KnobPainter.artRows,
              knobCount * (KnobPainter.ArtSize(rows: rows).columns + 2) + 2 > width {
            rows -= 1
        }
        return KnobPainter.ArtSize(rows: rows)
    }

    /// The layout for a `width` × `height` terminal with `knobCount` knobs whose longest name
    /// has `nameWidth` characters, and `meterCount` meters (0 without audio).
    public init(width: Int, height: Int, knobCount: Int, nameWidth: Int, meterCount: Int) {
        self.width = width
        self.height = height
        statusRow = height - 1
        let fullWidth = knobCount * Self.slotWidth + 2
        let fullHeight = 2 + Self.knobRows + 2  // header, gap, knobs, gap, status
        let compactWidth = 3 + nameWidth + 1 + Self.minimumBar + 1 + Self.valueWidth + 1
        if width >= fullWidth, height >= fullHeight {
            style = .full
            let size = Self.artSize(width: width, height: height, knobCount: knobCount)
            artSize = size
            let slotWidth = size.columns + 2, knobRows = size.rows + 2
            let left = (width - knobCount * slotWidth) / 2
            slots = (0..<knobCount).map { i in
                let x = left + i * slotWidth
                let art = Frame(x: x + 1, y: 2, width: size.columns, height: size.rows)
                return KnobSlot(
                    frame: Frame(x: x, y: 2, width: slotWidth, height: knobRows),
                    art: art, nameRow: 2 + size.rows, valueRow: 3 + size.rows,
                    nameColumn: x + slotWidth / 2, valueColumn: x + slotWidth / 2,
                    center: KnobPoint(x: Double(art.x) + size.center.x, y: Double(art.y) + size.center.y))
            }
            var next = 2 + knobRows + 1
            (meters, plot) = Self.extras(from: &next, width: width, statusRow: statusRow, meterCount: meterCount)
        } else if width >= compactWidth, height >= knobCount + 2 {
            style = .compact
            artSize = .standard
            let top = height >= knobCount + 4 ? 2 : 1
            let barX = 3 + nameWidth
            let barWidth = width - barX - 1 - Self.valueWidth - 1
            slots = (0..<knobCount).map { i in
                let y = top + i
                return KnobSlot(
                    frame: Frame(x: 0, y: y, width: width, height: 1),
                    art: Frame(x: barX, y: y, width: barWidth, height: 1),
                    nameRow: y, valueRow: y, nameColumn: 2, valueColumn: barX + barWidth + 1,
                    center: KnobPoint(x: Double(barX) + Double(barWidth) / 2, y: Double(y) + 0.5))
            }
            var next = top + knobCount + 1
            (meters, plot) = Self.extras(from: &next, width: width, statusRow: statusRow, meterCount: meterCount)
        } else {
            style = .tooSmall
            artSize = .standard
            slots = []
            meters = nil
            plot = nil
        }
    }

    /// Meters and then the plot, from row `next`, each only if it fits above the status line
    /// (with a blank row before it).
    private static func extras(from next: inout Int, width: Int, statusRow: Int, meterCount: Int) -> (Frame?, Frame?) {
        var meters: Frame?
        if meterCount > 0, next + meterCount < statusRow {
            meters = Frame(x: 1, y: next, width: width - 2, height: meterCount)
            next += meterCount + 1
        }
        var plot: Frame?
        let rows = statusRow - 1 - next
        if rows >= minimumPlotRows {
            plot = Frame(x: 1, y: next, width: width - 2, height: rows)
        }
        return (meters, plot)
    }

    /// The knob whose slot holds cell (`x`, `y`), if any.
    public func knob(atX x: Int, y: Int) -> Int? {
        slots.firstIndex { $0.frame.contains(x: x, y: y) }
    }

    /// The smallest window the compact layout fits in, for the "too small" notice.
    public static func minimumSize(knobCount: Int, nameWidth: Int) -> (width: Int, height: Int) {
        (3 + nameWidth + 1 + minimumBar + 1 + valueWidth + 1, knobCount + 2)
    }
}
