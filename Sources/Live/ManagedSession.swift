import Control
import AudioEngine
import JackHost
import Parameters
import Platform
import Presets
import OSC
import Synchronization

/// `detent live` under a session manager (Non or New Session Manager, RaySession, Agordejo):
/// started with `NSM_URL` set, Detent announces itself and waits; the manager's `open`
/// starts the JACK client under the client id the manager gives, from the state saved in
/// the session's folder (``SessionFile``) or, for a new session, from the command line's
/// processor and values. `save` writes that state; a second `open` switches to another
/// session without restarting; dirty and clean are reported as knobs move and after saves
/// (the main thread sleeps on the host's change feed, and looks when it says something moved).
/// SIGTERM (the manager's way to close a client) ends it at once, as SIGINT does. There is
/// no terminal: typed commands are not read.
///
/// What `detent live`'s command line decides (the processor, the host's options, the typed
/// commands' interpreter, the browser panel, the stop signals) comes from a
/// ``SessionLauncher``; this holds the session manager's side.
package final class ManagedSession: @unchecked Sendable {
    private let launcher: any SessionLauncher
    private let log: @Sendable (String) -> Void
    /// Posted by a stop (a signal, or the host ending itself), by the host's change feed, by an
    /// open, and once the manager has been told a save or an open succeeded: the main thread
    /// then looks at what happened.
    private let attention = Semaphore(0)
    private let stopping = Atomic(false)
    private let current = Mutex<Current>(Current())

    /// The running session, if one is open.
    private struct Current: ~Copyable {
        var host: LiveHost?
        var bridge: OSCBridge?
        /// The browser panel (`--http`), for the session open now.
        var web: WebPanelProcess?
        var folder: String?
        var displayName = ""
        var osc: (port: Int, bind: String)?
        /// The launcher of the open session: the command line's, with the session's own
        /// sandbox plan when its file keeps one.
        var launcher: (any SessionLauncher)?
        /// What was last saved or opened: the state is clean while the host matches it.
        var saved: Snapshot?
    }

    /// The state that makes a session dirty when it changes: the chain (a slot added or
    /// removed), the files its plug-ins hold, the values and the MIDI mapping.
    private struct Snapshot: Equatable {
        var processor: String
        var files: [String?]
        var values: [ParameterIndex: Double]
        var midi: MIDIControls?

        init(_ host: LiveHost) {
            let (processor, _, targets) = host.chainSnapshot
            self.init(processor, targets, midi: host.midiControls)
        }

        init(_ processor: Processor, _ targets: [ParameterIndex: Double], midi: MIDIControls?) {
            self.processor = processor.identifier
            files = processor.files.map(\.path)
            values = targets
            self.midi = midi
        }
    }

    package init(launcher: any SessionLauncher, log: @escaping @Sendable (String) -> Void) {
        self.launcher = launcher
        self.log = log
    }

    /// Announces, serves the manager until a signal or a lost server under `--no-reconnect`,
    /// then closes the client. Returns the status the host ended with by itself, if it did.
    /// - Throws: ``ManagedSessionError`` when the manager cannot be reached.
    package func run(url: String) throws(ManagedSessionError) -> Int32? {
        let client: NSMClient
        do {
            client = try NSMClient(url: url, executable: "detent", log: { [log] in log("detent: \($0)") }) {
                [self] request throws(NSMClient.Failure) in
                switch request {
                case .open(let path, let displayName, let clientID): return try open(path, displayName: displayName, clientID: clientID)
                case .save: return try save()
                }
            }
            let server = try client.announce(timeout: .seconds(10))
            log("detent: announced to \(server); waiting for it to open a session")
        } catch {
            throw ManagedSessionError(description: "\(error)", exitCode: 1)
        }
        // After the reply to a save (or an open) the manager counts the session clean: look
        // again, and tell it dirty if anything changed meanwhile.
        client.whenServerCountsClean { [attention] in attention.signal() }
        let signals = try launcher.stopOnSignals { [self] in requestStop() }
        defer { signals.stop() }
        // The host itself is held, not its identifier: a freed host's address may be the next one's.
        var watched: (host: LiveHost, changes: ChangeFeed<HostChanges>.Subscription)?
        while !stopping.load(ordering: .acquiring) {
            // The session open now is the one whose changes wake this thread.
            if let host = current.withLock({ $0.host }), watched?.host !== host {
                watched = (host, host.changes.subscribe(waking: attention))
            }
            // What the feed brought is taken, so its next publication wakes this thread again.
            _ = watched?.changes.take()
            if let dirty = isDirty() { client.setDirty(dirty) }
            attention.wait()
        }
        let (host, bridge, web) = current.withLock { c in (c.host, c.bridge, c.web) }
        web?.stop()
        bridge?.stop()
        host?.stop()
        return host?.exitStatus
    }

    /// Ends `run` (any thread; a signal's or the host's own end).
    private func requestStop() {
        stopping.store(true, ordering: .releasing)
        attention.signal()
    }

    /// True when the running session differs from what was last saved; nil with none open.
    private func isDirty() -> Bool? {
        guard let (host, saved) = current.withLock({ c in c.host.map { ($0, c.saved) } }) else { return nil }
        return Snapshot(host) != saved
    }

    /// Opens the session in `path` (a second open switches): the old client closes, the new
    /// one starts from the saved state, or from the command line in a new session.
    private func open(_ path: String, displayName: String, clientID: String) throws(NSMClient.Failure) -> String {
        closeCurrent()
        let file = try readSession(in: path)
        // The session's plug-ins run isolated as they did when it was saved.
        let launcher: any SessionLauncher
        do { launcher = try file?.isolate.map { try self.launcher.isolating($0) } ?? self.launcher } catch {
            throw NSMClient.Failure(code: NSMClient.Failure.badProject, "\(SessionFile.path(in: path)): \(error)")
        }
        let (processor, store, options) = try hostOptions(from: file, in: path, clientID: clientID, launcher: launcher)

        let host = LiveHost(options: options, log: log, onTerminate: { [self] _ in requestStop() })
        do {
            try host.start()
        } catch {
            throw NSMClient.Failure(code: NSMClient.Failure.launchFailed, error.description)
        }
        // Program changes load presets through it, with or without OSC.
        let interpreter = launcher.interpreter(host: host, store: store, processor: processor, log: log)
        let (bridge, osc) = startOSC(file?.osc ?? launcher.osc, host: host, interpreter: interpreter)
        // The browser panel, for the session's client; one that cannot start is said, and the
        // session goes on without it.
        var web: WebPanelProcess?
        do {
            web = try launcher.startWeb(host: host, interpreter: interpreter, title: displayName,
                                        oscPort: osc?.0, oscAddress: osc?.1, log: log)
        } catch {
            log("detent: \(error)")
        }
        current.withLock { c in
            c.host = host
            c.bridge = bridge
            c.web = web
            c.folder = path
            c.displayName = displayName
            c.osc = osc
            c.launcher = launcher
            c.saved = Snapshot(host)
        }
        // The main thread follows this host's changes from now on.
        attention.signal()
        let name = host.clientName ?? clientID
        log("detent: session '\(displayName)' open as JACK client '\(name)'" + (file == nil ? " (new)" : ""))
        return file == nil ? "Opened a new session as \(name)" : "Opened as \(name)"
    }

    /// Closes the session that is open, if any: its browser panel, OSC and client stop, and
    /// nothing of it is kept.
    private func closeCurrent() {
        let (oldHost, oldBridge, oldWeb) = current.withLock { c in
            defer { c.host = nil; c.bridge = nil; c.web = nil; c.saved = nil }
            return (c.host, c.bridge, c.web)
        }
        oldWeb?.stop()
        oldBridge?.stop()
        oldHost?.stop()
    }

    /// The session file in `path`, nil for a new session; its processor is found to read its
    /// values by.
    private func readSession(in path: String) throws(NSMClient.Failure) -> SessionFile? {
        do {
            return try SessionFile.read(in: path) { identifier throws(SessionFileError) in
                do {
                    let processor = try launcher.processor(identifier, state: nil).processor
                    return PresetScope(processor: processor.identifier, table: processor.table)
                } catch {
                    throw SessionFileError("the saved processor: \(error)")
                }
            }
        } catch {
            throw NSMClient.Failure(code: NSMClient.Failure.badProject, "\(error)")
        }
    }

    /// The processor, its presets and the host's options for a session: from the session
    /// file (its processor, plug-in states, values and MIDI mapping), or from the command line
    /// for a new one; the client is named `clientID`, as the session manager asks.
    private func hostOptions(from file: SessionFile?, in path: String, clientID: String,
                             launcher: any SessionLauncher) throws(NSMClient.Failure) -> (Processor, PresetStore, LiveHostOptions) {
        let processor: Processor, store: PresetStore
        var options: LiveHostOptions
        do {
            // The plug-ins' states saved beside the session file, named relative to its folder.
            (processor, store) = try launcher.processor(file?.preset.processor, state: file?.preset.state?.resolved(against: path))
            options = try launcher.hostOptions(processor: processor, store: store, startingFromCommandLine: file == nil)
            if let file {
                options.initialValues = file.preset.values.dictionary
                if let midi = file.preset.midi, options.midi != nil {
                    options.midi = try MIDIControls(json: midi, table: processor.table)
                }
            }
        } catch {
            throw NSMClient.Failure(code: NSMClient.Failure.launchFailed, "\(error)")
        }
        options.name = clientID
        options.exactName = false
        return (processor, store, options)
    }

    /// Starts OSC where the session wants it (`wanted`; none: no OSC). One that cannot start
    /// is said, and the session goes on without it.
    ///
    /// - Returns: the bridge, and where it listens: the port actually bound (`--osc 0` asks
    ///   for any free one), said and kept in the session, so the next open listens where
    ///   controllers were pointed.
    private func startOSC(_ wanted: (port: Int, bind: String)?, host: LiveHost,
                          interpreter: CommandInterpreter) -> (OSCBridge?, (port: Int, bind: String)?) {
        var osc = wanted
        var bridge: OSCBridge?
        if let wanted = osc {
            do {
                let opened = try OSCBridge(port: wanted.0, bind: wanted.1, host: host, interpreter: interpreter,
                                           log: { [log] in log("detent: warning: " + $0) })
                bridge = opened
                osc = (opened.port, wanted.1)
                for line in opened.announcement(bind: wanted.1) { log(line) }
            } catch {
                log("detent: OSC: \(error)")
            }
        }
        return (bridge, osc)
    }

    /// Saves the running session's state in its folder.
    private func save() throws(NSMClient.Failure) -> String {
        let found = current.withLock { c in c.host.map { ($0, c.folder!, c.displayName, c.osc, c.launcher ?? launcher) } }
        guard let (host, folder, displayName, osc, launcher) = found else {
            throw NSMClient.Failure(code: NSMClient.Failure.general, "no session is open")
        }
        // The chain as it is now (edited or not), its values, and its plug-ins' states and
        // files in `detent.state/` beside the file.
        let (processor, _, targets) = host.chainSnapshot
        let snapshot = Snapshot(processor, targets, midi: host.midiControls)
        var preset = Preset(name: displayName, values: ParameterValues(table: processor.table, snapshot.values),
                            processor: processor.identifier, midi: snapshot.midi?.json)
        do {
            try FolderEntries.makeOne(folder, mode: 0o755)
            try launcher.keepingState(of: processor, in: folder, name: SessionFile.stateFolderName) { state in
                preset.state = state
                try SessionFile(preset: preset, osc: osc, isolate: .some(launcher.isolation)).write(in: folder)
            }
        } catch {
            throw NSMClient.Failure(code: NSMClient.Failure.createFailed, "\(error)")
        }
        current.withLock { c in
            // Another open may have switched meanwhile: only that session's state is clean.
            if c.folder == folder { c.saved = snapshot }
        }
        return "Saved"
    }
}

/// What a ``ManagedSession`` needs of the command line that started it: `detent live`'s way
/// to find a processor, make a host's options and interpreter, start the browser panel and
/// watch for the stop signals, so a session opened by the manager runs as that command would.
package protocol SessionLauncher: Sendable {
    /// The processor a session file names by identifier (nil: the command line's), and its
    /// presets; with `state` (the session's plug-in states) restored before its first block,
    /// unless it cannot be read, which is said, and the plug-ins keep their defaults.
    func processor(_ identifier: String?, state: SavedState?) throws -> (processor: Processor, store: PresetStore)
    /// Writes `processor`'s plug-in states (with the files they hold) into the folder `name`
    /// in `folder`, and calls `commit` with them named relative to `folder` — nil when it
    /// keeps none — to write the session file; the folder takes its name only after that.
    func keepingState(of processor: Processor, in folder: String, name: String, commit: (SavedState?) throws -> Void) throws
    /// The host's options for `processor`; with the command line's starting values (its
    /// preset and `--set`s) when `startingFromCommandLine`, else a saved session's come after.
    func hostOptions(processor: Processor, store: PresetStore, startingFromCommandLine: Bool) throws -> LiveHostOptions
    /// The typed commands' interpreter for `host`, its presets in `store` (program changes
    /// load presets through it); the host's chain may be edited (OSC `/detent/chain`), and the
    /// presets follow the edits.
    func interpreter(host: LiveHost, store: PresetStore, processor: Processor,
                     log: @escaping @Sendable (String) -> Void) -> CommandInterpreter
    /// Where OSC listens in a new session (`--osc`, `--osc-bind`), if it does.
    var osc: (port: Int, bind: String)? { get }
    /// Which plug-ins run in processes of their own: the sandbox plan as `--isolate=` writes
    /// it (`each`, `together`, `drive+eq,verb`), nil for none.
    var isolation: String? { get }
    /// This launcher with the sandbox plan `plan` (nil: no isolation), as a session file keeps it.
    /// - Throws: a plan that cannot be read.
    func isolating(_ plan: String?) throws -> any SessionLauncher
    /// The browser panel for `host` (`--http`), if asked for.
    func startWeb(host: LiveHost, interpreter: CommandInterpreter, title: String, oscPort: Int?, oscAddress: String?,
                  log: @escaping @Sendable (String) -> Void) throws -> WebPanelProcess?
    /// Calls `stop` on SIGINT, SIGTERM and SIGHUP (ending the program if a stop overruns).
    func stopOnSignals(_ stop: @escaping @Sendable () -> Void) throws(ManagedSessionError) -> SignalWatcher
}

/// Why a managed session could not run, and the exit status to end with (the command's
/// `main` says it, as every command's failure).
package struct ManagedSessionError: ExitStatusError, Sendable {
    package let description: String
    package let exitCode: Int32
    package init(description: String, exitCode: Int32) {
        self.description = description
        self.exitCode = exitCode
    }
}
