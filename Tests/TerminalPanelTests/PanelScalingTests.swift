import AudioEngine
import KnobKit
import Parameters
import Testing
@testable import TerminalPanel

/// Knobs grow with the window: up to a share of its height, as wide as the row fits, never
/// below the standard 14 × 6; the curve keeps the rest.
@Suite("Panel knob scaling")
struct PanelScalingTests {
    func layout(_ width: Int, _ height: Int, knobs: Int = 3) -> PanelLayout {
        PanelLayout(width: width, height: height, knobCount: knobs, nameWidth: 9, meterCount: 0)
    }

    @Test("80 × 24 keeps the standard knob; 160 × 50 draws them larger, same shape, curve below")
    func sizes() throws {
        #expect(layout(80, 24).artSize == .standard)
        let big = layout(160, 50)
        #expect(big.artSize.rows == 16)
        #expect(big.artSize.columns == 37)
        #expect(big.slots[0].art.height == 16)
        let plot = try #require(big.plot)
        #expect(plot.y == 2 + 16 + 2 + 1)
        #expect(plot.y + plot.height == big.statusRow - 1)
        // The knob row takes at most its share of the rows below the header.
        #expect(Double(big.artSize.rows + 2) <= Double(50 - 4) * PanelLayout.knobHeightShare)
    }

    @Test("the width limits the size: seven knobs in 120 columns stay standard, in 200 grow")
    func widthLimits() {
        #expect(layout(120, 50, knobs: 7).artSize == .standard)
        let wide = layout(200, 50, knobs: 7)
        #expect(wide.artSize.rows > 6)
        #expect(7 * (wide.artSize.columns + 2) + 2 <= 200)
        for size in stride(from: 6, through: 30, by: 1).map({ KnobPainter.ArtSize(rows: $0) }) {
            #expect(abs(Double(size.columns) / Double(size.rows) - 14.0 / 6) < 0.1)
        }
    }

    @Test("a large arc stays inside its box, round, with its gap down")
    func largeArc() {
        let size = KnobPainter.ArtSize(rows: 16)
        var knob = referenceKnob(.cutoff)
        knob.setValue(LowpassGain.table[.cutoff].range.upperBound, at: 0)
        var canvas = BrailleCanvas(columns: size.columns, rows: size.rows)
        KnobPainter.drawBraille(knob.geometry(at: 0), progressRole: .progress, on: &canvas, size: size)
        // It reaches the outer columns and the top row: as large as the box allows.
        #expect((0..<size.rows).contains { canvas.isLit(column: 1, row: $0) })
        #expect((0..<size.rows).contains { canvas.isLit(column: size.columns - 2, row: $0) })
        #expect((0..<size.columns).contains { canvas.isLit(column: $0, row: 0) })
        #expect(!canvas.isLit(column: size.columns / 2, row: size.rows - 1))
        #expect(!canvas.isLit(column: size.columns / 2, row: size.rows - 2))
    }

    @Test("a larger knob needs a longer drag: the travel follows its size")
    func travelFollowsSize() {
        let (panel, _) = makePanel(width: 160, height: 50)
        let slot = panel.layout.slots[0]
        panel.mouse(.press(.left), x: Int(slot.center.x), y: Int(slot.center.y), at: 0)
        #expect(panel.knob(.cutoff).behavior.travelCells == Double(16) * 4 / 3)
    }
}
