import AudioEngine
import Parameters
import Platform

/// How isolated slots are started: the program that serves one (`detent slot`, hidden), and
/// how long a run may take before the slot counts as hung.
package struct SlotLauncher: Sendable {
    /// The `detent` program whose `slot` command serves a slot.
    package var program: String
    /// The words before `slot`: none for `detent`; for Python's binding, whose slots are
    /// served by the interpreter running `detent._slot`, `-m detent._slot`.
    package var arguments: [String]
    /// Which slots share a process (``SandboxPlan``).
    package var plan: SandboxPlan
    /// The sandboxes running for this launcher's slots, shared by its copies: a slot added to
    /// a running rig joins its sandbox.
    package let sandboxes = SandboxRegistry()
    /// The longest a plug-in may take to answer — to start, or to run one block — before it
    /// counts as hung and its process is killed (Python's `timeout=`); nil for the defaults:
    /// ``IsolatedSlot/startDeadline`` to start, ``deadline(_:)``'s to run.
    package var timeout: Duration?

    package init(program: String, arguments: [String] = [], plan: SandboxPlan = .alone) {
        self.program = program
        self.arguments = arguments
        self.plan = plan
    }

    /// `detent` in the folder of this program (the command line itself, or the one built
    /// beside the tests), else the first on `PATH`; nil when there is none.
    package static func beside() -> SlotLauncher? { ProgramSearch.beside("detent").map { SlotLauncher(program: $0) } }

    /// How long a slot's process may take to make its plug-in before it counts as hung.
    package var startDeadline: Duration { timeout ?? IsolatedSlot.startDeadline }

    /// The longest a run may take before its slot counts as hung: ``timeout`` when given,
    /// else four times the run's own length and at least a floor. Live, the floor is 50 ms, so
    /// that a machine busy for a moment (a server without real-time scheduling, a page fault)
    /// does not cost a healthy plug-in its place, while a plug-in that spins or blocks for
    /// ever costs one stall under 100 ms at usual periods. Offline nothing waits on the
    /// sound, and a plug-in slower than its audio (a long convolution, a first run that loads
    /// files) is slow, not hung: the floor is the start's 10 s. The floor and the time per
    /// frame, in nanoseconds.
    package func deadline(_ format: KernelFormat) -> (floor: Int64, perFrame: Int64) {
        if let timeout { return (timeout.wholeNanoseconds, 0) }
        let floor: Int64 = format.realtime ? 50_000_000 : 10_000_000_000
        return (floor, Int64((4e9 / format.sampleRate).rounded(.up)))
    }
}

extension Processor {
    /// This processor with every plug-in (a chain's slots, or itself) run in a process of its
    /// own, or in its sandbox's as `launcher`'s plan says, each started at the engine's
    /// `prepare`: a crash, an abort or an endless loop in one costs that slot (or its sandbox)
    /// alone, which then passes its input through until it is restarted. The built-in runs
    /// here. Ids, table and identifier are unchanged.
    package func isolated(_ launcher: SlotLauncher) -> Processor {
        makingKernels { processor, slot in
            { format, files, state in
                try IsolatedSlot.start(processor, files: files, state: state, format: format, launcher: launcher,
                                       slot: slot).prepared
            }
        }
    }
}
