import Control
import Parameters
import AudioEngine
import Platform

/// How `detent live` joins the JACK graph: names, channels, connections, smoothing and
/// what to do when the server goes away.
package struct LiveHostOptions: Sendable {
    /// The client name asked for (JACK may add a suffix unless `exactName`).
    package var name = "detent"
    package var exactName = false
    /// The server to join; nil for JACK's default (`$JACK_DEFAULT_SERVER`, else `default`).
    package var server: String?
    /// Ports `in_1…in_N` and `out_1…out_N`.
    package var channels = 2
    /// Start-up values (from a preset and `--set`); missing ids take the table default.
    package var initialValues: [ParameterIndex: Double] = [:]
    /// What the engine runs.
    package let processor: Processor
    /// POSIX extended regular expressions choosing the ports to connect to.
    package var connectInputs: String?
    package var connectOutputs: String?
    /// A pattern choosing MIDI sources to connect to `midi_in`.
    package var connectMIDI: String?
    /// Patterns choosing the sources of keyed slots' side-chain ports (`SLOT-sc_N`), by slot
    /// name; the key "" is every keyed slot's. `--autoconnect` leaves these ports alone.
    package var connectSidechain: [String: String] = [:]
    /// Connect to the physical capture and playback ports, and every physical MIDI source
    /// (where no pattern is given).
    package var autoconnect = false
    /// What MIDI control changes do; nil for no MIDI input port at all.
    package var midi: MIDIControls?
    /// Ramp time for changes, in seconds; nil for the engine's default.
    package var smoothing: Double?
    /// The tempo told to processors that follow one (`time:Position`) until JACK's transport
    /// has a timebase master, whose tempo then wins; nil tells none until then.
    package var beatsPerMinute: Double?
    /// Reconnect when the server returns (otherwise the host stops with status 1).
    package var reconnect = true
    /// When no server is there at start: wait for one (retrying with the reconnection's
    /// back-off) instead of failing — what a service started before its server needs. Only
    /// with ``reconnect``.
    package var waitsForServer = false
    /// Stop with status 1 when libjack cannot let go of a lost client (jackaudio/jack2#395):
    /// no client can open in this process after that, so a service is better restarted by
    /// its manager than left waiting.
    package var stopWhenLibraryStuck = false
    /// Say xruns in the log as they come (at most a line a second), for a host whose only
    /// face is its log: headless, or a service. The panel's header counts them instead.
    package var logsXruns = false
    package var backoff = Backoff()
    /// Looks at a file before a file parameter that expects sound takes it (`set ir PATH`):
    /// nil when it is audio, or why not. The host reads no audio files itself; without a
    /// check, a readable file is taken.
    package var audioCheck: (@Sendable (String) -> String?)?

    package static let channelRange = 1...64
    package static let maximumSmoothingMilliseconds = 10_000.0

    /// Options for hosting `processor`, its parameters mapped to their standard controllers.
    package init(processor: Processor = .lowpassGain) {
        self.processor = processor
        midi = .standard(for: processor.table)
    }

    /// Checks everything that can be checked before talking to JACK.
    package func validate() throws(LiveHostError) {
        guard Self.channelRange.contains(channels) else { throw .invalidChannels(channels) }
        if let s = smoothing {
            guard s.isFinite, s >= 0, s * 1000 <= Self.maximumSmoothingMilliseconds else {
                throw .invalidSmoothing(s * 1000)
            }
        }
        if let p = connectInputs { try PortPattern.validate(p, option: "--connect-inputs") }
        if let p = connectOutputs { try PortPattern.validate(p, option: "--connect-outputs") }
        if let p = connectMIDI { try PortPattern.validate(p, option: "--connect-midi") }
        for p in connectSidechain.values { try PortPattern.validate(p, option: "--connect-sidechain") }
    }

    /// The server name as people know it, for messages.
    /// The server asked for by name (the option, else `$JACK_DEFAULT_SERVER`); nil for the
    /// default one.
    package var namedServer: String? { Self.namedServer(server) }

    package var serverDisplayName: String { namedServer ?? "default" }

    /// `option`, else `$JACK_DEFAULT_SERVER` (as libjack reads it); nil for the default server.
    static func namedServer(_ option: String?) -> String? {
        let name = option ?? Environment.value("JACK_DEFAULT_SERVER") ?? ""
        return name.isEmpty || name == "default" ? nil : name
    }
}
