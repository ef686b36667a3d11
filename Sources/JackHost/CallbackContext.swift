import CJack
import Control
import AudioEngine
import Parameters
import Platform
import Synchronization

/// Everything JACK's callbacks touch for one client, at a fixed address for the client's
/// whole life: the callbacks receive that address as their `arg`.
///
/// The audio thread reads only plain values, raw pointers and atomics here — no class
/// references, so no reference counting. The engine is reached through an unretained
/// ``EngineExchange`` (which lets a live chain edit swap it between blocks); ``JackSession``
/// holds the strong references until `jack_client_close` has returned.
/// The other callbacks (xrun, buffer size, sample rate, shutdown, graph changes) run on
/// JACK's notification thread and only flip atomics and post the host's wake-up semaphore,
/// which is async-signal-safe as JACK's shutdown callback requires.
struct CallbackContext: ~Copyable {
    // Constant while the client is active.
    /// The ``EngineExchange`` that says which engine runs, unretained.
    let exchange: UnsafeMutableRawPointer
    /// Posted when an offered engine has taken over (the editor waiting for it wakes).
    let switched: SemaphorePoster
    let client: OpaquePointer
    let channels: Int
    let inputPorts: UnsafeMutablePointer<OpaquePointer?>
    let outputPorts: UnsafeMutablePointer<OpaquePointer?>
    /// The engine's own copies of the cycle's port buffers, `portFrames` per channel: the
    /// callback copies the inputs in at its start and the outputs out at its end, in steps
    /// guarded against a buffer the server unmaps meanwhile (see CJack.h), and the engine
    /// works on these between.
    let inputBuffers: UnsafeMutablePointer<UnsafePointer<Float>>
    let outputBuffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// Their storage: every input, then every output, `portFrames` apart.
    let audio: UnsafeMutablePointer<Float>
    /// The most frames a cycle can bring: JACK's largest period (jackd2's and PipeWire's
    /// libjack's limit). A longer cycle is played as silence.
    static var portFrames: Int { @_noLocks get { 8192 } }
    /// Cycles made silent because a port buffer faulted (the server took it back during the
    /// cycle), for the host to tell.
    let faultedCycles = Atomic<Int>(0)
    let wake: SemaphorePoster
    /// Side-chain input ports (``JackSession/sideNames``): `channels` per set, one set per
    /// keyed slot the session has hosted, at most ``sideSetCapacity``; ``sideSets`` says how
    /// many are registered (a chain edit may add one while the callback runs, so it is
    /// published after the ports are in place). Read like the main inputs, into `sideAudio`
    /// (`portFrames` per port), whose channel table per set is `sideTables`; `sides` is the
    /// cycle's list for the engine.
    let sidePorts: UnsafeMutablePointer<OpaquePointer?>
    let sideSets = Atomic<Int>(0)
    let sideAudio: UnsafeMutablePointer<Float>
    let sideTables: UnsafeMutablePointer<UnsafePointer<Float>>
    let sides: UnsafeMutablePointer<Engine.SideInput>
    static var sideSetCapacity: Int { @_noLocks get { 8 } }
    /// The MIDI input, nil without MIDI (`--no-midi`), and what its control changes do.
    let midiPort: OpaquePointer?
    /// `midi_out`, nil without feedback, and what waits to go out on it.
    let midiOutPort: OpaquePointer?
    /// `plugin_midi_out`, for a processor that writes MIDI; nil otherwise.
    let pluginMIDIPort: OpaquePointer?
    /// The cycle's messages for `plugin_midi_out`, gathered from every slot and put in time
    /// order before they are written (JACK takes a port's messages in time order only).
    let pluginMIDI: UnsafeMutablePointer<DetentPortMIDIEvent>
    var pluginMIDICount = 0
    static var pluginMIDICapacity: Int { @_noLocks get { 1024 } }
    /// The cycle's messages from the MIDI input, copied out of the port buffer in one guarded
    /// step (their bytes into `midiInBytes`): more than the capacity are left out.
    let midiIn: UnsafeMutablePointer<DetentPortMIDIEvent>
    let midiInBytes: UnsafeMutablePointer<UInt8>
    static var midiInCapacity: Int { @_noLocks get { 1024 } }
    static var midiInByteCapacity: Int { @_noLocks get { 32_768 } }
    let feedback: MIDIFeedbackQueue
    let midi: MIDIControlTable
    /// The cycle's MIDI control changes, decoded for the engine's splitter (frames within
    /// the cycle). A cycle with more than `eventCapacity` mapped changes keeps the first
    /// ones; a JACK MIDI buffer of a usual period holds far fewer.
    let events: UnsafeMutablePointer<ParameterChange>
    static var eventCapacity: Int { @_noLocks get { 1024 } }

    // The frame clock (see `FrameClock`), published through a sequence lock: the callback
    // never waits, a reader retries if it overlapped a write.
    let clockSequence = Atomic<UInt64>(0)
    let clockJack = Atomic<UInt32>(0)
    let clockEngine = Atomic<Int64>(0)
    let clockPeriod = Atomic<UInt32>(0)

    /// Process cycles run, for the supervisor to see that the callback still comes: when it
    /// stops while the client should be running, the server may have died without a word
    /// (PipeWire's libjack never calls the info shutdown callback). The audio thread is its
    /// only writer, so counting is a load and a store, no read-modify-write.
    let cycles = Atomic<UInt64>(0)

    // JACK's transport as last told to the engine (audio thread only): a change of rolling,
    // tempo or place (a frame other than where rolling would have brought it) is told again.
    /// ``detent_own_changes()`` as the callback last saw it: a move wakes the supervisor.
    var ownChangesSeen: UInt32 = 0
    var transportRolling = false
    var transportFrame: jack_nframes_t = 0
    var transportTempo: Double = 0
    let xruns = Atomic<Int>(0)
    let bufferSize: Atomic<UInt32>
    let sampleRate: Atomic<UInt32>
    /// The server told a sample rate (maybe a new one): the host looks whether its engine
    /// needs replacing. The callback outputs silence while the rates differ.
    let formatChanged = Atomic<Bool>(false)
    let serverGone = Atomic<Bool>(false)
    /// A connection or port came or went somewhere in the graph.
    let graphChanged = Atomic<Bool>(false)
    /// The processor's latency in frames, added to the ports' latency ranges.
    let latency = Atomic<UInt32>(0)

    init(exchange: UnsafeMutableRawPointer, switched: SemaphorePoster, client: OpaquePointer, channels: Int,
         inputPorts: [OpaquePointer], outputPorts: [OpaquePointer], midiPort: OpaquePointer?, midiOutPort: OpaquePointer?,
         pluginMIDIPort: OpaquePointer?, midi: MIDIControls,
         values: [ParameterIndex: Double], wake: SemaphorePoster, sampleRate: UInt32, bufferSize: UInt32,) {
        self.exchange = exchange
        self.switched = switched
        self.client = client
        self.channels = channels
        self.inputPorts = .allocate(capacity: channels)
        self.outputPorts = .allocate(capacity: channels)
        self.inputBuffers = .allocate(capacity: channels)
        self.outputBuffers = .allocate(capacity: channels)
        audio = .allocate(capacity: 2 * channels * Self.portFrames)
        audio.initialize(repeating: 0, count: 2 * channels * Self.portFrames)
        for c in 0..<channels {
            (self.inputPorts + c).initialize(to: inputPorts[c])
            (self.outputPorts + c).initialize(to: outputPorts[c])
            (self.inputBuffers + c).initialize(to: UnsafePointer(audio + c * Self.portFrames))
            (self.outputBuffers + c).initialize(to: audio + (channels + c) * Self.portFrames)
        }
        let sidePortCount = Self.sideSetCapacity * channels
        sidePorts = .allocate(capacity: sidePortCount)
        sidePorts.initialize(repeating: nil, count: sidePortCount)
        sideAudio = .allocate(capacity: sidePortCount * Self.portFrames)
        sideAudio.initialize(repeating: 0, count: sidePortCount * Self.portFrames)
        sideTables = .allocate(capacity: sidePortCount)
        for p in 0..<sidePortCount { (sideTables + p).initialize(to: UnsafePointer(sideAudio + p * Self.portFrames)) }
        sides = .allocate(capacity: Self.sideSetCapacity)
        for k in 0..<Self.sideSetCapacity {
            (sides + k).initialize(to: Engine.SideInput(slot: -1, channels: UnsafePointer(sideTables + k * channels), stride: 1))
        }
        detent_port_guard_install()
        self.midiPort = midiPort
        self.midiOutPort = midiOutPort
        self.pluginMIDIPort = pluginMIDIPort
        feedback = MIDIFeedbackQueue(sampleRate: sampleRate)
        self.midi = MIDIControlTable(midi, values: values)
        events = .allocate(capacity: Self.eventCapacity)
        pluginMIDI = .allocate(capacity: Self.pluginMIDICapacity)
        midiIn = .allocate(capacity: Self.midiInCapacity)
        midiInBytes = .allocate(capacity: Self.midiInByteCapacity)
        events.initialize(repeating: ParameterChange(ParameterIndex(0), 0), count: Self.eventCapacity)
        self.wake = wake
        self.sampleRate = Atomic(sampleRate)
        self.bufferSize = Atomic(bufferSize)
    }

    deinit {
        inputPorts.deallocate()
        outputPorts.deallocate()
        inputBuffers.deallocate()
        outputBuffers.deallocate()
        audio.deallocate()
        sidePorts.deallocate()
        sideAudio.deallocate()
        sideTables.deallocate()
        sides.deallocate()
        events.deallocate()
        pluginMIDI.deallocate()
        midiIn.deallocate()
        midiInBytes.deallocate()
    }

    /// Counts a cycle made silent by a faulted port buffer, for the host to tell when it next
    /// looks (audio thread; the only writer, so a load and a store).
    @_noLocks
    func countFault() {
        faultedCycles.store(faultedCycles.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
    }

    /// Publishes the start of a cycle (audio thread).
    @_noLocks
    func publishClock(jackFrame: UInt32, engineFrame: Int64, period: UInt32) {
        let s = clockSequence.load(ordering: .relaxed)
        clockSequence.store(s &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        clockJack.store(jackFrame, ordering: .relaxed)
        clockEngine.store(engineFrame, ordering: .relaxed)
        clockPeriod.store(period, ordering: .relaxed)
        clockSequence.store(s &+ 2, ordering: .releasing)
    }

    /// The latest published cycle, or nil before the first one.
    func readClock() -> FrameClock? {
        while true {
            let before = clockSequence.load(ordering: .acquiring)
            if before == 0 { return nil }
            if before & 1 == 0 {
                let clock = FrameClock(
                    jackFrame: clockJack.load(ordering: .relaxed),
                    engineFrame: clockEngine.load(ordering: .relaxed),
                    period: clockPeriod.load(ordering: .relaxed))
                atomicMemoryFence(ordering: .acquiring)
                if clockSequence.load(ordering: .relaxed) == before { return clock }
            }
        }
    }
}
