import Control
import AudioEngine
import Foundation
import Live
import JackHost
import Testing
import Parameters
import TestSupport

/// Messages the host logged, collected for assertions.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
    func contains(_ text: String) -> Bool { all.contains { $0.contains(text) } }
}

/// A private server, a player feeding the host, a recorder after it, and the host itself
/// connected between them by its own `--connect-inputs` / `--connect-outputs` patterns.
final class LiveFixture: @unchecked Sendable {
    let server: JackServer
    let player: TestClient
    let recorder: TestClient
    let host: LiveHost
    let log = LogLines()
    let input: [[Float]]
    /// The side-chain key the player plays on its last port, into every keyed slot's
    /// side-chain ports (`--connect-sidechain`); nil: none.
    let key: [Float]?
    let options: LiveHostOptions

    static let smoothing = 0.010

    /// - Parameter midi: MIDI messages the player sends at frames of the signal, into the
    ///   host's `midi_in` (connected by `--connect-midi`).
    init(input: [[Float]], values: [ParameterIndex: Double] = [:], period: Int = 256,
         midi: [(frame: Int, bytes: [UInt8])] = [], midiControls: MIDIControls? = nil,
         processor: Processor = .lowpassGain, beatsPerMinute: Double? = nil, logsXruns: Bool = false,
         key: [Float]? = nil) throws {
        server = try JackServer(period: period)
        self.input = input
        self.key = key
        player = try TestClient("player", server: server.name, play: input + (key.map { [$0] } ?? []), midi: midi)
        recorder = try TestClient("recorder", server: server.name, inputs: input.count, record: input[0].count,
                                  follow: player, recordMIDI: true)
        var options = LiveHostOptions(processor: processor)
        options.server = server.name
        options.channels = input.count
        options.connectInputs = key == nil ? "^player:out_" : "^player:out_(\((1...input.count).map(String.init).joined(separator: "|")))$"
        if key != nil { options.connectSidechain[""] = "^player:out_\(input.count + 1)$" }
        options.connectOutputs = "^recorder:in_"
        if !midi.isEmpty { options.connectMIDI = "^player:midi_out$" }
        // Controllers jump unless a test says otherwise: most tests check where a value lands.
        options.midi = midiControls ?? MIDIControls.standard(for: processor.table).takeover(.jump)
        options.smoothing = Self.smoothing
        options.initialValues = values
        options.beatsPerMinute = beatsPerMinute
        options.logsXruns = logsXruns
        self.options = options
        // A loaded machine's server, just started, has been seen to refuse a third client
        // once (JackServerFailed) after taking two, as TestClient retries: so does this, for
        // at most 10 s, 50 ms apart — that refusal alone, which is the server's. Any other
        // failure of the start is Detent's, and fails the test at once. Each retry is told.
        var attempt = LiveHost(options: options, log: log.append)
        let deadline = Date(timeIntervalSinceNow: 10)
        var refusals = 0
        while true {
            do throws(LiveHostError) {
                try attempt.start()
                break
            } catch {
                attempt.stop()
                guard Self.isServersRefusal(error), Date() < deadline else { throw error }
                refusals += 1
                usleep(50_000)
                attempt = LiveHost(options: options, log: log.append)
            }
        }
        if refusals > 0 {
            FileHandle.standardError.write(Data("LiveFixture: the JACK server refused Detent's client \(refusals) time\(refusals == 1 ? "" : "s") before taking it\n".utf8))
        }
        host = attempt
    }

    /// The one start failure that is the server's, not Detent's: the server refused the
    /// client (JackServerFailed, which the host reports as no server; or JackServerError).
    static func isServersRefusal(_ error: LiveHostError) -> Bool {
        switch error {
        case .noServer: true
        case .openFailed(_, let status): status & 0x20 != 0
        default: false
        }
    }

    deinit {
        host.stop()
        player.close()
        recorder.close()
        server.stop()
    }

    /// Starts playing and returns the engine frame the signal starts at.
    ///
    /// First waits until the host has run two cycles after its first: JACK takes new clients
    /// and connections into the graph at a cycle boundary, so by then the player, the host
    /// and the recorder all run, connected, in every cycle.
    func play() throws -> Int64 {
        try waitUntil("the host runs") { self.host.frameClock != nil }
        let first = try #require(host.frameClock).engineFrame
        try waitUntil("the graph has settled") {
            (self.host.frameClock?.engineFrame ?? first) >= first + 2 * Int64(self.server.period)
        }
        player.start()
        try waitUntil("the player starts") { self.player.startFrame != nil }
        let clock = try #require(host.frameClock)
        return clock.engineFrame(atJack: player.startFrame!)
    }

    /// Waits until `fraction` of the signal has been recorded.
    func waitForRecording(_ fraction: Double, timeout: Double = 30) throws {
        let frames = Int(fraction * Double(input[0].count))
        try waitUntil("\(frames) frames are recorded", timeout: timeout) { self.recorder.recordedFrames >= frames }
    }

    /// What the offline engine makes of the same input (after `engineStart` frames of the
    /// silence the live engine heard before the player started) with the same changes, in
    /// blocks of the server's period.
    ///
    /// The signal's last period is rendered whole, with the silence the player went on with:
    /// a plug-in may work out a block's sound from the whole block (LSP's compressor's
    /// envelope does), so the reference cuts its blocks where the live periods were cut.
    func offlineReference(engineStart: Int64, changes: [ParameterChange], processor reference: Processor? = nil) -> [[Float]] {
        let lead = [Float](repeating: 0, count: Int(engineStart))
        let count = input[0].count
        let tail = [Float](repeating: 0, count: (server.period - (lead.count + count) % server.period) % server.period)
        // The key feeds every keyed slot and named input, as `--connect-sidechain REGEX` connects it.
        let keyed = options.processor.keyedSlots
        let named = options.processor.namedInputs.count
        let sides = key.map { key in
            Dictionary(uniqueKeysWithValues: (keyed + (0..<named).map { -1 - $0 }).map { ($0, [lead + key + tail]) })
        } ?? [:]
        let rendered = EngineRun.reference(input.map { lead + $0 + tail }, processor: reference ?? options.processor,
                                           values: options.initialValues, smoothing: Self.smoothing, blockSize: server.period,
                                           changes: changes, sides: sides)
        return rendered.map { Array($0[lead.count..<(lead.count + count)]) }
    }
}

/// Where two signals first differ ("none" when they are equal sample for sample), so a
/// failure names one frame instead of printing both signals.
func firstDifference(_ a: [Float], _ b: [Float]) -> String {
    guard a.count == b.count else { return "lengths \(a.count) and \(b.count)" }
    guard let i = a.indices.first(where: { a[$0] != b[$0] }) else { return "none" }
    return "frame \(i) of \(a.count): \(a[i]) vs \(b[i])"
}
