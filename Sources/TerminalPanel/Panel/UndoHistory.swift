import Parameters
import AudioEngine

/// The knob moves that `u` undoes and `r` redoes.
///
/// A step is one gesture — a drag from press to release, a typed value, a reset, a preset
/// load — and may move several knobs (`D` resets them all at once). Keys and wheel notches
/// turning the same knob in quick succession make one step, as holding ↑ is one move to a
/// person, not fifty. A new step after an undo drops what could have been redone.
public struct UndoHistory: Sendable {
    /// One knob's move.
    public struct Change: Sendable, Hashable {
        public let id: ParameterIndex
        public let before: Double
        public var after: Double

        public init(id: ParameterIndex, before: Double, after: Double) {
            self.id = id
            self.before = before
            self.after = after
        }
    }

    /// What joins consecutive steps into one: the same knob turned by keys or wheel.
    public struct Burst: Sendable, Hashable {
        public let id: ParameterIndex
        public init(_ id: ParameterIndex) { self.id = id }
    }

    public struct Step: Sendable, Hashable {
        public var changes: [Change]
        var burst: Burst?
        var time: Double
    }

    /// Steps of a burst closer than this (seconds) are one step.
    public static let burstGap = 1.0
    /// The oldest steps are forgotten beyond this many.
    public static let limit = 500

    public private(set) var undoSteps: [Step] = []
    public private(set) var redoSteps: [Step] = []

    public init() {}

    /// Records a step (ignored when it changes nothing).
    public mutating func record(_ changes: [Change], burst: Burst? = nil, at time: Double) {
        let real = changes.filter { $0.before != $0.after }
        guard !real.isEmpty else { return }
        redoSteps.removeAll()
        if let burst, var last = undoSteps.last, last.burst == burst, time - last.time <= Self.burstGap,
           last.changes.count == 1, real.count == 1, last.changes[0].id == real[0].id {
            last.changes[0].after = real[0].after
            last.time = time
            undoSteps[undoSteps.count - 1] = last
            if last.changes[0].before == last.changes[0].after { undoSteps.removeLast() }
            return
        }
        undoSteps.append(Step(changes: real, burst: burst, time: time))
        if undoSteps.count > Self.limit { undoSteps.removeFirst(undoSteps.count - Self.limit) }
    }

    /// Takes the last step off the undo list: the caller sets each change's `before`.
    public mutating func undo() -> Step? {
        guard let step = undoSteps.popLast() else { return nil }
        redoSteps.append(step)
        // The step now on top is closed: a key after an undo starts a step of its own.
        if !undoSteps.isEmpty { undoSteps[undoSteps.count - 1].burst = nil }
        return step
    }

    /// Takes the last undone step: the caller sets each change's `after`.
    public mutating func redo() -> Step? {
        guard var step = redoSteps.popLast() else { return nil }
        step.burst = nil  // a redone step never absorbs the next key
        undoSteps.append(step)
        return step
    }
}
