import AudioEngine
import KnobKit
import Presets
import Testing
import Parameters
@testable import TerminalPanel

/// Frames of the whole panel: how much a change costs on the wire, when the picture changes by
/// itself, how the layout follows the size, and what NO_COLOR does.
@Suite("Panel frames")
struct PanelFrameTests {
    /// The bytes of the frame after `change`, following a frame of the panel as it was.
    func bytes(of panel: Panel, at time: Double, after change: () -> Void) -> [UInt8] {
        var writer = FrameWriter(theme: Theme(color: true))
        _ = writer.frame(PanelRenderer.render(panel, at: time).screen)
        change()
        return writer.frame(PanelRenderer.render(panel, at: time).screen)
    }

    @Test("a one-knob change (Gain, one step) writes at most 512 bytes; no change writes nothing")
    func oneKnobBudget() {
        let (panel, _) = makePanel()
        panel.press(.backTab, at: 0)
        let step = bytes(of: panel, at: 50) { panel.press(.up, at: 50) }
        #expect(!step.isEmpty)
        #expect(step.count <= 512)
        let none = bytes(of: panel, at: 60) {}
        #expect(none.isEmpty)
    }

    @Test("a step of Cutoff also moves the response curve, and still writes far less than a full frame")
    func cutoffStep() {
        let (panel, _) = makePanel()
        var writer = FrameWriter(theme: Theme(color: true))
        let full = writer.frame(PanelRenderer.render(panel, at: 50).screen)
        panel.press(.up, at: 50)
        let step = writer.frame(PanelRenderer.render(panel, at: 50).screen)
        #expect(step.count * 4 < full.count)
    }

    @Test("labels: the value stands out for KnobKit's persistence time; the panel wakes when it ends")
    func labelTiming() {
        let (panel, _) = makePanel()
        panel.didDraw(at: 0)
        panel.press(.up, at: 10)
        let persistence = panel.knobs[0].appearance.valuePersistence
        #expect(panel.nextChange(after: 10) == 10 + persistence)
        panel.didDraw(at: 10)
        panel.advance(to: 10.5)
        #expect(!panel.needsDraw)
        panel.advance(to: 10 + persistence)
        #expect(panel.needsDraw)
        panel.didDraw(at: 10 + persistence)
        #expect(panel.nextChange(after: 10 + persistence) == nil)
    }

    @Test("glides: frames are wanted while a needle glides, and once more when it lands")
    func glideFrames() {
        let (panel, _) = makePanel()
        panel.press(.end, at: 1)
        #expect(panel.knob(.cutoff).isAnimating(at: 1.1))
        #expect(panel.nextChange(after: 1.1) == 1.1)
        panel.didDraw(at: 1.1)
        panel.advance(to: 1.2)
        #expect(panel.needsDraw)
        let landed = 1 + panel.knobs[0].appearance.animationDuration
        panel.didDraw(at: landed - 0.01)
        panel.advance(to: landed + 0.01)
        #expect(panel.needsDraw)  // the last frame, on the target
        panel.didDraw(at: landed + 0.01)
        panel.advance(to: landed + 0.02)
        #expect(!panel.needsDraw)
    }

    @Test("the layout: full when the knob row fits, compact when not, a notice below that")
    func layouts() {
        let knobs = LowpassGain.table.ids.count
        let fullWidth = knobs * PanelLayout.slotWidth + 2
        let fullHeight = 2 + PanelLayout.knobRows + 2
        func style(_ w: Int, _ h: Int) -> PanelLayout.Style {
            PanelLayout(width: w, height: h, knobCount: knobs, nameWidth: 9, meterCount: 0).style
        }
        #expect(style(fullWidth, fullHeight) == .full)
        #expect(style(fullWidth - 1, fullHeight) == .compact)
        #expect(style(fullWidth, fullHeight - 1) == .compact)
        let minimum = PanelLayout.minimumSize(knobCount: knobs, nameWidth: 9)
        #expect(style(minimum.width, minimum.height) == .compact)
        #expect(style(minimum.width - 1, minimum.height) == .tooSmall)
        #expect(style(minimum.width, minimum.height - 1) == .tooSmall)
        // The plot appears once there is room for it, meters before it.
        let roomy = PanelLayout(width: 80, height: 24, knobCount: knobs, nameWidth: 9, meterCount: 2)
        #expect(roomy.meters?.height == 2)
        #expect(roomy.plot != nil)
        #expect(roomy.plot!.y > roomy.meters!.y + 2)
        #expect(PanelLayout(width: 80, height: fullHeight, knobCount: knobs, nameWidth: 9, meterCount: 0).plot == nil)
        // Slots never overlap and sit inside the window.
        for slot in roomy.slots { #expect(slot.frame.x >= 0 && slot.frame.x + slot.frame.width <= 80) }
        for (a, b) in zip(roomy.slots, roomy.slots.dropFirst()) { #expect(a.frame.x + a.frame.width <= b.frame.x) }
    }

    @Test("a resize redraws the layout for the new size")
    func resize() {
        let (panel, _) = makePanel()
        panel.resize(width: 40, height: 10, at: 0)
        let screen = PanelRenderer.render(panel, at: 0).screen
        #expect(screen.width == 40)
        #expect(panel.layout.style == .compact)
        #expect(screen.contains("▸ Cutoff"))
    }

    @Test("NO_COLOR: no colour codes at all, attributes keep focus, turning and errors apart")
    func noColor() throws {
        let mono = try Theme.forEnvironment(["NO_COLOR": "1"])
        let color = try Theme.forEnvironment([:])
        #expect(!mono.usesColor)
        #expect(color.usesColor)
        #expect(try Theme.forEnvironment(["NO_COLOR": ""]).usesColor)  // set but empty: colours allowed
        for role in CellRole.allCases {
            let parameters = mono.sgr(role).dropFirst(2).dropLast().split(separator: ";").compactMap { Int($0) }
            #expect(parameters.allSatisfy { $0 < 30 }, "\(role)")  // 30 and up select colours
        }
        #expect(mono.sgr(.progress) != mono.sgr(.progressFocused))
        #expect(mono.sgr(.progressFocused) != mono.sgr(.progressTurning))
        #expect(mono.sgr(.name) != mono.sgr(.nameFocused))
        #expect(mono.sgr(.value) != mono.sgr(.valueActive))
        #expect(mono.sgr(.status) != mono.sgr(.error))
    }
}
