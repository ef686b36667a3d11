import Glibc

/// Draws a magnitude response on a logarithmic frequency axis, in dB: the curve, grid lines
/// every 12 dB and at each decade, a pointer at the cutoff along the top edge, and the axis
/// labels.
///
/// ```swift
/// let plot = ResponsePlot(frequencies: 20...20_000, decibels: -48...24)
/// plot.draw(response, marker: 1_000, ascii: false, into: &buffer, x: 0, y: 12, width: 80, height: 8)
/// ```
public struct ResponsePlot: Sendable {
    /// The frequency axis (Hz, logarithmic): the cutoff's range from the parameter table.
    public let frequencies: ClosedRange<Double>
    /// The level axis (dB).
    public let decibels: ClosedRange<Double>
    /// dB between horizontal grid lines.
    public static let gridStep = 12.0
    /// Columns left of the plot for the dB labels.
    public static let labelColumns = 5

    public init(frequencies: ClosedRange<Double>, decibels: ClosedRange<Double>) {
        self.frequencies = frequencies
        self.decibels = decibels
    }

    /// The frequency shown at fraction `t` (0…1) of the axis.
    public func frequency(atFraction t: Double) -> Double {
        frequencies.lowerBound * pow(frequencies.upperBound / frequencies.lowerBound, t)
    }

    /// Where `frequency` lies on the axis (0…1, outside for frequencies off the axis).
    public func fraction(of frequency: Double) -> Double {
        log(frequency / frequencies.lowerBound) / log(frequencies.upperBound / frequencies.lowerBound)
    }

    /// The plot's inner area for a box at (`x`, `y`) of `width` × `height` cells: the labels
    /// take columns on the left and the last row.
    public static func plotArea(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        (x + labelColumns, y, max(width - labelColumns - 1, 0), max(height - 1, 0))
    }

    /// Draws the plot of `levelAt` (dB at a frequency, nil where undefined) into the box.
    public func draw(
        _ levelAt: (Double) -> Double?, marker: Double?, ascii: Bool,
        into buffer: inout ScreenBuffer, x: Int, y: Int, width: Int, height: Int
    ) {
        let area = Self.plotArea(x: x, y: y, width: width, height: height)
        guard area.width >= 4, area.height >= 1 else { return }
        if ascii {
            drawASCII(levelAt, marker: marker, area: area, into: &buffer)
        } else {
            drawBraille(levelAt, marker: marker, area: area, into: &buffer)
        }
        drawLabels(ascii: ascii, area: area, into: &buffer)
    }

    /// The grid levels inside the axis: multiples of ``gridStep``.
    var gridLevels: [Double] {
        let first = (decibels.lowerBound / Self.gridStep).rounded(.up)
        let last = (decibels.upperBound / Self.gridStep).rounded(.down)
        guard first <= last else { return [] }
        return stride(from: first, through: last, by: 1).map { $0 * Self.gridStep }
    }

    /// The decades (10, 100, 1000 …) inside the frequency axis.
    var decades: [Double] {
        var result: [Double] = []
        var f = pow(10, (log10(frequencies.lowerBound)).rounded(.up))
        while f <= frequencies.upperBound {
            result.append(f)
            f *= 10
        }
        return result
    }

    /// The vertical position (0 at the top, 1 at the bottom) of `level`.
    func verticalFraction(of level: Double) -> Double {
        (decibels.upperBound - level) / (decibels.upperBound - decibels.lowerBound)
    }

    private func drawBraille(_ levelAt: (Double) -> Double?, marker: Double?, area: (x: Int, y: Int, width: Int, height: Int), into buffer: inout ScreenBuffer) {
        var canvas = BrailleCanvas(columns: area.width, rows: area.height)
        let w = canvas.dotsWide, h = canvas.dotsHigh
        func dotRow(_ level: Double) -> Double { verticalFraction(of: level) * Double(h - 1) }
        for level in gridLevels {
            let row = Int(dotRow(level).rounded())
            for column in stride(from: 0, to: w, by: level == 0 ? 2 : 6) { canvas.set(dotX: column, dotY: row, role: .grid, rank: 1) }
        }
        for decade in decades {
            let column = Int((fraction(of: decade) * Double(w - 1)).rounded())
            for row in stride(from: 0, to: h, by: 4) { canvas.set(dotX: column, dotY: row, role: .grid, rank: 1) }
        }
        if let marker, frequencies.contains(marker) {
            // A short pointer down from the top edge: it moves with the cutoff without
            // redrawing a whole column of the plot at every step.
            let column = Int((fraction(of: marker) * Double(w - 1)).rounded())
            for row in 0..<min(3, h) { canvas.set(dotX: column, dotY: row, role: .marker, rank: 4) }
        }
        var previous: Int?
        for column in 0..<w {
            let f = frequency(atFraction: Double(column) / Double(w - 1))
            guard let level = levelAt(f), level.isFinite else { previous = nil; continue }
            let exact = dotRow(level)
            guard exact <= Double(h - 1) + 0.5 else { previous = nil; continue }  // below the axis
            let row = max(Int(exact.rounded()), 0)
            // Join to the previous column so steep slopes stay one line.
            if let previous, abs(previous - row) > 1 {
                for r in (min(previous, row) + 1)..<max(previous, row) {
                    canvas.set(dotX: column, dotY: r, role: .curve, rank: 3)
                }
            }
            canvas.set(dotX: column, dotY: row, role: .curve, rank: 3)
            previous = row
        }
        canvas.draw(into: &buffer, x: area.x, y: area.y)
    }

    private func drawASCII(_ levelAt: (Double) -> Double?, marker: Double?, area: (x: Int, y: Int, width: Int, height: Int), into buffer: inout ScreenBuffer) {
        var canvas = CharacterCanvas(columns: area.width, rows: area.height)
        let w = area.width, h = area.height
        func cellRow(_ level: Double) -> Double { verticalFraction(of: level) * Double(h - 1) }
        for level in gridLevels {
            let row = Int(cellRow(level).rounded())
            for column in stride(from: 0, to: w, by: level == 0 ? 2 : 4) {
                canvas.set(column: column, row: row, level == 0 ? "-" : ".", role: .grid, rank: 1)
            }
        }
        for decade in decades {
            let column = Int((fraction(of: decade) * Double(w - 1)).rounded())
            for row in 0..<h { canvas.set(column: column, row: row, ":", role: .grid, rank: 1) }
        }
        if let marker, frequencies.contains(marker) {
            let column = Int((fraction(of: marker) * Double(w - 1)).rounded())
            canvas.set(column: column, row: 0, "v", role: .marker, rank: 4)
        }
        var previous: Int?
        for column in 0..<w {
            let f = frequency(atFraction: Double(column) / Double(w - 1))
            guard let level = levelAt(f), level.isFinite else { previous = nil; continue }
            let exact = cellRow(level)
            guard exact <= Double(h - 1) + 0.5 else { previous = nil; continue }
            let row = max(Int(exact.rounded()), 0)
            if let previous, abs(previous - row) > 1 {
                let step = row > previous ? 1 : -1
                for r in stride(from: previous + step, to: row, by: step) {
                    canvas.set(column: column, row: r, "|", role: .curve, rank: 3)
                }
            }
            canvas.set(column: column, row: row, "*", role: .curve, rank: 3)
            previous = row
        }
        canvas.draw(into: &buffer, x: area.x, y: area.y)
    }

    private func drawLabels(ascii: Bool, area: (x: Int, y: Int, width: Int, height: Int), into buffer: inout ScreenBuffer) {
        let rows = ascii ? area.height : area.height * 4
        var lastLabelRow = Int.min
        for level in gridLevels.reversed() {
            let row = Int((verticalFraction(of: level) * Double(rows - 1)).rounded()) / (ascii ? 1 : 4)
            guard row != lastLabelRow else { continue }
            lastLabelRow = row
            let text = Self.levelText(level, ascii: ascii)
            buffer.put(text, x: area.x - 1 - DisplayWidth.of(text), y: area.y + row, role: .dim)
        }
        let axisRow = area.y + area.height
        buffer.put("Hz", x: area.x - 3, y: axisRow, role: .dim)
        var taken = area.x - 1
        for f in [frequencies.lowerBound] + decades + [frequencies.upperBound] {
            let column = area.x + Int((fraction(of: f) * Double(area.width - 1)).rounded())
            let text = Self.frequencyText(f)
            let start = min(max(column - DisplayWidth.of(text) / 2, area.x), area.x + area.width - DisplayWidth.of(text))
            guard start > taken else { continue }
            taken = buffer.put(text, x: start, y: axisRow, role: .dim)
        }
    }

    /// `+12`, `0`, `−24` (ASCII minus with `ascii`).
    static func levelText(_ level: Double, ascii: Bool) -> String {
        let n = Int(level.rounded())
        if n > 0 { return "+\(n)" }
        if n < 0 { return (ascii ? "-" : "−") + "\(-n)" }
        return "0"
    }

    /// `20`, `100`, `1k`, `20k`.
    static func frequencyText(_ f: Double) -> String {
        let n = Int(f.rounded())
        return n >= 1000 && n % 1000 == 0 ? "\(n / 1000)k" : "\(n)"
    }
}
