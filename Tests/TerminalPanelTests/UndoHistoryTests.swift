import AudioEngine
import Testing
@testable import TerminalPanel

@Suite("Undo history")
struct UndoHistoryTests {
    typealias Change = UndoHistory.Change

    @Test("steps of one knob's burst closer than the gap merge; a different knob or a pause starts a step")
    func bursts() {
        var history = UndoHistory()
        let cutoff = UndoHistory.Burst(.cutoff)
        history.record([Change(id: .cutoff, before: 1, after: 2)], burst: cutoff, at: 0)
        history.record([Change(id: .cutoff, before: 2, after: 3)], burst: cutoff, at: UndoHistory.burstGap)
        #expect(history.undoSteps.map(\.changes) == [[Change(id: .cutoff, before: 1, after: 3)]])
        history.record([Change(id: .gain, before: 0, after: 1)], burst: UndoHistory.Burst(.gain), at: 1.1)
        history.record([Change(id: .cutoff, before: 3, after: 4)], burst: cutoff, at: 1.2)
        history.record([Change(id: .cutoff, before: 4, after: 5)], burst: cutoff, at: 1.2 + UndoHistory.burstGap + 0.01)
        #expect(history.undoSteps.count == 4)
    }

    @Test("a burst that comes back to where it started leaves no step; no-change steps are dropped")
    func noOps() {
        var history = UndoHistory()
        let gain = UndoHistory.Burst(.gain)
        history.record([Change(id: .gain, before: 0, after: 1)], burst: gain, at: 0)
        history.record([Change(id: .gain, before: 1, after: 0)], burst: gain, at: 0.5)
        #expect(history.undoSteps.isEmpty)
        history.record([Change(id: .gain, before: 2, after: 2)], at: 1)
        #expect(history.undoSteps.isEmpty)
    }

    @Test("undo then a new step drops the redo list; a key after an undo does not join an older burst")
    func redoDropped() {
        var history = UndoHistory()
        let cutoff = UndoHistory.Burst(.cutoff)
        history.record([Change(id: .cutoff, before: 1, after: 2)], burst: cutoff, at: 0)
        history.record([Change(id: .gain, before: 0, after: 1)], at: 0.1)
        #expect(history.undo()?.changes == [Change(id: .gain, before: 0, after: 1)])
        history.record([Change(id: .cutoff, before: 2, after: 3)], burst: cutoff, at: 0.2)
        #expect(history.redoSteps.isEmpty)
        #expect(history.undoSteps.count == 2)
        #expect(history.redo() == nil)
    }

    @Test("only the newest steps are kept")
    func limit() {
        var history = UndoHistory()
        for i in 0..<(UndoHistory.limit + 20) {
            history.record([Change(id: .resonance, before: Double(i), after: Double(i + 1))], at: Double(i))
        }
        #expect(history.undoSteps.count == UndoHistory.limit)
        #expect(history.undoSteps.first?.changes.first?.before == 20)
    }
}
