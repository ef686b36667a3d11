import KnobKit

/// Where everything goes for a terminal of a given size.
///
/// Three styles, picked by size: the full layout (knobs drawn as arcs, in rows that fill the
/// width, then the processor's outputs, the meters and the response curve as room allows), the
/// compact layout (one line per knob with a bar, for short or narrow windows), and a "too
/// small" notice. The full layout is chosen when it shows every knob; else the compact one
/// when it does; else the full one a page at a time (when a page holds two knobs or more and
/// the compact list would not show over ``pageRatio`` times as many), or the compact one
/// scrolled. While every knob fits, the knobs grow with the window, up to
/// ``knobHeightShare`` of its height.
///
/// When not every knob fits, the layout shows a window of them — a page of the full layout's
/// grid, or a run of compact lines — chosen to show the focused knob, and a pager on the row
/// under the header. Drawing and mouse hit-testing both read the same layout, so a click lands
/// on what is drawn there.
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
    /// The knob shown in ``slots``' first place: knob `first + i` is in `slots[i]`.
    public let first: Int
    /// The places of the knobs shown, from knob ``first`` on.
    public let slots: [KnobSlot]
    /// How many knobs one page (or one screen of compact lines) holds.
    public let perPage: Int
    /// How many knobs there are.
    public let knobCount: Int
    /// The row under the header where the pager (`[ page 2/5 ]`) is drawn, when not every knob
    /// fits.
    public let pager: Frame?
    /// The processor's outputs, ``outputColumns`` to a row, when they fit.
    public let outputs: Frame?
    /// One row per meter, when they fit.
    public let meters: Frame?
    /// The response plot's box (title row, plot rows and the axis row), when it fits.
    public let plot: Frame?
    public let statusRow: Int
    /// The size the knobs are drawn at (the standard in the compact and too-small layouts).
    public let artSize: KnobPainter.ArtSize
    /// Compact layout: the columns names are given (longer names are cut).
    public let nameWidth: Int

    /// Columns of one knob in the full layout: the arc and a gap.
    public static let slotWidth = KnobPainter.artColumns + 2
    /// Rows of one knob in the full layout: the arc, the name, the value.
    public static let knobRows = KnobPainter.artRows + 2
    /// The value column's width in the compact layout ("+12.0 dB", "20.0 kHz").
    public static let valueWidth = 9
    /// The narrowest bar the compact layout draws.
    public static let minimumBar = 6
    /// The widest name column of the compact layout, and the narrowest it is cut to before the
    /// window counts as too small (the built-in "Resonance" is never cut).
    public static let compactNameWidths = 9...18
    /// The fewest compact lines worth scrolling through.
    public static let minimumCompactLines = 3
    /// The fewest rows the response plot is drawn in (title, plot, axis).
    public static let minimumPlotRows = 6
    /// The most of the rows below the header a knob row (arc, name, value) may take: the
    /// curve and the meters keep the rest.
    public static let knobHeightShare = 0.4
    /// Columns of one output in its section: the label, a small meter, the value.
    public static let outputWidth = 36
    /// Pages of knobs are preferred to a scrolled compact list unless the list shows more than
    /// this many times as many knobs at once.
    public static let pageRatio = 3
    /// Rows above the knobs: the header and the pager's row.
    static let top = 2

    /// The tallest knob (in rows) for a window `height` rows high: as tall as the height share
    /// allows; never smaller than the standard.
    static func largestArt(height: Int) -> Int {
        max(Int(Double(height - 4) * knobHeightShare) - 2, KnobPainter.artRows)
    }

    /// The full layout's grid at knob size `size`: knobs to a row, and rows shown (`rows` of
    /// knobs fit in `available` rows; at least one when one fits at all).
    static func grid(_ size: KnobPainter.ArtSize, width: Int, available: Int, availableWithExtras: Int,
                     knobCount: Int) -> (columns: Int, rows: Int) {
        let columns = min(max((width - 2) / (size.columns + 2), 0), knobCount)
        guard columns > 0, available >= size.rows + 2 else { return (columns, 0) }
        let needed = (knobCount + columns - 1) / columns
        return (columns, min(needed, max(availableWithExtras / (size.rows + 2), 1)))
    }

    /// The layout for a `width` × `height` terminal with `knobCount` knobs whose longest name
    /// has `nameWidth` characters, `meterCount` meters (0 without audio) and `outputCount`
    /// outputs, showing the knob `focus` (and, in a compact list that scrolls, starting from
    /// knob `first` when that shows it). `plot`: there is a response curve to leave room for.
    public init(width: Int, height: Int, knobCount: Int, nameWidth: Int, meterCount: Int, outputCount: Int = 0,
                plot wantsPlot: Bool = true, focus: Int = 0, first preferredFirst: Int = 0) {
        self.width = width
        self.height = height
        self.knobCount = knobCount
        let room = Room(width: width, height: height, knobCount: knobCount, nameWidth: nameWidth, meterCount: meterCount,
                        outputCount: outputCount)
        statusRow = room.statusRow
        let style = room.style
        self.style = style
        self.nameWidth = room.compactNameFit ?? nameWidth

        let knobs: Knobs
        switch style {
        case .full:
            knobs = Self.fullKnobs(in: room, focus: focus)
        case .compact:
            knobs = Self.compactKnobs(in: room, nameWidth: self.nameWidth, focus: focus, first: preferredFirst)
        case .tooSmall:
            knobs = Knobs(artSize: .standard, first: 0, perPage: 0, slots: [], below: nil)
        }
        artSize = knobs.artSize
        first = knobs.first
        perPage = knobs.perPage
        slots = knobs.slots
        if var next = knobs.below {
            (outputs, meters, plot) = Self.extras(
                from: &next, width: width, statusRow: statusRow, outputRows: room.outputRows, meterCount: meterCount, plot: wantsPlot)
        } else {
            outputs = nil
            meters = nil
            plot = nil
        }
        pager = style != .tooSmall && perPage < knobCount ? Frame(x: 0, y: 1, width: width, height: 1) : nil
    }

    /// What a window has room for: the measures the style is chosen by, and that the full
    /// and compact layouts start from.
    private struct Room {
        let width: Int, height: Int, knobCount: Int
        let statusRow: Int
        /// Rows the outputs take (without their blank row).
        let outputRows: Int
        /// Rows the outputs and meters take, each with a blank row before it.
        let extraRows: Int
        /// Rows the knobs may take: from under the pager's row to one blank row above the
        /// status line.
        let available: Int
        /// The compact layout's name column: the longest name, cut when the width asks; nil
        /// when even the cut one does not fit.
        let compactNameFit: Int?
        /// The compact layout shows every knob.
        let compactAll: Bool
        /// Lines a compact list that scrolls shows.
        let scrollLines: Int
        let compactScrolls: Bool
        /// The full layout's grid at the standard size.
        let standard: (columns: Int, rows: Int)

        init(width: Int, height: Int, knobCount: Int, nameWidth: Int, meterCount: Int, outputCount: Int) {
            self.width = width
            self.height = height
            self.knobCount = knobCount
            statusRow = height - 1
            let top = PanelLayout.top
            let outputColumns = max((width - 2) / PanelLayout.outputWidth, 1)
            outputRows = (outputCount + outputColumns - 1) / outputColumns
            extraRows = (outputRows > 0 ? outputRows + 1 : 0) + (meterCount > 0 ? meterCount + 1 : 0)
            available = statusRow - 1 - top
            standard = PanelLayout.grid(.standard, width: width, available: available, availableWithExtras: available - extraRows,
                                        knobCount: knobCount)
            let compactName = min(nameWidth, PanelLayout.compactNameWidths.upperBound)
            let cutName = min(nameWidth, PanelLayout.compactNameWidths.lowerBound)
            func compactFits(_ name: Int) -> Bool {
                width >= 3 + name + 1 + PanelLayout.minimumBar + 1 + PanelLayout.valueWidth + 1
            }
            let compactNameFit = compactFits(compactName) ? compactName : (compactFits(cutName) ? cutName : nil)
            self.compactNameFit = compactNameFit
            compactAll = compactNameFit != nil && height >= knobCount + 2
            // A compact list that scrolls starts under the pager's row; the outputs and meters keep
            // their rows when at least three lines are left.
            var scrollLines = statusRow - top
            if extraRows > 0, scrollLines - extraRows - 1 >= PanelLayout.minimumCompactLines { scrollLines -= extraRows + 1 }
            self.scrollLines = scrollLines
            compactScrolls = compactNameFit != nil && scrollLines >= PanelLayout.minimumCompactLines
        }

        /// The full layout's grid at knob size `size`.
        func grid(_ size: KnobPainter.ArtSize) -> (columns: Int, rows: Int) {
            PanelLayout.grid(size, width: width, available: available, availableWithExtras: available - extraRows, knobCount: knobCount)
        }

        /// The style that shows the most: see ``PanelLayout``.
        var style: Style {
            let fullPage = standard.columns * standard.rows
            if fullPage >= knobCount {
                return .full
            } else if compactAll {
                return .compact
            } else if fullPage >= 2, !compactScrolls || fullPage * PanelLayout.pageRatio >= scrollLines {
                return .full
            } else if compactScrolls {
                return .compact
            } else {
                return .tooSmall
            }
        }
    }

    /// The knobs' part of a layout: their size, the window of them shown and their places, and
    /// the row below them where the outputs, meters and plot start (nil: none are shown).
    private struct Knobs {
        var artSize: KnobPainter.ArtSize
        var first: Int
        var perPage: Int
        var slots: [KnobSlot]
        var below: Int?
    }

    /// The full layout's knobs: the page of the grid that holds knob `focus`, the knobs
    /// larger while every knob still fits in one row (rows of large knobs would take the room
    /// of the curve and the meters).
    private static func fullKnobs(in room: Room, focus: Int) -> Knobs {
        let knobCount = room.knobCount
        var size = KnobPainter.ArtSize.standard
        if room.standard.columns >= knobCount {
            var rows = Self.largestArt(height: room.height)
            while rows > KnobPainter.artRows, room.grid(KnobPainter.ArtSize(rows: rows)).columns < knobCount {
                rows -= 1
            }
            size = KnobPainter.ArtSize(rows: rows)
        }
        let (columns, rows) = room.grid(size)
        let page = max(columns * rows, 1)
        let start = (min(max(focus, 0), max(knobCount - 1, 0)) / page) * page
        let slotWidth = size.columns + 2, knobRows = size.rows + 2
        let left = (room.width - columns * slotWidth) / 2
        let slots = (start..<min(start + page, knobCount)).map { k in
            let place = k - start
            let x = left + (place % columns) * slotWidth, y = top + (place / columns) * knobRows
            let art = Frame(x: x + 1, y: y, width: size.columns, height: size.rows)
            return KnobSlot(
                frame: Frame(x: x, y: y, width: slotWidth, height: knobRows),
                art: art, nameRow: y + size.rows, valueRow: y + size.rows + 1,
                nameColumn: x + slotWidth / 2, valueColumn: x + slotWidth / 2,
                center: KnobPoint(x: Double(art.x) + size.center.x, y: Double(art.y) + size.center.y))
        }
        return Knobs(artSize: size, first: start, perPage: page, slots: slots, below: top + rows * knobRows + 1)
    }

    /// The compact layout's knobs: one line each, names `nameWidth` columns wide; every
    /// knob when they all fit, else a run of lines that shows knob `focus`, starting from
    /// `preferredFirst` when that does.
    private static func compactKnobs(in room: Room, nameWidth name: Int, focus: Int, first preferredFirst: Int) -> Knobs {
        let knobCount = room.knobCount, height = room.height, width = room.width
        let all = height >= knobCount + 2
        // Every line fits: from row 2 when there is room for a gap, else from row 1.
        let lineTop = all && height < knobCount + 4 ? 1 : top
        let lines = all ? room.statusRow - lineTop : room.scrollLines
        let page = min(lines, knobCount)
        let focused = min(max(focus, 0), max(knobCount - 1, 0))
        var start = min(max(preferredFirst, 0), max(knobCount - page, 0))
        if focused < start { start = focused }
        if focused >= start + page { start = focused - page + 1 }
        let barX = 3 + name
        let barWidth = width - barX - 1 - Self.valueWidth - 1
        let slots = (start..<start + page).map { k in
            let y = lineTop + k - start
            return KnobSlot(
                frame: Frame(x: 0, y: y, width: width, height: 1),
                art: Frame(x: barX, y: y, width: barWidth, height: 1),
                nameRow: y, valueRow: y, nameColumn: 2, valueColumn: barX + barWidth + 1,
                center: KnobPoint(x: Double(barX) + Double(barWidth) / 2, y: Double(y) + 0.5))
        }
        return Knobs(artSize: .standard, first: start, perPage: page, slots: slots, below: lineTop + page + 1)
    }

    /// Outputs, meters and then the plot, from row `next`, each only if it fits above the
    /// status line (with a blank row before it).
    private static func extras(
        from next: inout Int, width: Int, statusRow: Int, outputRows: Int, meterCount: Int, plot wantsPlot: Bool
    ) -> (Frame?, Frame?, Frame?) {
        var outputs: Frame?
        if outputRows > 0, next + outputRows < statusRow {
            outputs = Frame(x: 1, y: next, width: width - 2, height: outputRows)
            next += outputRows + 1
        }
        var meters: Frame?
        if meterCount > 0, next + meterCount < statusRow {
            meters = Frame(x: 1, y: next, width: width - 2, height: meterCount)
            next += meterCount + 1
        }
        var plot: Frame?
        let rows = statusRow - 1 - next
        if wantsPlot, rows >= minimumPlotRows {
            plot = Frame(x: 1, y: next, width: width - 2, height: rows)
        }
        return (outputs, meters, plot)
    }

    /// The knobs shown, by their number in the table.
    public var shown: Range<Int> { first..<first + slots.count }

    /// The place of knob `index`, when it is shown.
    public func slot(of index: Int) -> KnobSlot? {
        shown.contains(index) ? slots[index - first] : nil
    }

    /// The knob whose slot holds cell (`x`, `y`), if any.
    public func knob(atX x: Int, y: Int) -> Int? {
        slots.firstIndex { $0.frame.contains(x: x, y: y) }.map { first + $0 }
    }

    /// Outputs to a row of their section.
    public var outputColumns: Int { max((width - 2) / Self.outputWidth, 1) }

    /// Full layout: the page shown (from 0) and how many there are; compact: the same for
    /// screens of lines (the last one may overlap the one before).
    public var page: Int { perPage > 0 ? (first + perPage - 1) / perPage : 0 }
    public var pageCount: Int { perPage > 0 ? (knobCount + perPage - 1) / perPage : 0 }

    /// The smallest window the compact layout fits in, for the "too small" notice.
    public static func minimumSize(knobCount: Int, nameWidth: Int) -> (width: Int, height: Int) {
        let name = min(nameWidth, compactNameWidths.lowerBound)
        return (3 + name + 1 + minimumBar + 1 + valueWidth + 1,
                knobCount <= minimumCompactLines ? knobCount + 2 : top + minimumCompactLines + 1)
    }
}
