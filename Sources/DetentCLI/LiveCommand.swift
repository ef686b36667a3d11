import RenderJobs
import Live
import Isolation
import TextFormats
import OfflineRender
import ArgumentParser
import Control
import Parameters
import AudioEngine
import Dispatch
import JackHost
import Platform
import TerminalPanel
import Presets
import OSC
import Synchronization
import WebBridge
import Rig

/// `detent live`: the engine as a JACK client, driven by commands read from standard input.
struct LiveCommand: ParsableCommand {
    /// Read at every start of every command (the argument parser builds all subcommands'):
    /// nothing in it builds a parameter table, which cost `--version` a sixth of its time.
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Run the engine as a JACK client, controlled by typed commands.",
        discussion: """
            Registers in_1…in_N, out_1…out_N and midi_in, and reads one command per line from \
            standard input, answering each with one line on standard output:

              set ID VALUE       set a parameter (set cutoff 1.2k, set gain -6 dB)
              set ID PATH        load another file into a file parameter (set impulse hall.wav)
              get ID             the value a parameter is set to
              params             every parameter's value
              reset [ID]         back to the default (one parameter, or all)
              preset load NAME   apply a preset
              preset save NAME   save the current values as a preset
              status             server, sample rate, buffer size, xruns, DSP load,
                                 MIDI control changes, current values and output peaks
                                 since the last status
              midi               what MIDI control changes do; 'midi ID CC' or
                                 'midi ID none' maps a parameter, 'midi channel
                                 N' or 'midi channel all' picks the channel
              chain              the chain's slots; 'chain add [NAME=]PLUGIN [at N]',
                                 'chain remove NAME', 'chain move NAME N' edit it
                                 while it plays (10 ms fades, the other slots
                                 untouched; the panel's keys A, X, < and >
                                 do the same); a graph's: 'chain add
                                 [NAME=]PLUGIN at FROM>TO', 'chain remove NAME',
                                 'chain connect FROM TO', 'chain disconnect FROM
                                 TO' (a chain wired so becomes its line's
                                 graph); 'chain rename NAME NEW' renames a
                                 slot (its ids follow it)
              restart SLOT       start an isolated slot's process afresh, with the
                                 slots of its sandbox that are down (--isolate;
                                 the panel's key R)
              help, quit

            MIDI control changes on midi_in turn the knobs, at the frame they arrive: by \
            default each parameter on the controller of its table row ('detent params' lists \
            them), on all channels (see --midi-cc and --midi-channel).

            --plugin hosts an installed LV2 plug-in instead (see 'detent plugins'): its \
            control inputs are the parameters (by symbol), its meters appear in 'status' and \
            'get', its latency on the JACK ports. An instrument plays the notes that reach \
            midi_in; control changes mapped with --midi-cc or 'midi ID CC' turn knobs instead.

            With NSM_URL set (started by a session manager: New Session Manager, RaySession, \
            Agordejo), Detent follows the NSM protocol: it waits for the manager to open a \
            session, runs under the client id it gives, and saves its state in the session: \
            the chain as it is (edited over OSC, /detent/chain), its values, and its plug-ins' \
            own states with copies of their files.

            A bad command answers 'error: …' and the host carries on; the end of the input \
            quits. If the JACK server stops, Detent keeps its values and reconnects when the \
            server returns (unless --no-reconnect).
            """)

    @Option(help: "The JACK client name.")
    var name = "detent"

    @Flag(help: "Fail if the client name is taken instead of letting JACK add a suffix.")
    var exactName = false

    @Option(help: "The JACK server to join (default: $JACK_DEFAULT_SERVER, else 'default').")
    var server: String?

    @Option(help: "The number of channels: ports in_1…in_N and out_1…out_N.")
    var channels = 2

    @OptionGroup var plugin: PluginOption

    @OptionGroup var starting: StartingValueOptions

    @Flag(inversion: .prefixedNo, help: ArgumentHelp(
        "Run each plug-in in a process of its own: a crash, an abort or an endless loop costs that slot alone, which passes its input through and is restarted. --isolate=together runs them all in one process; --isolate=drive+eq,verb in the groups named, each other slot alone; a fault restarts its whole group (docs/live.md, \"Isolated slots\")."))
    var isolate = false

    /// What `--isolate=MODE` says (``Detent/spellingOut(_:)`` makes it this option).
    @Option(name: .customLong("isolate-plan"), help: .hidden)
    var isolatePlan: String?

    @Option(help: ArgumentHelp("Connect the inputs from the ports matching a regular expression.", valueName: "regex"))
    var connectInputs: String?

    @Option(help: ArgumentHelp("Connect the outputs to the ports matching a regular expression.", valueName: "regex"))
    var connectOutputs: String?

    @Option(help: ArgumentHelp("Connect midi_in from the MIDI ports matching a regular expression.", valueName: "regex"))
    var connectMidi: String?

    @Option(help: ArgumentHelp("Connect a keyed slot's side-chain ports (SLOT-sc_1…), or a graph's named input's (NAME_1…), from the ports matching a regular expression: SLOT=REGEX or NAME=REGEX, or REGEX for all of them. Repeatable; --autoconnect leaves these ports alone.", valueName: "name=regex"))
    var connectSidechain: [String] = []

    @Flag(help: "Connect to the physical capture, playback and MIDI ports (where no regex is given).")
    var autoconnect = false

    @Option(help: ArgumentHelp("Map a parameter to a MIDI control change number "
                               + "(\(MIDIControls.controllerRange.lowerBound)…\(MIDIControls.controllerRange.upperBound)), or unmap it with none "
                               + "(repeatable; default: \(MIDIControls.standard(for: LowpassGain.table).assignments)).", valueName: "id=cc"))
    var midiCc: [String] = []

    @Option(help: ArgumentHelp("The MIDI channel to listen on, 1…16 or all (default: the mapping file's, else all).", valueName: "channel"))
    var midiChannel: String?

    @Option(help: ArgumentHelp("Read the MIDI mapping from a JSON file (docs/live.md, \"MIDI controllers\"); "
                               + "--midi-cc changes it further, 'midi save' writes it back.", valueName: "file"))
    var midiMap: String?

    @Option(help: ArgumentHelp("What an absolute controller far from its knob does: pickup (wait until it passes the knob) or jump.",
                               valueName: "pickup|jump"))
    var midiTakeover: String?

    @Option(help: ArgumentHelp("Presets that MIDI program changes 0, 1, 2… load, in order, separated by commas.", valueName: "names"))
    var programPresets: String?

    @Flag(help: "No MIDI input port.")
    var noMidi = false

    @Flag(help: "No midi_out port: do not send mapped parameters' positions to controllers (motor faders, LED rings).")
    var noMidiFeedback = false

    @Option(parsing: .unconditional,
            help: ArgumentHelp("The smoothing time of parameter changes (default: the engine's).", valueName: "ms"))
    var smoothing: Double?

    @Option(help: ArgumentHelp(
        "The tempo tempo-synced plug-ins follow (LV2 time:Position: a delay synced to the beat) while JACK's transport has no timebase master; a master's tempo and position win: 1 … 999.",
        valueName: "bpm"))
    var bpm: Double?

    @Flag(help: "Read commands from standard input even when it is a terminal (no knob panel).")
    var headless = false

    @Flag(help: ArgumentHelp("Read no commands: run until SIGTERM, SIGINT or SIGHUP (a systemd unit, nohup, a session "
        + "launcher). Standard input from /dev/null means the same."))
    var service = false

    @Flag(help: "Draw the knob panel with ASCII characters only (the default when the locale is not UTF-8).")
    var ascii = false

    @Option(help: ArgumentHelp("The knob panel's colours: dark, light (for light backgrounds) or plain (the terminal's own). Default: $DETENT_THEME, else dark.", valueName: "theme"))
    var theme: ThemeStyle?

    @Flag(help: "Answer commands with JSON lines.")
    var json = false

    @Flag(help: "Exit with status 1 when the server goes away instead of waiting for it.")
    var noReconnect = false

    @Option(help: ArgumentHelp("Listen for OSC on this UDP port (docs/live.md, \"Remote control\").", valueName: "port"))
    var osc: Int?

    @Option(help: ArgumentHelp("The address OSC listens on; 127.0.0.1 is this machine only.", valueName: "address"))
    var oscBind = "127.0.0.1"

    @OptionGroup var web: WebOptions

    /// The checks that need no server and no preset: each a usage error (64), told before
    /// any server is contacted.
    func validate() throws {
        if let osc, !(0...65_535).contains(osc) { throw ValidationError("--osc \(osc): a UDP port is 1 … 65535 (0: any free one)") }
        if !OSCServer.isAddress(oscBind) { throw ValidationError("--osc-bind '\(oscBind)': not an IP address (127.0.0.1, 0.0.0.0, ::1, …)") }
        if let bpm, !bpm.isFinite || !TransportPosition.tempoRange.contains(bpm) {
            throw ValidationError("--bpm \(bpm): expected a tempo of 1 … 999 beats per minute")
        }
        // A plug-in's parameters are checked once it is found, in `run`.
        if plugin.isDefault { _ = try hostOptions(processor: .lowpassGain) }
        if let isolatePlan {
            do { _ = try SandboxPlan(parsing: isolatePlan) } catch { throw ValidationError(error.description) }
        }
    }

    /// Which isolated slots share a process (validated already).
    var sandboxPlan: SandboxPlan { isolatePlan.flatMap { try? SandboxPlan(parsing: $0) } ?? .alone }

    /// The host's options from the command line (all but the starting values).
    /// - Parameter presetMIDI: the starting preset's MIDI mapping (its `midi` field), used when
    ///   no `--midi-map` is given.
    func hostOptions(processor: Processor, presetMIDI: JSONValue? = nil) throws(ValidationError) -> LiveHostOptions {
        var options = LiveHostOptions(processor: processor)
        options.name = name
        options.exactName = exactName
        options.server = server
        options.channels = channels
        options.connectInputs = connectInputs
        options.connectOutputs = connectOutputs
        // The port sets there are: keyed slots' side chains, a graph's named inputs.
        let sets = processor.keyNames
        for text in connectSidechain {
            // NAME=REGEX when the part before `=` names one of them; else a pattern for all.
            if let equals = text.firstIndex(of: "="), let name = sets.first(where: { $0.lowercased() == text[..<equals].lowercased() }) {
                options.connectSidechain[name] = String(text[text.index(after: equals)...])
            } else {
                options.connectSidechain[""] = text
            }
        }
        if !connectSidechain.isEmpty && sets.isEmpty {
            throw ValidationError("--connect-sidechain: no slot has a side-chain input, and no graph input is named")
        }
        options.autoconnect = autoconnect
        options.smoothing = smoothing.map { $0 / 1000 }
        options.beatsPerMinute = bpm
        options.reconnect = !noReconnect
        options.audioCheck = { path in SoundFileReader.audioProblem(at: path)?.description }
        options.stopWhenLibraryStuck = service || Self.inputIsNull
        // A service may start before its server (at boot, before PipeWire): it waits.
        options.waitsForServer = service || Self.inputIsNull
        if noMidi && (connectMidi != nil || !midiCc.isEmpty || midiChannel != nil || midiMap != nil
                      || midiTakeover != nil || programPresets != nil || noMidiFeedback) {
            throw ValidationError("--no-midi leaves out the MIDI input that --connect-midi, --midi-cc, --midi-channel, "
                                  + "--midi-map, --midi-takeover, --program-presets and --no-midi-feedback set up")
        }
        let takeover = try midiTakeover.map { text throws(ValidationError) in
            guard let takeover = MIDIMapping.Takeover(rawValue: text.lowercased()) else {
                throw ValidationError("--midi-takeover '\(text)': expected pickup or jump")
            }
            return takeover
        }
        do {
            if noMidi {
                options.midi = nil
            } else {
                var midi = try midiMap.map { path throws(UsageError) in try MIDIMapFile.read(path, table: options.processor.table) }
                    ?? presetMIDI.map { json throws(UsageError) in
                        do { return try MIDIControls(json: json, table: options.processor.table) } catch {
                            throw UsageError("the preset's MIDI mapping: \(error)")
                        }
                    }
                    ?? MIDIControls.standard(for: options.processor.table)
                if let midiChannel { midi.channel = try MIDIControls.parseChannel(midiChannel) }
                try midi.assign(parsing: midiCc)
                if let takeover { midi.setTakeover(takeover) }
                if noMidiFeedback { midi.feedback = false }
                if let programPresets {
                    midi.programPresets = programPresets.split(separator: ",").map { String($0).trimmedWhitespace }.filter { !$0.isEmpty }
                }
                options.midi = midi
                options.connectMIDI = connectMidi
            }
            try options.validate()
        } catch {
            throw ValidationError("\(error)")
        }
        return options
    }

    /// The sandbox plan as `--isolate=` writes it, nil without `--isolate`: kept in presets
    /// and sessions.
    var isolation: String? { isolate ? sandboxPlan.text : nil }

    /// This command with the plan of the preset it starts from when the command line gives
    /// none (a preset saved from an isolated rig starts isolated); nil when nothing changes.
    func adoptingPresetIsolation() throws -> LiveCommand? {
        guard !isolate, Environment.value("NSM_URL") == nil, let name = starting.preset ?? plugin.startingPreset else { return nil }
        let (_, store) = try plugin.resolve()
        guard let plan = (try? store.resolve(name))?.preset.isolate else { return nil }
        var command = self
        command.isolate = true
        do { command.isolatePlan = try SandboxPlan(parsing: plan).text } catch {
            throw CommandFailure("preset '\(name)': its 'isolate' \(error.description.dropFirst("--isolate: ".count))", exitCode: 65)
        }
        return command
    }

    func run() throws {
        if let adopted = try adoptingPresetIsolation() { return try adopted.runAsGiven() }
        try runAsGiven()
    }

    private func runAsGiven() throws {
        // Under a session manager, the manager says when to open which session.
        if let url = Environment.value("NSM_URL"), !url.isEmpty {
            if let status = try ManagedSession(launcher: LiveLauncher(command: self), log: LineWriter.standardError.line).run(url: url) {
                throw ExitCode(status)
            }
            return
        }
        var (processor, store, starting) = try startingProcessor()
        processor = try isolating(processor)
        let presets = StorePresetSource(store: store, processor: processor, isolation: isolation)
        var options = try startingOptions(processor: processor, store: store, starting: starting)

        // On a terminal (and without --headless) the knob panel opens over the engine; the
        // host's messages (server lost, reconnected) are held while it owns the screen and
        // printed when it closes.
        if !headless && DescriptorIO.isTerminal(0) && DescriptorIO.isTerminal(1) {
            try runPanel(options: options, store: store)
            return
        }

        // Nothing to read (a service, or input from /dev/null as systemd, nohup and setsid
        // scripts give): run until a signal rather than quit at once at the end of no input.
        let quiet = service || Self.inputIsNull
        let reader = LineReader(fileDescriptor: quiet ? nil : 0)
        let signals = try Self.stopOnSignals { reader.interrupt() }
        defer { signals.stop() }
        options.logsXruns = true
        let host = LiveHost(options: options, log: LineWriter.standardError.line, onTerminate: { _ in reader.interrupt() })
        do {
            try host.start()
        } catch {
            throw CommandFailure(error.description, exitCode: 1)
        }
        announce(host, processor: processor, options: options, quiet: quiet)

        let interpreter = commandInterpreter(host: host, presets: presets, log: LineWriter.standardError.line)
        allowChainEdits(host, presets: presets)
        let bridge = try startOSC(host: host, interpreter: interpreter, log: { Console.warning($0) })
        for line in bridge?.announcement(bind: oscBind) ?? [] { LineWriter.standardError.line(line) }
        defer { bridge?.stop() }
        let web = try startWeb(host: host, interpreter: interpreter, oscPort: bridge?.port, log: { Console.warning($0) })
        defer { web?.stop() }
        answerCommands(from: reader, interpreter: interpreter, host: host)
        host.stop()
        if let code = host.exitStatus {
            if LiveHost.libraryStuck {
                ThisProcess.flushOutput()
                ThisProcess.exitNow(code)
            }
            throw ExitCode(code)
        }
    }

    /// The host's options for the command line's processor, starting from its values: the
    /// starting preset's (whose MIDI mapping, saved in a live session, is kept too) with the
    /// `--set`s over them. A problem exits with status 64.
    private func startingOptions(processor: Processor, store: PresetStore,
                                 starting: StartingValueOptions) throws -> LiveHostOptions {
        var options: LiveHostOptions
        do {
            // A preset saved in a live session keeps the MIDI mapping too.
            let preset = starting.preset.flatMap { try? store.resolve($0) } ?? store.defaultPreset()
            options = try hostOptions(processor: processor, presetMIDI: preset.preset.midi)
        } catch {
            throw CommandFailure(error.message, exitCode: 64)
        }
        do {
            options.initialValues = try starting.values(store: store, plugin: plugin, processor: processor)
        } catch let error as any ExitStatusError {
            throw error
        } catch {
            throw CommandFailure("\(error)", exitCode: 64)
        }
        return options
    }

    /// Says on standard error where the host runs (or which server it waits for), what it
    /// hosts, its MIDI mapping and how to stop it.
    private func announce(_ host: LiveHost, processor: Processor, options: LiveHostOptions, quiet: Bool) {
        let status = host.status()
        let place = status.client == nil
            ? "detent: waiting for JACK server '\(status.server)' (\(channels) channel\(channels == 1 ? "" : "s")); "
            : "detent: '\(status.client ?? name)' on JACK server '\(status.server)' "
                + "(\(status.sampleRate ?? 0) Hz, \(status.bufferSize ?? 0) frames, \(channels) channel\(channels == 1 ? "" : "s")); "
        LineWriter.standardError.line(place
            + (processor.isBuiltIn ? "" : "hosting \(processor.name); ")
            + (options.midi.map { "MIDI: \($0.summary); " } ?? "")
            + (quiet ? "reading no commands; SIGTERM, SIGINT or SIGHUP stops it" : "type 'help' for commands"))
    }

    /// Answers the typed commands, one line each (as JSON with `--json`), until the input ends,
    /// the reader is interrupted, or a command ends the session.
    private func answerCommands(from reader: LineReader, interpreter: CommandInterpreter, host: LiveHost) {
        while let line = reader.readLine() {
            let answer: CommandAnswer? = switch line {
            case .text(let text): interpreter.respond(to: text)
            case .tooLong: .error(CommandError.lineTooLong.description)
            }
            guard let answer else { continue }
            print(json ? answer.json(host.table) : answer.text(host.table))
            ThisProcess.flushOutput()
            if answer.endsSession { break }
        }
    }

    /// The processor the command line starts with — its plug-ins, the files its `--set ID=PATH`s
    /// choose (checked now, loaded when the engine is prepared), the starting preset's saved
    /// state — its presets, and the starting values' options without those file `--set`s. A
    /// state that cannot be read is said, and the plug-ins keep their defaults.
    func startingProcessor() throws -> (processor: Processor, store: PresetStore, starting: StartingValueOptions) {
        let (resolved, store) = try plugin.resolve()
        var starting = self.starting
        let (paths, sets) = try FileSettings.split(starting.sets, processor: resolved)
        var processor = try resolved.settingFiles(paths)
        starting.sets = sets
        do {
            processor = processor.settingState(try PresetStates.starting(starting.preset ?? plugin.startingPreset,
                                                                          store: store, processor: processor))
        } catch let failure as CommandFailure {
            Console.warning(failure.description + "; the plug-in keeps its defaults")
        } catch {}
        return (processor, store, starting)
    }

    /// The knob panel over a running live host, until the panel quits.
    private func runPanel(options: LiveHostOptions, store: PresetStore) throws {
        let theme = try KnobPanelSession.theme(theme)
        let terminal = try KnobPanelSession.openTerminal()
        let held = HeldLines()
        // With --no-reconnect a lost server ends the session: the hangup ends the panel the
        // way a closed terminal would, with the terminal restored, and the status below.
        let host = LiveHost(options: options, log: held.append, onTerminate: { _ in Signals.send(Signals.hangUp, to: ThisProcess.id) })
        do {
            try host.start()
        } catch {
            throw CommandFailure(error.description, exitCode: 1)
        }
        let presets = StorePresetSource(store: store, processor: options.processor, isolation: isolation)
        allowChainEdits(host, presets: presets)
        let interpreter = commandInterpreter(host: host, presets: presets, log: held.append)
        let bridge = try startOSC(host: host, interpreter: interpreter, log: { held.append("detent: warning: " + $0) })
        defer { bridge?.stop() }
        // The URL is printed now, before the panel takes the screen, and again when it closes.
        let web = try startWeb(host: host, interpreter: interpreter, oscPort: bridge?.port, log: { held.append("detent: warning: " + $0) })
        if let web { held.append("detent: web panel was at \(web.url)") }
        defer { web?.stop() }
        let (defaults, _) = store.defaultValues()
        let loaded = starting.preset.flatMap { try? store.resolve($0) } ?? store.defaultPreset()
        let values = ParameterValues(table: host.table, host.targets())
        let processor = options.processor
        let panel = Panel(values: values, defaults: defaults, preset: loaded.preset, host: LivePanelHost(host: host, interpreter: interpreter, presetStore: ProcessorReference.store(for:), saveWithState: { preset, processor, store, replacing throws(PresetError) in
                              try PresetStateFolder.save(running: processor, preset, store: store, replacing: replacing)
                          }, notices: { held.unshown() }),
                          store: store, title: processor.isBuiltIn ? "Detent" : processor.name,
                          ascii: KnobPanelSession.ascii(ascii))
        // INT and TERM close the client and end the command normally, as in headless mode.
        try KnobPanelSession.run(panel, on: terminal, theme: theme, quitSignals: [Signals.interrupt, Signals.terminate, Signals.hangUp]) {
            host.stop()
            held.flush()
            if let code = host.exitStatus { throw ExitCode(code) }
        }
    }

    /// Lets `chain add|remove|move` edit the running chain, finding plug-ins as `--plugin`
    /// does; presets follow the new chain, and OSC addresses (within 10 ms).
    func allowChainEdits(_ host: LiveHost, presets: StorePresetSource) {
        let isolation = isolate ? slotLauncher : nil
        host.allowChainEdits(resolve: { reference in
            let found = try ProcessorReference.processor(reference)
            return isolation.map { found.isolated($0) } ?? found
        }, changed: { presets.follow($0) })
    }

    /// `processor` with its plug-ins in processes of their own under `--isolate`, or in the
    /// sandboxes `--isolate=…` names.
    ///
    /// - Throws: ``ValidationError`` for a group naming a slot the rig does not have.
    func isolating(_ processor: Processor) throws(ValidationError) -> Processor {
        guard isolate else { return processor }
        let slots = processor.slots.isEmpty ? processor.chainParts.map(\.name) : processor.slots.map(\.name)
        let unknown = sandboxPlan.unknownSlots(among: slots)
        guard unknown.isEmpty else {
            throw ValidationError("--isolate: no slot '\(unknown[0])' in the rig (slots: \(slots.joined(separator: ", ")))")
        }
        return processor.isolated(slotLauncher)
    }

    /// The one launcher of this run: the rig's start and every live edit share its sandboxes.
    private static let launcher = Mutex<SlotLauncher?>(nil)

    /// Isolated slots are served by this very program (`detent slot`), in the sandboxes
    /// `--isolate` says.
    var slotLauncher: SlotLauncher {
        let plan = sandboxPlan
        return Self.launcher.withLock { launcher in
            if let made = launcher, made.plan == plan { return made }
            let made = SlotLauncher(program: PathString.resolved("/proc/self/exe") ?? CommandLine.arguments[0], plan: plan)
            launcher = made
            return made
        }
    }


    /// The typed commands' interpreter for `host`, whose `midi save` writes mapping files
    /// (the `--midi-map` file unless another is named); program changes load their presets
    /// through it too, and say so in `log`.
    func commandInterpreter(host: LiveHost, presets: any PresetSource, log: @escaping @Sendable (String) -> Void) -> CommandInterpreter {
        let own = midiMap
        let interpreter = CommandInterpreter(control: host, presets: presets) { controls, path throws in
            guard let path = path ?? own else {
                throw UsageError("name a file: midi save FILE (or start with --midi-map FILE)")
            }
            try MIDIMapFile.write(controls, to: path, own: own)
            return path
        }
        host.onProgramChange { number, name in
            if case .error(let message) = interpreter.execute(.presetLoad(name)) {
                log("detent: program change \(number) (\(PresetName.printable(name))): \(message)")
            }
        }
        return interpreter
    }

    /// The OSC server when `--osc` is given; a port that cannot be had stops the host and
    /// fails the command with one line.
    func startOSC(host: LiveHost, interpreter: CommandInterpreter,
                          log: @escaping @Sendable (String) -> Void) throws -> OSCBridge? {
        do {
            return try osc.map { port in try OSCBridge(port: port, bind: oscBind, host: host, interpreter: interpreter, log: log) }
        } catch {
            host.stop()
            throw CommandFailure("\(error)", exitCode: 1)
        }
    }

    /// The browser panel when `--http` is given; a port that cannot be had stops the host and
    /// fails the command with one line.
    func startWeb(host: LiveHost, interpreter: CommandInterpreter, oscPort: Int?,
                  log: @escaping @Sendable (String) -> Void) throws -> WebPanelProcess? {
        let processor = host.processor
        do {
            // The page and OSCQuery are named after the chain, as it is edited.
            let named: @Sendable (Processor) -> String = { $0.isBuiltIn ? "Detent" : $0.name }
            return try web.start(host: LiveWebHost(host: host, interpreter: interpreter, title: named, catalogue: WebCatalogue.entries),
                                 changes: host.changes,
                                 title: named(processor),
                                 oscPort: oscPort, oscAddress: oscPort == nil ? nil : oscBind, log: log)
        } catch {
            host.stop()
            throw error
        }
    }


    /// Whether standard input is /dev/null (or closed): there will never be a command.
    static var inputIsNull: Bool {
        let input: FileStatus
        do { input = try FileStatus(descriptor: 0) } catch { return error.errno == .badFileDescriptor }
        guard let null = FileStatus(path: "/dev/null") else { return false }
        return input.kind == .characterDevice && input.deviceNumber == null.deviceNumber
    }

    /// How long a stop may take after its signal: under the second that SIGTERM promises.
    static let stopDeadlineMilliseconds = 800

    static let stopOverdueLine = Array(("detent: the JACK server did not answer within \(stopDeadlineMilliseconds) ms of the "
        + "signal; quitting without closing the client\n").utf8)

    /// SIGINT, SIGTERM and SIGHUP end the command loop, so the client is closed properly; a second
    /// signal exits at once. The signals are unblocked first: a parent may have started Detent
    /// with them blocked (the mask is inherited), and then they would never arrive.
    ///
    /// A stop may not take longer than ``stopDeadlineMilliseconds`` after the first signal, whatever state
    /// the server left libjack in: a server that is frozen or gone can leave a client's
    /// deactivation or close waiting for an answer that never comes (or for a lock a lost
    /// client's close deadlocked on, jackaudio/jack2#395), and a service manager's SIGTERM,
    /// or a user's, must still end the program. Past the deadline the program says so in one
    /// line and exits with status 0, as a stop that finished would, leaving the client to the
    /// server.
    static func stopOnSignals(_ stop: @escaping @Sendable () -> Void) throws(CommandFailure) -> SignalWatcher {
        _ = stopOverdueLine.count  // made now, not by a thread racing a stuck one
        let received = Atomic<Int>(0)
        // SIGHUP too: a closed terminal or a session's end stops the host as cleanly as
        // SIGTERM (its JACK client closed, not dropped by a default exit with status 129).
        do {
            return try SignalWatcher([Signals.interrupt, Signals.terminate, Signals.hangUp], name: "stop-signals") { _ in
                if received.add(1, ordering: .relaxed).newValue > 1 { ThisProcess.exitNow(1) }
                stop()
                DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(stopDeadlineMilliseconds)) {
                    // One write of a line made beforehand: the thread stuck may hold any lock.
                    _ = stopOverdueLine.withUnsafeBytes { try? DescriptorIO.writeAll(2, $0) }
                    ThisProcess.exitNow(0)
                }
            }
        } catch {
            throw CommandFailure("cannot watch for signals: \(error)", exitCode: 71)
        }
    }
}
