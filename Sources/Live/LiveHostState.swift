import AudioEngine
import Control
import JackHost
import Parameters
import Platform

extension LiveHost {
    /// Everything the host keeps under its lock, in rooms by what each part owns: what is
    /// hosted and where each value is heading; the connection and its supervision; what MIDI
    /// controllers did (``MIDICounts``); isolated slots' faults and the crash policy's record
    /// (``SlotFaults``); the counters told in `status` and the log (``Counters``); and the
    /// connections to make again (``Wiring``).
    struct State: ~Copyable {
        /// What is hosted: the options' processor until a chain edit changes it.
        var processor: Processor
        /// Chain edits made so far.
        var chainGeneration = 0
        var engine: Engine
        var session: JackSession?
        /// Where each parameter is heading: what `get` answers and what a rebuilt engine
        /// starts from.
        var targets: [ParameterIndex: Double]
        /// The latest frame stamped, so stamps never go backwards.
        var lastStamp = Int64.min
        /// What MIDI control changes do now (nil without a MIDI input): the options' mapping
        /// until `midi` changes it, kept for new connections.
        var midi: MIDIControls?
        /// What a program change does (loads the preset of that number).
        var onProgram: (@Sendable (Int, String) -> Void)?
        /// When to close, reconnect, settle connections or ask the server whether it is there.
        var supervisor: Supervisor
        var watcher: NamedThread?
        var stopping = false
        var exitStatus: Int32?
        var midiCounts = MIDICounts()
        var slotFaults = SlotFaults()
        var counters = Counters()
        var wiring = Wiring()

        init(processor: Processor, engine: Engine, targets: [ParameterIndex: Double], midi: MIDIControls?, supervisor: Supervisor) {
            self.processor = processor
            self.engine = engine
            self.targets = targets
            self.midi = midi
            self.supervisor = supervisor
        }

        /// A new connection: its MIDI counts start again from zero.
        mutating func attach(_ session: JackSession) {
            self.session = session
            midiCounts.seen = [:]
            midiCounts.programsSeen = 0
        }

        /// Takes the values MIDI controllers set since the last look into `targets`, so
        /// `get`, the panel's knobs and a rebuilt engine all follow the controller; one that
        /// moved a target is left for the supervisor to publish.
        mutating func absorbMIDI() {
            guard let s = session else { return }
            var moved = false
            for id in Array(targets.keys) {
                let last = s.midiLastSet(id)
                guard last.generation != midiCounts.seen[id, default: 0] else { continue }
                midiCounts.seen[id] = last.generation
                if targets[id] != last.value { moved = true }
                targets[id] = last.value
            }
            if moved { midiCounts.movedUnpublished = true }
        }

        /// Control changes heard since start-up, over every connection, and the last one's number.
        var heard: (count: UInt64, controller: Int) {
            guard let now = session?.midiHeard, now.count > 0 else { return midiCounts.closedHeard }
            return (midiCounts.closedHeard.count + now.count, now.controller)
        }

        /// Ends the current connection's share of the counters and forgets it.
        mutating func detach() -> JackSession? {
            absorbMIDI()
            defer { session = nil }
            counters.toldFaultedCycles = 0
            if let s = session {
                counters.closedXruns += s.xruns
                midiCounts.closedMessages += s.midiMessages
                midiCounts.closedHeard = heard
            }
            return session
        }
    }

    /// What MIDI controllers did, counted over every connection: which of the current
    /// connection's settings are in the targets already, the program changes acted on, what
    /// was last published, and the earlier connections' share.
    struct MIDICounts {
        /// Per parameter, how many MIDI settings of the current session are in `targets`.
        var seen: [ParameterIndex: UInt64] = [:]
        /// Program changes of the current session already acted on.
        var programsSeen: UInt64 = 0
        /// Control changes heard (over every connection) as last published.
        var heardPublished: UInt64 = 0
        /// A controller moved a target since the supervisor last published it (whoever read
        /// the targets first took it in).
        var movedUnpublished = false
        /// Control changes heard on earlier connections, and the last one's number.
        var closedHeard: (count: UInt64, controller: Int) = (0, 0)
        var closedMessages = 0
    }

    /// Isolated slots' faults: the crash policy's record and what every surface is told.
    struct SlotFaults {
        /// Crashes by slot name (for the three-in-a-minute rule), and the slots left passing
        /// their input through until restarted by hand.
        var crashes: [String: [ContinuousClock.Instant]] = [:]
        var held: Set<String> = []
        /// What happened to isolated slots, in order (the last ``SlotEvents/kept``): what
        /// surfaces that tell each one (OSC's subscribers) read from where they left off, so a
        /// fault and the restart that follows it at once are both told.
        var events = SlotEvents()
        /// Per slot, the frames of absurd output passed through when last looked at, and the
        /// slots told to be sending it now.
        var absurdSeen: [String: Int64] = [:]
        var absurdTold: Set<String> = []
    }

    /// The counters `status` and the log tell, beyond the current connection's own.
    struct Counters {
        var closedXruns = 0
        /// The current connection's cycles silenced by a faulted port buffer, as last told.
        var toldFaultedCycles = 0
        /// Xruns (over every connection) as last told in the log.
        var xrunsTold = 0
        /// The telemetry read by the previous `status()`, for RMS over the interval since.
        var lastSnapshot: TelemetrySnapshot?
    }

    /// Connections to make again on a new server; `pending` are those whose peer port does
    /// not exist (yet): they are made when it appears.
    struct Wiring {
        var remembered = Set<PortConnection>()
        var pending = Set<PortConnection>()
    }
}
