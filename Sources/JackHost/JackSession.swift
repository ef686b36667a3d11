import CJack
import Control
import Parameters
import AudioEngine
import Platform
import Synchronization

/// One client on one JACK server: opened, ports registered, callbacks set, active — until
/// `close`. The host makes a new session for every (re)connection; the engine, and with it
/// the parameter values, outlives them.
package final class JackSession: @unchecked Sendable {
    let client: OpaquePointer
    let context: UnsafeMutablePointer<CallbackContext>
    /// Kept alive here: the process callback holds it unretained. Replaced by ``exchange(to:timeout:)``.
    private(set) var engine: Engine
    /// Which engine the callback runs; kept alive here.
    private let engines: EngineExchange
    /// Posted by the callback when an offered engine has taken over.
    private let switched = Semaphore()
    /// The name JACK gave the client (the requested one, or with a suffix).
    package let name: String
    package let inputNames: [String]
    package let outputNames: [String]
    /// `[midi_in]`, or none without MIDI.
    package let midiNames: [String]
    /// The extra input port sets the session has registered, in order: keyed slots' side
    /// chains and a graph's named inputs. A set stays (unconnected ports do no harm) when its
    /// slot leaves the chain, so that its connections are there should the slot come back.
    package private(set) var sideSets: [SideSet] = []
    private let channels: Int
    private var isClosed = false

    /// The most sets of side-chain and named-input ports a live session registers (its
    /// callback's buffers are made for that many, before the audio runs).
    package static var sideSetCapacity: Int { CallbackContext.sideSetCapacity }

    /// Why `processor` cannot be hosted with the side-chain and named-input port sets this
    /// session has (or, with `registered` empty, a new session): it needs more than
    /// ``sideSetCapacity`` in all. Nil when it fits.
    package static func sideSetProblem(_ processor: Processor, registered: [SideSet] = []) -> String? {
        let keyed = processor.keyedSlots.map { SideSet.slot(processor.chainParts[$0].name) }
        let needed = Set(keyed + processor.namedInputs.map { SideSet.input($0) }).subtracting(registered)
        guard registered.count + needed.count > sideSetCapacity else { return nil }
        let used = registered.isEmpty ? "" : " (\(registered.count) registered already by slots and inputs that were in it)"
        return "a live host has ports for \(sideSetCapacity) side-chain slots and named inputs; this needs \(registered.count + needed.count)" + used
    }

    /// The most parameters a live chain holds (what MIDI mapping's tables are made for).
    package static var parameterCapacity: Int { MIDIControlTable.rowCapacity }
    package static let audioType = JACK_DEFAULT_AUDIO_TYPE
    package static let midiType = JACK_DEFAULT_MIDI_TYPE
    package static let midiInputName = "midi_in"
    package static let midiOutputName = "midi_out"
    /// The processor's own MIDI output (an arpeggiator's notes, a MIDI filter's messages),
    /// apart from `midi_out`, which is controller feedback.
    package static let pluginMIDIOutputName = "plugin_midi_out"

    /// Opens a client and activates it. `engineFor` is called once the server's sample rate
    /// and buffer size are known, before activation, and returns a prepared engine.
    /// `midi` is the mapping to start with; nil registers no `midi_in` port.
    package init(options: LiveHostOptions, processor: Processor, midi: MIDIControls?, values: [ParameterIndex: Double],
         wake: SemaphorePoster,
         engineFor: (_ sampleRate: UInt32, _ bufferSize: UInt32) throws(LiveHostError) -> Engine) throws(LiveHostError) {
        if let problem = Self.sideSetProblem(processor) { throw .processorFailed(problem) }
        try Self.prepareLibrary()
        let client = try Self.openClient(options)
        self.client = client
        name = String(cString: jack_get_client_name(client))
        channels = options.channels

        inputNames = (1...options.channels).map { "in_\($0)" }
        outputNames = (1...options.channels).map { "out_\($0)" }
        midiNames = midi == nil ? [] : [Self.midiInputName]
        let ports = try Self.registerPorts(client: client, name: name, inputs: inputNames, outputs: outputNames,
                                           midiIn: !midiNames.isEmpty, midiOut: midi?.feedback == true,
                                           pluginMIDIOut: processor.makesMIDI)

        // The priority this client's process thread runs at (none without real-time
        // scheduling): what an isolated slot's process serves it at.
        let priority = jack_client_real_time_priority(client)
        AudioThreadPriority.current = priority > 0 ? Int(priority) : nil

        let rate = jack_get_sample_rate(client)
        let bufferSize = jack_get_buffer_size(client)
        do { engine = try engineFor(rate, bufferSize) } catch {
            jack_client_close(client)
            throw error
        }
        engines = EngineExchange(engine)
        context = .allocate(capacity: 1)
        context.initialize(to: CallbackContext(
            exchange: Unmanaged.passUnretained(engines).toOpaque(), switched: switched.poster, client: client,
            channels: options.channels, inputPorts: ports.inputs, outputPorts: ports.outputs,
            midiPort: ports.midi, midiOutPort: ports.midiOut, pluginMIDIPort: ports.pluginMIDI, midi: midi ?? MIDIControls(table: processor.table, channel: nil, controllers: [:]),
            values: values, wake: wake, sampleRate: rate, bufferSize: bufferSize))
        // Keyed slots get their side-chain ports before the client is active.
        bindSides(engine)
        // Nothing processes yet: the kernel may run for no frames to report its latency.
        context.pointee.latency.store(UInt32(clamping: engine.latencyAtCurrentValues()), ordering: .relaxed)

        setCallbacks()
        guard jack_activate(client) == 0 else {
            close()
            throw .activationFailed(name)
        }
    }

    /// Opens the client on the server `options` names, without starting one.
    ///
    /// - Throws: the name taken, no server, or the status JACK gave.
    private static func openClient(_ options: LiveHostOptions) throws(LiveHostError) -> OpaquePointer {
        var status = JackStatus(0)
        var flags = JackNoStartServer.rawValue
        if options.exactName { flags |= JackUseExactName.rawValue }
        func open() -> OpaquePointer? {
            if let server = options.server {
                detent_jack_client_open_server(options.name, JackOptions(flags), &status, server)
            } else {
                detent_jack_client_open(options.name, JackOptions(flags), &status)
            }
        }
        var opened = open()
        // A server that has just started (or is busy) sometimes answers one open with a bare
        // "server error" and takes the next: two more tries, 100 ms apart. A taken exact name
        // gives the same answer, and is asked about below.
        for _ in 0..<2 where opened == nil && status.rawValue & JackServerError.rawValue != 0
            && status.rawValue & JackServerFailed.rawValue == 0 && !options.exactName {
            ThisThread.sleep(for: .milliseconds(100))
            opened = open()
        }
        guard let client = opened else {
            if status.rawValue & JackNameNotUnique.rawValue != 0 { throw .nameTaken(options.name) }
            if status.rawValue & JackServerFailed.rawValue != 0 { throw .noServer(server: options.namedServer) }
            // jackd answers a taken exact name with a bare "server error": ask it.
            if options.exactName && Self.clientExists(options.name, server: options.server) {
                throw .nameTaken(options.name)
            }
            throw .openFailed(name: options.name, status: status.rawValue)
        }
        return client
    }

    /// The ports a session registers on its client: the audio inputs and outputs, in channel
    /// order, and the MIDI ports it was asked for.
    private struct Ports {
        var inputs: [OpaquePointer] = []
        var outputs: [OpaquePointer] = []
        var midi: OpaquePointer?
        var midiOut: OpaquePointer?
        var pluginMIDI: OpaquePointer?
    }

    /// Registers the session's ports on `client` (named `name`) and gives each its pretty
    /// name: the audio ports, then `midi_in`, `midi_out` and `plugin_midi_out` as asked.
    ///
    /// - Throws: the port that could not be registered; the client is closed then.
    private static func registerPorts(client: OpaquePointer, name: String, inputs: [String], outputs: [String],
                                      midiIn: Bool, midiOut: Bool, pluginMIDIOut: Bool) throws(LiveHostError) -> Ports {
        var ports = Ports()
        for (names, flag) in [(inputs, JackPortIsInput), (outputs, JackPortIsOutput)] {
            for port in names {
                let p = try register(port, type: Self.audioType, flag: flag, client: client, name: name)
                if flag == JackPortIsInput { ports.inputs.append(p) } else { ports.outputs.append(p) }
            }
        }
        if midiIn {
            ports.midi = try register(Self.midiInputName, type: Self.midiType, flag: JackPortIsInput, client: client, name: name)
        }
        if midiOut {
            ports.midiOut = try register(Self.midiOutputName, type: Self.midiType, flag: JackPortIsOutput, client: client, name: name)
        }
        if pluginMIDIOut {
            ports.pluginMIDI = try register(Self.pluginMIDIOutputName, type: Self.midiType, flag: JackPortIsOutput,
                                            client: client, name: name)
        }

        let described = ports.inputs + ports.outputs + [ports.midi, ports.midiOut, ports.pluginMIDI].compactMap { $0 }
        for (order, (port, pretty)) in zip(described, Self.prettyNames(channels: inputs.count, midiIn: ports.midi != nil,
                                                                      midiOut: ports.midiOut != nil,
                                                                      pluginMIDIOut: ports.pluginMIDI != nil)).enumerated() {
            _ = detent_jack_describe_port(client, port, pretty, Int32(order))
        }
        return ports
    }

    /// Registers one port of `type` on `client` (named `name`).
    ///
    /// - Throws: ``LiveHostError/portRegistration(_:)`` naming it; the client is closed then.
    private static func register(_ port: String, type: String, flag: JackPortFlags, client: OpaquePointer,
                                 name: String) throws(LiveHostError) -> OpaquePointer {
        guard let p = jack_port_register(client, port, type, UInt(flag.rawValue), 0) else {
            jack_client_close(client)
            throw .portRegistration("\(name):\(port)")
        }
        return p
    }

    /// Sets the client's callbacks, each given the callback context: process, xruns, buffer
    /// size and sample rate changes, connections, registrations, latency and shutdown.
    private func setCallbacks() {
        let arg = UnsafeMutableRawPointer(context)
        jack_set_process_callback(client, jackProcess, arg)
        jack_set_xrun_callback(client, jackXrun, arg)
        jack_set_buffer_size_callback(client, jackBufferSize, arg)
        jack_set_sample_rate_callback(client, jackSampleRate, arg)
        jack_set_port_connect_callback(client, jackPortConnect, arg)
        jack_set_port_registration_callback(client, jackPortRegistration, arg)
        jack_set_latency_callback(client, jackLatency, arg)
        jack_on_info_shutdown(client, jackShutdown, arg)
        jack_on_shutdown(client, jackServerGone, arg)
    }

    deinit { close() }

    /// The ports' names for people, in port order (inputs, outputs, MIDI in, MIDI out): what
    /// patchbays show instead of `in_1` when asked to, and sort by. Two channels are a
    /// stereo pair.
    package static func prettyNames(channels: Int, midiIn: Bool, midiOut: Bool, pluginMIDIOut: Bool) -> [String] {
        let channel = { (c: Int) in channels == 2 ? (c == 1 ? "L" : "R") : "\(c)" }
        return (1...channels).map { "Input \(channel($0))" } + (1...channels).map { "Output \(channel($0))" }
            + (midiIn ? ["MIDI In"] : []) + (midiOut ? ["MIDI Out (controller feedback)"] : [])
            + (pluginMIDIOut ? ["Plug-in MIDI Out"] : [])
    }

    /// Hands the callback `next` (a successor of the running engine) and waits until it has
    /// taken over, at most `timeout`: true when it runs now, false when it was withdrawn (the
    /// callback did not come: the server is stalled or gone). The old engine is released once
    /// the callback has left it. A session whose server is gone replaces it at once.
    package func exchange(to next: Engine, timeout: Duration) -> Bool {
        if isClosed || serverGone {
            engines.replace(with: next)
            engine = next
            return true
        }
        bindSides(next)
        switched.drain()
        engines.offer(next)
        let deadline = ContinuousClock.now + timeout
        while !engines.isRunning(next) {
            let left = deadline - .now
            if left <= .zero || !switched.wait(timeout: left) {
                var withdrawal = engines.withdraw(next)
                // The callback is reading the offer this moment: it is freed only once it is not.
                while withdrawal == .busy {
                    ThisThread.yield()
                    withdrawal = engines.withdraw(next)
                }
                if withdrawal == .withdrawn { return false }
                // Taken in the meantime: the callback is finishing the take-over now.
                while !engines.isRunning(next) { ThisThread.yield() }
            }
        }
        engine = next
        return true
    }

    /// The extra input ports' short names: `SLOT-sc_1…SLOT-sc_N` for each keyed slot, and
    /// `NAME_1…NAME_N` for each named input of a graph.
    package var sideNames: [String] { sideSets.flatMap { $0.portNames(channels: channels) } }

    /// A set of extra input ports: a keyed slot's side chain, or a graph's named input.
    package enum SideSet: Sendable, Hashable {
        case slot(String)
        case input(String)

        /// The name `--connect-sidechain NAME=REGEX` gives it by.
        package var name: String {
            switch self {
            case .slot(let name), .input(let name): name
            }
        }

        func portNames(channels: Int) -> [String] {
            switch self {
            case .slot(let slot): (1...channels).map { "\(slot)-sc_\($0)" }
            case .input(let input): (1...channels).map { "\(input)_\($0)" }
            }
        }
    }

    /// Binds each keyed slot of `engine` (a processor with side-chain inputs), and each named
    /// input of a graph, to its set of ports, registering the set the first time it is seen.
    /// One beyond ``CallbackContext/sideSetCapacity`` sets (or whose ports cannot be
    /// registered) hears silence there, as offline without `--sidechain` or `--input`.
    private func bindSides(_ engine: Engine) {
        let processor = engine.processor
        // (A graph slot whose side chain the graph wires needs no ports of its own.)
        let keyed = processor.keyedSlots
        let slots = processor.chainParts.enumerated().map { s, part in keyed.contains(s) ? SideSet.slot(part.name) : nil }
        let named = processor.namedInputs.map { SideSet.input($0) }
        let titles = processor.chainParts.map(\.processor.name)
        func source(_ set: SideSet?, title: String) -> Int {
            guard let set else { return -1 }
            if let known = sideSets.firstIndex(of: set) { return known }
            let index = sideSets.count
            guard !isClosed, index < CallbackContext.sideSetCapacity else { return -1 }
            var registered: [OpaquePointer] = []
            for (c, port) in set.portNames(channels: channels).enumerated() {
                guard let p = jack_port_register(client, port, Self.audioType, UInt(JackPortIsInput.rawValue), 0) else { break }
                let side = channels == 2 ? (c == 0 ? "L" : "R") : "\(c + 1)"
                _ = detent_jack_describe_port(client, p, "\(title) \(side)", Int32(100 + index * channels + c))
                registered.append(p)
            }
            guard registered.count == channels else {
                for p in registered { jack_port_unregister(client, p) }
                return -1
            }
            for (c, p) in registered.enumerated() { context.pointee.sidePorts[index * channels + c] = p }
            sideSets.append(set)
            // Published after the ports are in place: the callback reads that many sets.
            context.pointee.sideSets.store(sideSets.count, ordering: .releasing)
            return index
        }
        let sources = slots.indices.map { source(slots[$0], title: titles[$0] + " side-chain") }
        let inputs = named.map { source($0, title: "Graph input \($0.name)") }
        engine.bindSides(sources, named: inputs)
    }

    /// The processor's latency, in frames, as the ports report it.
    package var latency: Int { Int(context.pointee.latency.load(ordering: .relaxed)) }

    /// Reports a new processor latency on the ports (JACK recomputes the graph's latencies).
    package func reportLatency(_ frames: Int) {
        let value = UInt32(clamping: frames)
        guard !isClosed, context.pointee.latency.exchange(value, ordering: .relaxed) != value else { return }
        jack_recompute_total_latencies(client)
    }

    /// Closes the client, deactivating it first: PipeWire's libjack (0.3.65) can otherwise
    /// free the client's port buffers while a process callback is still writing to them
    /// (Detent crashed in 11 of 30 rounds of three forced rate changes without it, in 3 of 48
    /// with it).
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        jack_deactivate(client)
        jack_client_close(client)
        Self.free(context)
    }

    /// Closes a client whose server died, waiting at most `timeout`. Returns false when the
    /// client had to be abandoned.
    ///
    /// After a server's death libjack only frees what it held — but it can deadlock doing so:
    /// its notification thread may have been stopped while holding the lock the close takes
    /// (jackaudio/jack2#395). So the close runs on a thread of its own; if it has not returned
    /// in time, the client is left to it and the host carries on (reconnects, or stops) with
    /// a new client later. The callback context and the engine the callbacks reach stay alive
    /// until the close returns, if ever.
    package func closeAfterServerLoss(timeout: Duration) -> Bool {
        guard !isClosed else { return true }
        isClosed = true
        let client = UncheckedSendable(client), context = UncheckedSendable(context), engine = engine, engines = engines
        Self.closing.add(1, ordering: .relaxed)
        let closing = BoundedClose(close: {
            jack_client_close(client.value)
            Self.closing.subtract(1, ordering: .releasing)
        }, release: {
            withExtendedLifetime((engine, engines)) { Self.free(context.value) }
        })
        return closing.run(timeout: timeout)
    }

    /// Closes of lost clients still inside libjack. While one is, opening a client would wait
    /// on the same lock (for ever, when the close is deadlocked): the host does not try.
    package static let closing = Atomic<Int>(0)

    /// True while a lost client's close is still running.
    package static var libraryBusy: Bool { closing.load(ordering: .acquiring) > 0 }

    static func free(_ context: UnsafeMutablePointer<CallbackContext>) {
        context.deinitialize(count: 1)
        context.deallocate()
    }

    /// Whether a client called `name` is on the server, asked through a short-lived client.
    private static func clientExists(_ name: String, server: String?) -> Bool {
        withProbe(server: server) { probe in
            guard let probe, let uuid = jack_get_uuid_for_client_name(probe, name) else { return false }
            jack_free(uuid)
            return true
        }
    }

    /// Whether the server answers: a short-lived client opens and closes. It is a real round
    /// trip with every libjack (PipeWire's answers port queries on a dead connection from its
    /// own cache), and costs nothing in the graph (the client has no ports). Run off the
    /// audio thread, and only when the process callback has gone quiet.
    package static func serverAnswers(_ options: LiveHostOptions) -> Bool {
        withProbe(server: options.server) { $0 != nil }
    }

    /// Runs `body` with a short-lived client on `server` (nil when none could open).
    private static func withProbe<T>(server: String?, _ body: (OpaquePointer?) -> T) -> T {
        var status = JackStatus(0)
        let probe: OpaquePointer? = if let server {
            detent_jack_client_open_server("detent-probe", JackNoStartServer, &status, server)
        } else {
            detent_jack_client_open("detent-probe", JackNoStartServer, &status)
        }
        defer { if let probe { jack_client_close(probe) } }
        return body(probe)
    }

    /// Whether the libjack loaded is jackd2's (its versions are 1.9.x; PipeWire's says
    /// "3.0.0.0 (using PipeWire 0.3.65)"). jackd2's always calls the shutdown callback.
    /// False also when no libjack loads (opening a client then says why).
    package static var libraryIsJack2: Bool {
        detent_jack_load() == nil && String(cString: jack_get_version_string()).hasPrefix("1.9.")
    }

    /// Installs the quiet message handlers once per process.
    /// Opens libjack, which Detent loads when it first needs JACK rather than at start-up
    /// (see DetentLibrary.h), and installs the quiet message handlers, once per process.
    /// - Throws: ``LiveHostError/libraryMissing(_:)`` without a loadable libjack.
    package static func prepareLibrary() throws(LiveHostError) {
        if let problem = detent_jack_load() { throw .libraryMissing(String(cString: problem)) }
        _ = silenceLibjack
    }

    private static let silenceLibjack: Void = {
        jack_set_error_function(jackQuiet)
        jack_set_info_function(jackQuiet)
    }()

    // MARK: State published by the callbacks

    package var serverGone: Bool { context.pointee.serverGone.load(ordering: .acquiring) }
    /// Reads and clears "the server told a sample rate".
    package func takeFormatChanged() -> Bool { context.pointee.formatChanged.exchange(false, ordering: .relaxed) }
    package var xruns: Int { context.pointee.xruns.load(ordering: .relaxed) }
    /// Cycles made silent because the server took a port buffer back during them.
    package var faultedCycles: Int { context.pointee.faultedCycles.load(ordering: .relaxed) }
    /// Process cycles run on this connection.
    package var cycles: UInt64 { context.pointee.cycles.load(ordering: .relaxed) }
    /// MIDI messages that moved a parameter on this connection.
    package var midiMessages: Int { context.pointee.midi.messagesApplied }
    /// Control changes heard on the listened channel on this connection, and the last one's number.
    package var midiHeard: (count: UInt64, controller: Int) { context.pointee.midi.lastHeard() }
    /// Pickup controllers that have not caught their knobs: where each is (normalised).
    package var midiWaiting: [ParameterIndex: Double] { context.pointee.midi.waitingControllers() }
    /// After a live chain edit: knob positions from `values` in the new `table`.
    package func retable(_ table: ParameterTable, values: [ParameterIndex: Double]) { context.pointee.midi.retable(table, values: values) }
    /// Makes `controls` the MIDI mapping from the next message on.
    package func updateMIDI(_ controls: MIDIControls) { context.pointee.midi.update(controls) }
    /// How many times a controller has set `id` on this connection, and the last value.
    package func midiLastSet(_ id: ParameterIndex) -> (generation: UInt64, value: Double) { context.pointee.midi.lastSet(id) }

    /// Program changes taken on this connection, and the last one's number.
    package var midiProgram: (count: UInt64, program: Int) { context.pointee.midi.lastProgram() }

    /// Tells pickup and relative encoders where a knob now is (set by anyone but a controller).
    package func knobMoved(_ id: ParameterIndex, to value: Double, in spec: ParameterSpec) {
        context.pointee.midi.knobMoved(id, to: value, in: spec)
    }
    package var sampleRate: UInt32 { context.pointee.sampleRate.load(ordering: .relaxed) }
    package var bufferSize: UInt32 { context.pointee.bufferSize.load(ordering: .relaxed) }
    package var clock: FrameClock? { context.pointee.readClock() }
    /// JACK's estimate of the frame being processed now.
    package var frameTime: UInt32 { jack_frame_time(client) }
    /// The server's DSP load, in percent.
    package var dspLoad: Double { Double(jack_cpu_load(client)) }

    /// Reads and clears the "graph changed" flag.
    package func takeGraphChanged() -> Bool {
        context.pointee.graphChanged.exchange(false, ordering: .relaxed)
    }

    /// Whether a port of that full name exists on the server.
    package func portExists(_ fullName: String) -> Bool { jack_port_by_name(client, fullName) != nil }

    // MARK: Connections

    /// Full names of the ports matching `pattern` (nil: all) with `flags`, without our own.
    package func ports(matching pattern: String?, type: String = JackSession.audioType, flags: JackPortFlags...) -> [String] {
        let mask = flags.reduce(UInt(0)) { $0 | UInt($1.rawValue) }
        guard let list = jack_get_ports(client, pattern, type, mask) else { return [] }
        defer { jack_free(list) }
        var names: [String] = []
        var i = 0
        while let p = list[i] {
            names.append(String(cString: p))
            i += 1
        }
        return names.filter { !$0.hasPrefix(name + ":") }
    }

    /// The connections the rules ask for: patterns first, else physical ports with
    /// `autoconnect`. Also returns a warning for a pattern that matched nothing.
    package func plannedConnections(_ options: LiveHostOptions) -> (connections: [PortConnection], warnings: [String]) {
        let sides = planned(options, autoconnect: options.autoconnect)
        let warnings = sides.compactMap { side in
            side.rule.flatMap { side.connections.isEmpty ? "no JACK ports match \($0) yet; ports that appear later and match are connected" : nil }
        }
        return (sides.flatMap(\.connections), warnings)
    }

    /// What each connection pattern matches now (`--connect-inputs '^player:'`, …): the
    /// patterns are rules for the whole run, made again as ports come and go.
    package func ruleConnections(_ options: LiveHostOptions) -> [(rule: String, connections: [PortConnection])] {
        planned(options, autoconnect: false).compactMap { side in side.rule.map { ($0, side.connections) } }
    }

    /// Per kind of port (inputs, outputs, MIDI, each side-chain set): its pattern as typed
    /// (nil for `--autoconnect` or nothing), and the connections it asks for now.
    private func planned(_ options: LiveHostOptions, autoconnect: Bool) -> [(rule: String?, connections: [PortConnection])] {
        let sides: [(pattern: String?, option: String, ours: [String], type: String, flag: JackPortFlags)] = [
            (options.connectInputs, "--connect-inputs", inputNames, Self.audioType, JackPortIsOutput),
            (options.connectOutputs, "--connect-outputs", outputNames, Self.audioType, JackPortIsInput),
            (options.connectMIDI, "--connect-midi", midiNames, Self.midiType, JackPortIsOutput),
        ] + sideSets.compactMap { set in
            // A set's own pattern, else the one for every set; never autoconnected.
            guard let pattern = options.connectSidechain[set.name] ?? options.connectSidechain[""] else { return nil }
            return (pattern, "--connect-sidechain", set.portNames(channels: channels), Self.audioType, JackPortIsOutput)
        }
        return sides.filter { !$0.ours.isEmpty }.map { side in
            let theirs: [String]
            if let pattern = side.pattern {
                theirs = ports(matching: pattern, type: side.type, flags: side.flag)
            } else if autoconnect && side.option != "--connect-sidechain" {
                theirs = ports(matching: nil, type: side.type, flags: side.flag, JackPortIsPhysical)
            } else {
                theirs = []
            }
            let connections = side.type == Self.midiType
                // Every matching source plays into the one MIDI input: JACK merges them.
                ? theirs.map { PortConnection(port: Self.midiInputName, peer: $0) }
                : PortPattern.pairs(ours: side.ours, theirs: theirs).map { PortConnection(port: $0.ours, peer: $0.theirs) }
            return (side.pattern.map { "\(side.option) '\($0)'" }, connections)
        }
    }

    /// Makes the connections; returns those that failed (the peer is missing, say).
    @discardableResult
    package func connect(_ connections: [PortConnection]) -> [PortConnection] {
        connections.filter { c in
            let ours = "\(name):\(c.port)"
            let code = c.isInput ? jack_connect(client, c.peer, ours) : jack_connect(client, ours, c.peer)
            return code != 0 && code != Errno.fileExists.rawValue
        }
    }

    /// The connections our ports have now.
    package func currentConnections() -> Set<PortConnection> {
        var result = Set<PortConnection>()
        for port in inputNames + outputNames + midiNames + sideNames {
            guard let p = jack_port_by_name(client, "\(name):\(port)"),
                  let list = jack_port_get_connections(p) else { continue }
            defer { jack_free(list) }
            var i = 0
            while let peer = list[i] {
                result.insert(PortConnection(port: port, peer: String(cString: peer)))
                i += 1
            }
        }
        return result
    }
}

/// A value moved across threads whose accesses the caller orders itself.
struct UncheckedSendable<Value>: @unchecked Sendable {
    package let value: Value
    package init(_ value: Value) { self.value = value }
}
