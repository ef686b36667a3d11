import AudioEngine
import Foundation
import KnobKit
import Testing
import Parameters
import TestSupport
@testable import TerminalPanel

/// The response curve against the RBJ cookbook lowpass evaluated directly (the engine's
/// filter has the same magnitude), and the knob drawing against KnobKit's geometry.
@Suite("Drawing")
struct DrawingTests {
    @Test("the response equals the cookbook lowpass's within Float coefficient precision",
          arguments: [(1_000.0, 0.707, 48_000.0), (80, 10, 48_000), (12_000, 0.5, 44_100), (20, 3, 96_000)])
    func matchesCookbook(cutoff: Double, q: Double, rate: Double) {
        let response = FilterResponse(cutoff: cutoff, q: q, sampleRate: rate)
        for f in [20.0, 50, 100, 440, 1_000, 2_500, 8_000, 15_000, 20_000] where f < rate / 2 {
            let expected = CookbookLowpass.decibels(at: f, cutoff: cutoff, q: q, sampleRate: rate)
            let got = response.decibels(at: f)!
            #expect(abs(got - expected) < 0.01 + abs(expected) * 1e-4, "f=\(f) fc=\(cutoff) Q=\(q)")
        }
    }

    @Test("at the cutoff the gain is Q (in dB, 20·log10 Q); nothing at or above Nyquist")
    func landmarks() {
        for q in [0.5, 0.707, 2, 10] {
            let response = FilterResponse(cutoff: 1_000, q: q, sampleRate: 48_000)
            #expect(abs(response.decibels(at: 1_000)! - 20 * log10(q)) < 1e-3)
        }
        let response = FilterResponse(cutoff: 1_000, q: 0.707, sampleRate: 48_000)
        #expect(response.decibels(at: 24_000) == nil)
        #expect(response.decibels(at: 0) == nil)
        // A cutoff above the engine's limit is drawn as the engine runs it: clamped.
        let clamped = FilterResponse(cutoff: 30_000, q: 1, sampleRate: 48_000)
        let limit = FilterResponse(cutoff: Lowpass.maximumCutoffRatio * 48_000, q: 1, sampleRate: 48_000)
        #expect(clamped == limit)
    }

    @Test("the braille arc: progress from the arc's start to the value, the needle at the value's angle")
    func brailleArc() {
        var knob = referenceKnob(.cutoff)
        knob.setValue(LowpassGain.table[.cutoff].range.upperBound, at: 0)
        var full = BrailleCanvas(columns: KnobPainter.artColumns, rows: KnobPainter.artRows)
        KnobPainter.drawBraille(knob.geometry(at: 0), progressRole: .progress, on: &full)
        knob.setValue(LowpassGain.table[.cutoff].range.lowerBound, at: 0)
        var empty = BrailleCanvas(columns: KnobPainter.artColumns, rows: KnobPainter.artRows)
        KnobPainter.drawBraille(knob.geometry(at: 0), progressRole: .progress, on: &empty)
        // At the minimum there is no progress; at the maximum it covers the whole track twice
        // as thick: more dots.
        #expect(full.dotCount > empty.dotCount)
        // The gap points down: the bottom-middle cells are never lit.
        for canvas in [full, empty] {
            #expect(!canvas.isLit(column: KnobPainter.artColumns / 2, row: KnobPainter.artRows - 1))
            #expect(!canvas.isLit(column: KnobPainter.artColumns / 2 - 1, row: KnobPainter.artRows - 1))
        }
        // Straight up (position 1/2): the needle lights the top-middle cells' column.
        knob.setValue(LowpassGain.table[.cutoff].value(atNormalized: 0.5), at: 0)
        var screen = ScreenBuffer(width: 20, height: 8)
        KnobPainter.drawArc(knob, at: 0, progressRole: .progress, ascii: false, into: &screen, x: 0, y: 0)
        let top = KnobPainter.artColumns / 2
        #expect(screen[top, 1].role == .indicator || screen[top - 1, 1].role == .indicator)
        #expect(screen[top, 1].character != " " || screen[top - 1, 1].character != " ")
    }

    @Test("gain's progress is bipolar from its default (0 dB): empty at the default, on the side of the value")
    func bipolarGain() {
        var knob = referenceKnob(.gain)
        #expect(knob.appearance.progressOrigin == .defaultValue)
        #expect(referenceKnob(.cutoff).appearance.progressOrigin == .start)
        #expect(knob.geometry(at: 0).progress.isEmpty)
        knob.setValue(-30, at: 0)
        let g = knob.geometry(at: 0)
        let spec = LowpassGain.table[.gain]
        #expect(g.progress.endAngle == knob.arc.angle(atPosition: spec.normalized(spec.defaultValue)))
        #expect(g.progress.startAngle == knob.arc.angle(atPosition: spec.normalized(-30)))
    }

    @Test("the compact bar: track along the bottom, progress between origin and value, the needle at the value")
    func bar() {
        var knob = referenceKnob(.gain)
        knob.setValue(LowpassGain.table[.gain].range.lowerBound, at: 0)
        var screen = ScreenBuffer(width: 24, height: 1)
        KnobPainter.drawBar(knob, at: 0, width: 24, progressRole: .progress, ascii: true, into: &screen, x: 0, y: 0)
        // Origin at 0 dB: position 60/72 of 23 slots = slot 19 (rounded); the value at slot 0.
        let origin = Int((LowpassGain.table[.gain].normalized(0) * 23).rounded())
        #expect(origin == 19)
        #expect(screen.text(row: 0) == "|" + String(repeating: "=", count: origin) + String(repeating: "-", count: 23 - origin))
        #expect(screen[0, 0].role == .indicator)
        #expect(screen[5, 0].role == .progress)
        #expect(screen[23, 0].role == .track)
    }

    @Test("ASCII strokes follow the line's direction as seen on screen")
    func strokes() {
        #expect(CharacterCanvas.stroke(atAngle: 0) == "|")
        #expect(CharacterCanvas.stroke(atAngle: .pi / 4) == "/")
        #expect(CharacterCanvas.stroke(atAngle: .pi / 2) == "-")
        #expect(CharacterCanvas.stroke(atAngle: 3 * .pi / 4) == "\\")
        #expect(CharacterCanvas.stroke(atAngle: -.pi / 4) == "\\")
        #expect(CharacterCanvas.stroke(atAngle: .pi) == "|")
    }

    @Test("braille cells: the dot bits of U+2800 (dots 1–8)")
    func brailleBits() {
        var canvas = BrailleCanvas(columns: 1, rows: 1)
        canvas.set(dotX: 0, dotY: 0, role: .curve, rank: 0)
        var screen = ScreenBuffer(width: 1, height: 1)
        canvas.draw(into: &screen, x: 0, y: 0)
        #expect(screen[0, 0].character == "⠁")
        for (x, y) in [(1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (0, 3), (1, 3)] {
            canvas.set(dotX: x, dotY: y, role: .curve, rank: 0)
        }
        canvas.draw(into: &screen, x: 0, y: 0)
        #expect(screen[0, 0].character == "⣿")
        #expect(canvas.dotCount == 8)
    }

    @Test("the plot's axes: the table's cutoff range on a log axis, 12 dB grid, labels in place")
    func plotAxes() {
        let plot = ResponsePlot(frequencies: LowpassGain.table[.cutoff].range, decibels: PanelRenderer.plotDecibels)
        #expect(plot.decades == [100, 1_000, 10_000])
        #expect(plot.gridLevels == [-48, -36, -24, -12, 0, 12, 24])
        #expect(abs(plot.fraction(of: plot.frequency(atFraction: 0.37)) - 0.37) < 1e-12)
        #expect(abs(plot.fraction(of: 632.455532) - 0.5) < 1e-6)  // √(20 · 20 000)
        var screen = ScreenBuffer(width: 70, height: 10)
        let flat: (Double) -> Double? = { _ in 0 }
        plot.draw(flat, marker: nil, ascii: true, into: &screen, x: 0, y: 0, width: 70, height: 10)
        // A flat 0 dB response is a row of stars on the 0 dB row.
        let area = ResponsePlot.plotArea(x: 0, y: 0, width: 70, height: 10)
        let zeroRow = Int((plot.verticalFraction(of: 0) * Double(area.height - 1)).rounded())
        #expect(screen.text(row: zeroRow).hasPrefix("   0 ****"))
        #expect(screen.text(row: area.height).hasPrefix("  Hz 20"))
        #expect(screen.text(row: area.height).contains("1k"))
        #expect(screen.text(row: area.height).hasSuffix("20k "))
    }
}
