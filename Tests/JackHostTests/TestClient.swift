import CJack
@testable import JackHost
import Foundation
import Synchronization
import TestSupport
import Testing

/// A JACK client of the tests' own: plays known signals on its outputs and records its
/// inputs, so the live host can be checked from outside, through the graph.
///
/// Playing and recording are counted in cycles, not by frame time: a player starts at the
/// first cycle after `start()`, and a recorder that follows it starts in that same cycle
/// (the player runs before the host and the host before the recorder, as the connections
/// order them). Both then continue cycle by cycle, whatever the buffer size or frame time
/// does meanwhile.
final class TestClient: @unchecked Sendable {
    let client: OpaquePointer
    let name: String
    let state: UnsafeMutablePointer<TestClientState>

    /// - Parameters:
    ///   - play: one signal per output port (`out_1…`), all the same length.
    ///   - record: frames to record per input port (`in_1…`).
    ///   - follow: a player whose start this client's recording follows.
    ///   - midi: MIDI messages (1 to 3 bytes) to play on a port `midi_out`, each at a frame of
    ///     the signal (in frame order).
    ///   - captureLatency: the capture latency each output reports (its signal's age, as a
    ///     sound card's capture ports report theirs); none by default.
    init(_ name: String, server: String, play: [[Float]] = [], inputs: Int = 0, record: Int = 0,
         follow leader: TestClient? = nil, midi: [(frame: Int, bytes: [UInt8])] = [], recordMIDI: Bool = false,
         captureLatency: [UInt32] = []) throws {
        // A loaded machine's server, just (re)started, sometimes refuses a client once
        // (JackServerFailed) and takes the next: retry, for at most 10 s. No signal tells
        // when it is ready, so the retries are 50 ms apart.
        var status = JackStatus(0)
        var opened = detent_jack_client_open_server(name, JackNoStartServer, &status, server)
        let deadline = ContinuousClock.now + .seconds(10)
        while opened == nil, ContinuousClock.now < deadline {
            usleep(50_000)
            opened = detent_jack_client_open_server(name, JackNoStartServer, &status, server)
        }
        guard let client = opened else {
            throw Timeout(what: "test client '\(name)' opens (status \(status.rawValue))")
        }
        self.client = client
        self.name = String(cString: jack_get_client_name(client))
        var outputs: [OpaquePointer] = []
        for c in play.indices {
            outputs.append(jack_port_register(client, "out_\(c + 1)", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsOutput.rawValue), 0)!)
        }
        var ins: [OpaquePointer] = []
        for c in 0..<inputs {
            ins.append(jack_port_register(client, "in_\(c + 1)", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsInput.rawValue), 0)!)
        }
        let midiPort = midi.isEmpty ? nil
            : jack_port_register(client, "midi_out", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsOutput.rawValue), 0)!
        let midiIn = recordMIDI
            ? jack_port_register(client, "midi_in", JACK_DEFAULT_MIDI_TYPE, UInt(JackPortIsInput.rawValue), 0)! : nil
        state = .allocate(capacity: 1)
        state.initialize(to: TestClientState(outputs: outputs, play: play, inputs: ins, record: record,
                                             client: client, leader: leader?.state, midiPort: midiPort, midi: midi,
                                             midiIn: midiIn, captureLatency: captureLatency))
        jack_set_process_callback(client, testClientProcess, state)
        if !captureLatency.isEmpty {
            jack_set_latency_callback(client, { mode, arg in
                let state = arg!.assumingMemoryBound(to: TestClientState.self)
                guard mode == JackCaptureLatency else { return }
                for (c, frames) in state.pointee.captureLatency.enumerated() where c < state.pointee.outputCount {
                    var range = jack_latency_range_t(min: frames, max: frames)
                    jack_port_set_latency_range(state.pointee.outputs[c], mode, &range)
                }
            }, state)
        }
        jack_set_xrun_callback(client, { arg in
            arg!.assumingMemoryBound(to: TestClientState.self).pointee.xruns.add(1, ordering: .relaxed)
            return 0
        }, state)
        jack_activate(client)
    }

    deinit { close() }

    private var closed = false
    /// Closes the client, waiting at most ``closeLimit``: a close that jackd never answers
    /// (waiting on a lock of JACK's metadata database that a killed process left held, see
    /// ``JackMetadataStore``) fails the test that met it, naming that, instead of holding up
    /// every test after it. The close goes on on its own thread, and frees the client's state
    /// when it returns (once the server is stopped).
    func close() {
        guard !closed else { return }
        closed = true
        nonisolated(unsafe) let client = client, state = state
        let closing = BoundedClose(close: { jack_client_close(client) }, release: {
            state.deinitialize(count: 1)
            state.deallocate()
        })
        guard !closing.run(timeout: Self.closeLimit) else { return }
        Issue.record("jack_client_close of '\(name)' did not return within \(Self.closeLimit): jackd is stuck, most likely on the lock of JACK's metadata database (\(JackMetadataStore.folder)) left held by a process killed while it held it")
    }

    /// The longest a close may take: jackd answers within a couple of its cycles' timeouts.
    static let closeLimit = Duration.seconds(20)

    /// Starts playing at the next cycle.
    func start() { state.pointee.armed.store(true, ordering: .releasing) }

    /// The JACK frame time of the cycle playing (or recording) started in.
    var startFrame: UInt32? {
        state.pointee.started.load(ordering: .acquiring) ? state.pointee.startFrame.load(ordering: .relaxed) : nil
    }
    var recordedFrames: Int { state.pointee.recordedFrames.load(ordering: .acquiring) }

    /// The MIDI messages heard on `midi_in` (with `recordMIDI`), each at its frame of the
    /// recording (counted as the audio is), up to ``TestClientState/midiHeardCapacity``.
    var heardMIDI: [(frame: Int, bytes: [UInt8])] {
        let n = state.pointee.midiHeardCount.load(ordering: .acquiring)
        return (0..<n).map { i in
            (state.pointee.midiHeardFrames[i], Array(UnsafeBufferPointer(start: state.pointee.midiHeardBytes + 3 * i,
                                                                           count: state.pointee.midiHeardSizes[i])))
        }
    }
    var playedFrames: Int { state.pointee.playedFrames.load(ordering: .acquiring) }
    var xruns: Int { state.pointee.xruns.load(ordering: .relaxed) }

    /// What was recorded, once `recordedFrames` has reached the length asked for.
    var recording: [[Float]] {
        (0..<state.pointee.inputCount).map { c in
            Array(UnsafeBufferPointer(start: state.pointee.record[c], count: state.pointee.recordLength))
        }
    }

    /// Busy-waits `microseconds` inside the next cycle: a deliberate overrun.
    func stall(microseconds: Int) { state.pointee.stall.store(microseconds, ordering: .relaxed) }

    func connect(_ source: String, _ destination: String) -> Int32 {
        jack_connect(client, source, destination)
    }

    func connections(of port: String) -> [String] {
        guard let p = jack_port_by_name(client, port), let list = jack_port_get_connections(p) else { return [] }
        return Self.takeNames(list).sorted()
    }

    func ports(matching pattern: String) -> [String] {
        guard let list = jack_get_ports(client, pattern, nil, 0) else { return [] }
        return Self.takeNames(list)
    }

    /// The port names in a NULL-terminated list that JACK allocated, freeing the list.
    private static func takeNames(_ list: UnsafeMutablePointer<UnsafePointer<CChar>?>) -> [String] {
        defer { jack_free(list) }
        var names: [String] = []
        var i = 0
        while let name = list[i] {
            names.append(String(cString: name))
            i += 1
        }
        return names
    }

    var bufferSize: Int { Int(jack_get_buffer_size(client)) }

    /// The tempo JACK's transport rolls at, when it rolls with a timebase master's bars and
    /// beats; nil otherwise.
    var transportTempo: Double? {
        var position = jack_position_t()
        let state = jack_transport_query(client, &position)
        guard state == JackTransportRolling, position.valid.rawValue & JackPositionBBT.rawValue != 0 else { return nil }
        return position.beats_per_minute
    }
}

/// The test client's memory, at a fixed address for its callback.
struct TestClientState: ~Copyable {
    let client: OpaquePointer
    let outputCount: Int
    let outputs: UnsafeMutablePointer<OpaquePointer>
    let play: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    let playLength: Int
    let inputCount: Int
    let inputs: UnsafeMutablePointer<OpaquePointer>
    let record: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    let recordLength: Int
    let leader: UnsafeMutablePointer<TestClientState>?
    let midiPort: OpaquePointer?
    let midiCount: Int
    let midiFrames: UnsafeMutablePointer<Int>
    let midiBytes: UnsafeMutablePointer<UInt8>
    /// Message `i` is `midiSizes[i]` bytes at `midiBytes + 3 * i`.
    let midiSizes: UnsafeMutablePointer<Int>
    /// `midi_in`, and what it heard since the recording started.
    let midiIn: OpaquePointer?
    static let midiHeardCapacity = 4096
    let midiHeardFrames: UnsafeMutablePointer<Int>
    let midiHeardBytes: UnsafeMutablePointer<UInt8>
    let midiHeardSizes: UnsafeMutablePointer<Int>
    let midiHeardCount = Atomic<Int>(0)
    let captureLatency: [UInt32]

    let armed = Atomic<Bool>(false)
    let started = Atomic<Bool>(false)
    let startFrame = Atomic<UInt32>(0)
    let playedFrames = Atomic<Int>(0)
    let recordedFrames = Atomic<Int>(0)
    let xruns = Atomic<Int>(0)
    let stall = Atomic<Int>(0)

    init(outputs: [OpaquePointer], play: [[Float]], inputs: [OpaquePointer], record: Int,
         client: OpaquePointer, leader: UnsafeMutablePointer<TestClientState>?,
         midiPort: OpaquePointer?, midi: [(frame: Int, bytes: [UInt8])], midiIn: OpaquePointer?,
         captureLatency: [UInt32] = []) {
        self.client = client
        self.captureLatency = captureLatency
        self.midiPort = midiPort
        self.midiIn = midiIn
        midiHeardFrames = .allocate(capacity: Self.midiHeardCapacity)
        midiHeardBytes = .allocate(capacity: 3 * Self.midiHeardCapacity)
        midiHeardBytes.initialize(repeating: 0, count: 3 * Self.midiHeardCapacity)
        midiHeardSizes = .allocate(capacity: Self.midiHeardCapacity)
        midiCount = midi.count
        midiFrames = .allocate(capacity: max(1, midi.count))
        midiBytes = .allocate(capacity: max(1, 3 * midi.count))
        midiSizes = .allocate(capacity: max(1, midi.count))
        for (i, event) in midi.enumerated() {
            precondition((1...3).contains(event.bytes.count), "messages of 1 to 3 bytes only")
            (midiFrames + i).initialize(to: event.frame)
            (midiBytes + 3 * i).initialize(from: event.bytes, count: event.bytes.count)
            (midiSizes + i).initialize(to: event.bytes.count)
        }
        outputCount = outputs.count
        self.outputs = .allocate(capacity: max(1, outputs.count))
        self.outputs.initialize(from: outputs, count: outputs.count)
        playLength = play.first?.count ?? 0
        self.play = .allocate(capacity: max(1, play.count))
        for (c, signal) in play.enumerated() {
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: signal.count)
            buffer.initialize(from: signal, count: signal.count)
            (self.play + c).initialize(to: buffer)
        }
        inputCount = inputs.count
        self.inputs = .allocate(capacity: max(1, inputs.count))
        self.inputs.initialize(from: inputs, count: inputs.count)
        recordLength = record
        self.record = .allocate(capacity: max(1, inputs.count))
        for c in inputs.indices {
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: max(1, record))
            buffer.initialize(repeating: .nan, count: max(1, record))
            (self.record + c).initialize(to: buffer)
        }
        self.leader = leader
    }

    deinit {
        for c in 0..<outputCount { play[c].deallocate() }
        for c in 0..<inputCount { record[c].deallocate() }
        play.deallocate()
        record.deallocate()
        midiFrames.deallocate()
        midiBytes.deallocate()
        midiSizes.deallocate()
        midiHeardFrames.deallocate()
        midiHeardBytes.deallocate()
        midiHeardSizes.deallocate()
        outputs.deallocate()
        inputs.deallocate()
    }
}

func testClientProcess(_ nframes: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    let s = arg!.assumingMemoryBound(to: TestClientState.self)
    let n = Int(nframes)
    let cycleStart = jack_last_frame_time(s.pointee.client)
    let stall = s.pointee.stall.exchange(0, ordering: .relaxed)
    if stall > 0 {
        var begin = timespec(), now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &begin)
        repeat { clock_gettime(CLOCK_MONOTONIC, &now) }
        while (now.tv_sec - begin.tv_sec) * 1_000_000 + (now.tv_nsec - begin.tv_nsec) / 1000 < stall
    }
    if !s.pointee.started.load(ordering: .relaxed) {
        let go: Bool
        if let leader = s.pointee.leader {
            go = leader.pointee.started.load(ordering: .acquiring)
                && leader.pointee.startFrame.load(ordering: .relaxed) == cycleStart
        } else {
            go = s.pointee.armed.load(ordering: .acquiring)
        }
        if go {
            s.pointee.startFrame.store(cycleStart, ordering: .relaxed)
            s.pointee.started.store(true, ordering: .releasing)
        }
    }
    let started = s.pointee.started.load(ordering: .relaxed)
    let played = s.pointee.playedFrames.load(ordering: .relaxed)
    for c in 0..<s.pointee.outputCount {
        let out = jack_port_get_buffer(s.pointee.outputs[c], nframes)!.assumingMemoryBound(to: Float.self)
        for i in 0..<n {
            let k = played + i
            out[i] = started && k < s.pointee.playLength ? s.pointee.play[c][k] : 0
        }
    }
    if let port = s.pointee.midiPort, let buffer = jack_port_get_buffer(port, nframes) {
        jack_midi_clear_buffer(buffer)
        for i in 0..<s.pointee.midiCount where started {
            let at = s.pointee.midiFrames[i] - played
            if at >= 0 && at < n {
                jack_midi_event_write(buffer, jack_nframes_t(at), s.pointee.midiBytes + 3 * i, s.pointee.midiSizes[i])
            }
        }
    }
    if started && (s.pointee.outputCount > 0 || s.pointee.midiPort != nil) {
        s.pointee.playedFrames.store(played + n, ordering: .releasing)
    }
    let recorded = s.pointee.recordedFrames.load(ordering: .relaxed)
    if started, let port = s.pointee.midiIn, let buffer = jack_port_get_buffer(port, nframes) {
        var event = jack_midi_event_t()
        var heard = s.pointee.midiHeardCount.load(ordering: .relaxed)
        for i in 0..<jack_midi_get_event_count(buffer) where heard < TestClientState.midiHeardCapacity {
            guard jack_midi_event_get(&event, buffer, i) == 0, let bytes = event.buffer else { continue }
            s.pointee.midiHeardFrames[heard] = recorded + Int(event.time)
            let size = min(event.size, 3)
            (s.pointee.midiHeardBytes + 3 * heard).update(from: bytes, count: size)
            s.pointee.midiHeardSizes[heard] = size
            heard += 1
        }
        s.pointee.midiHeardCount.store(heard, ordering: .releasing)
    }
    if started && recorded < s.pointee.recordLength {
        let count = min(n, s.pointee.recordLength - recorded)
        for c in 0..<s.pointee.inputCount {
            let input = jack_port_get_buffer(s.pointee.inputs[c], nframes)!.assumingMemoryBound(to: Float.self)
            (s.pointee.record[c] + recorded).update(from: input, count: count)
        }
        s.pointee.recordedFrames.store(recorded + count, ordering: .releasing)
    }
    return 0
}
