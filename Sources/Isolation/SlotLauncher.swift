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

    package init(program: String, arguments: [String] = [], plan: SandboxPlan = .alone) {
        self.program = program
        self.arguments = arguments
        self.plan = plan
    }

    /// `detent` in the folder of this program (the command line itself, or the one built
    /// beside the tests), else the first on `PATH`; nil when there is none.
    package static func beside() -> SlotLauncher? { ProgramSearch.beside("detent").map { SlotLauncher(program: $0) } }

    /// The longest a run may take before its slot counts as hung: four times the run's own
    /// length, and at least 50 ms, so that a machine busy for a moment (a server without
    /// real-time scheduling, a page fault) does not cost a healthy plug-in its place, while a
    /// plug-in that spins or blocks for ever costs one stall under 100 ms at usual periods.
    /// The floor and the time per frame, in nanoseconds.
    package static func deadline(_ format: KernelFormat) -> (floor: Int64, perFrame: Int64) {
        (50_000_000, Int64((4e9 / format.sampleRate).rounded(.up)))
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
