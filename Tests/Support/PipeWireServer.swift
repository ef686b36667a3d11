#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// A private, headless PipeWire daemon started and stopped by a test: no D-Bus, no session
/// manager, no sound card. Its runtime folder (`XDG_RUNTIME_DIR`, where its socket lives) is
/// a temporary folder of its own, so it never touches, or depends on, a PipeWire already
/// running. Its configuration is Debian's `minimal.conf` reduced to what a JACK client needs,
/// with one null sink, `system`, made by the configuration itself (nothing links nodes but
/// the clients), and both 44.1 and 48 kHz allowed so that tests can force a change of rate.
///
/// Clients reach it through PipeWire's libjack: ``clientEnvironment`` puts that library first
/// in `LD_LIBRARY_PATH` (as `pw-jack` does) and names the runtime folder. Like ``JackServer``
/// it only runs programs, and the daemon runs under `timeout`, so it ends should the tests die.
public final class PipeWireServer: @unchecked Sendable {
    /// Where PipeWire's libjack is installed (Debian's `pipewire-jack`).
    public static let jackLibrary = "/usr/lib/x86_64-linux-gnu/pipewire-0.3/jack"
    public static let daemon = "/usr/bin/pipewire"

    public let folder = TemporaryFolder()
    public let period: Int
    public let sampleRate: Int
    private var wrapper: ChildProcess?
    private var pid: pid_t = 0
    private static let lifetime = 900

    /// Why no daemon could start here, or nil when one can: tested once, by starting one.
    public static let startFailure: String? = {
        guard FileManager.default.isExecutableFile(atPath: daemon) else { return "\(daemon) is not installed" }
        guard FileManager.default.fileExists(atPath: jackLibrary + "/libjack.so.0") else {
            return "PipeWire's libjack is not installed (\(jackLibrary))"
        }
        do {
            let server = try PipeWireServer()
            server.stop()
            return nil
        } catch {
            return "the PipeWire daemon does not start: \(error)"
        }
    }()

    /// Whether the PipeWire tests run. Outside CI a daemon that cannot start skips them, its
    /// reason printed. In CI (`DETENT_CI=1`, set by `.ci/run`), where Scripts/setup installs
    /// PipeWire, they always run: a daemon that cannot start fails them, with its reason,
    /// rather than their vanishing from a green run.
    public static var canStart: Bool {
        if InCI.isCI { return true }
        if let startFailure { FileHandle.standardError.write(Data("PipeWire tests skipped: \(startFailure)\n".utf8)) }
        return startFailure == nil
    }

    public init(period: Int = 256, sampleRate: Int = 48_000) throws {
        self.period = period
        self.sampleRate = sampleRate
        _ = folder.write("pipewire.conf", text: configuration)
        try start()
    }

    deinit { stop() }

    /// The environment of a JACK client of this daemon: this process's, with PipeWire's
    /// libjack first and this daemon's runtime folder, and no JACK server named.
    public var clientEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LD_LIBRARY_PATH"] = Self.jackLibrary + (environment["LD_LIBRARY_PATH"].map { ":" + $0 } ?? "")
        environment["XDG_RUNTIME_DIR"] = folder.path
        environment["PIPEWIRE_RUNTIME_DIR"] = folder.path
        for name in ["JACK_DEFAULT_SERVER", "PIPEWIRE_REMOTE", "PIPEWIRE_QUANTUM", "PIPEWIRE_RATE"] {
            environment[name] = nil
        }
        return environment
    }

    /// Starts the daemon and waits until a JACK client can open on it.
    public func start() throws {
        var environment = clientEnvironment
        environment["LD_LIBRARY_PATH"] = nil
        let p = try ChildProcess("/usr/bin/timeout", ["-s", "TERM", "-k", "10", "\(Self.lifetime)", Self.daemon,
                                                      "-c", folder.file("pipewire.conf")],
                                 environment: environment, stdout: .null, stderr: .null)
        do {
            try p.awaitReady("pipewire", timeout: 20) { jack("jack_lsp").status.exited == 0 }
            pid = try p.child("pipewire")
            wrapper = p
        } catch {
            p.signal(SIGTERM)
            p.wait()
            throw error
        }
    }

    /// Stops the daemon properly.
    public func stop() { kill(signal: SIGTERM) }

    /// Sends `signal` to the daemon and waits until it is gone (killing it after 5 s).
    public func kill(signal: Int32 = SIGKILL) {
        guard let p = wrapper else { return }
        wrapper = nil
        Glibc.kill(pid, signal)
        if p.wait(seconds: 5) != nil { return }
        Glibc.kill(pid, SIGKILL)
        p.wait()
    }

    /// Runs one of JACK's tools (`jack_lsp`, `jack_connect`, …) as a client of this daemon.
    @discardableResult
    public func jack(_ tool: String, _ arguments: [String] = []) -> ChildProcess.Outcome {
        var environment = clientEnvironment
        environment["JACK_NO_START_SERVER"] = "1"
        do {
            return try ChildProcess.run("/usr/bin/" + tool, arguments, environment: environment)
        } catch {
            return ChildProcess.Outcome(status: .lost, stdout: [], stderr: Array("\(error)".utf8))
        }
    }

    /// The ports whose names match `pattern` (a regular expression, as `jack_lsp` takes it).
    public func ports(matching pattern: String) -> [String] {
        jack("jack_lsp").stdoutText.split(separator: "\n").map(String.init)
            .filter { $0.range(of: pattern, options: .regularExpression) != nil }
    }

    /// The ports connected to `port`.
    public func connections(of port: String) -> Set<String> {
        let lines = jack("jack_lsp", ["-c", port]).stdoutText.split(separator: "\n").map(String.init)
        return Set(lines.dropFirst().filter { $0.hasPrefix("   ") }.map { $0.trimmingCharacters(in: .whitespaces) })
    }

    /// Sets a key of the daemon's `settings` metadata (`clock.force-rate`, `clock.force-quantum`).
    public func setting(_ key: String, _ value: String) throws {
        var environment = clientEnvironment
        environment["LD_LIBRARY_PATH"] = nil
        let run = try ChildProcess.run("/usr/bin/pw-metadata", ["-n", "settings", "0", key, value], environment: environment)
        guard run.status.exited == 0 else {
            throw ChildProcess.Failure(description: "pw-metadata \(key) \(value): \(run.status) \(run.stderrText)")
        }
    }

    private var configuration: String {
        """
        context.properties = {
            core.daemon = true
            core.name = pipewire-0
            link.max-buffers = 16
            default.clock.rate = \(sampleRate)
            default.clock.allowed-rates = [ 44100 48000 ]
            default.clock.quantum = \(period)
            default.clock.min-quantum = 16
            default.clock.max-quantum = 8192
            settings.check-quantum = true
            settings.check-rate = true
        }
        context.spa-libs = {
            audio.convert.* = audioconvert/libspa-audioconvert
            support.* = support/libspa-support
        }
        context.modules = [
            { name = libpipewire-module-protocol-native }
            { name = libpipewire-module-profiler }
            { name = libpipewire-module-metadata }
            { name = libpipewire-module-spa-node-factory }
            { name = libpipewire-module-client-node }
            { name = libpipewire-module-access args = { } }
            { name = libpipewire-module-adapter }
            { name = libpipewire-module-link-factory }
        ]
        context.objects = [
            { factory = metadata args = { metadata.name = default } }
            { factory = spa-node-factory
                args = {
                    factory.name = support.node.driver
                    node.name = Dummy-Driver
                    node.group = pipewire.dummy
                    priority.driver = 20000
                }
            }
            { factory = spa-node-factory
                args = {
                    factory.name = support.node.driver
                    node.name = Freewheel-Driver
                    priority.driver = 19000
                    node.group = pipewire.freewheel
                    node.freewheel = true
                }
            }
            { factory = adapter
                args = {
                    factory.name = support.null-audio-sink
                    node.name = system
                    node.description = system
                    media.class = Audio/Sink
                    audio.position = [ FL FR ]
                    adapter.auto-port-config = { mode = dsp monitor = false control = false position = preserve }
                }
            }
        ]

        """
    }
}
