import CJack
import Synchronization

/// `detent midi monitor`: a JACK client with one MIDI input whose messages are shown in words
/// (``MIDIMessageText``), so people can find what their controller sends.
///
/// The process callback copies each message (its first three bytes and its length) into a
/// lock-free ring; ``take()`` drains it on another thread.
package final class MIDIMonitor: @unchecked Sendable {
    let client: OpaquePointer
    let state: UnsafeMutablePointer<MIDIMonitorState>
    /// The client's name on the server.
    package let name: String
    private var closed = false

    /// Opens the client, and connects every MIDI source matching `connect` (a POSIX extended
    /// regular expression) to its `midi_in`.
    /// - Throws: no server, a taken name, a bad pattern.
    package init(name: String = "detent-monitor", server: String?, connect: String?) throws(LiveHostError) {
        if let connect { try PortPattern.validate(connect, option: "--connect") }
        try JackSession.prepareLibrary()
        var status = JackStatus(0)
        let opened: OpaquePointer? = if let server {
            detent_jack_client_open_server(name, JackNoStartServer, &status, server)
        } else {
            detent_jack_client_open(name, JackNoStartServer, &status)
        }
        guard let client = opened else {
            if status.rawValue & JackServerFailed.rawValue != 0 { throw .noServer(server: LiveHostOptions.namedServer(server)) }
            throw .openFailed(name: name, status: status.rawValue)
        }
        self.client = client
        self.name = String(cString: jack_get_client_name(client))
        guard let port = jack_port_register(client, "midi_in", JackSession.midiType, UInt(JackPortIsInput.rawValue), 0) else {
            jack_client_close(client)
            throw .portRegistration("\(self.name):midi_in")
        }
        state = .allocate(capacity: 1)
        state.initialize(to: MIDIMonitorState(client: client, port: port))
        jack_set_process_callback(client, midiMonitorProcess, state)
        guard jack_activate(client) == 0 else {
            jack_client_close(client)
            state.deinitialize(count: 1)
            state.deallocate()
            throw .activationFailed(self.name)
        }
        if let connect, let list = jack_get_ports(client, connect, JackSession.midiType, UInt(JackPortIsOutput.rawValue)) {
            defer { jack_free(list) }
            var i = 0
            while let source = list[i] {
                jack_connect(client, source, "\(self.name):midi_in")
                i += 1
            }
        }
    }

    deinit { close() }

    /// The messages received since the last call, with their JACK frame times and lengths
    /// (only the first three bytes are kept), in order;
    /// and how many were lost because the ring was full.
    package func take() -> (messages: [(time: UInt32, bytes: [UInt8], size: Int)], lost: Int) {
        var messages: [(time: UInt32, bytes: [UInt8], size: Int)] = []
        let head = state.pointee.head.load(ordering: .acquiring)
        var tail = state.pointee.tail.load(ordering: .relaxed)
        while tail != head {
            let record = state.pointee.records[tail % MIDIMonitorState.capacity]
            let size = Int(record.size)
            messages.append((record.time, Array([record.b0, record.b1, record.b2].prefix(min(size, 3))), size))
            tail &+= 1
        }
        state.pointee.tail.store(tail, ordering: .releasing)
        return (messages, state.pointee.lost.exchange(0, ordering: .relaxed))
    }

    package func close() {
        guard !closed else { return }
        closed = true
        jack_deactivate(client)
        jack_client_close(client)
        state.deinitialize(count: 1)
        state.deallocate()
    }
}

/// What the monitor's callback touches.
struct MIDIMonitorState: ~Copyable {
    struct Record: BitwiseCopyable {
        var time: UInt32
        var size: UInt32
        var b0: UInt8, b1: UInt8, b2: UInt8
    }

    static var capacity: Int { @_noLocks get { 4096 } }
    let client: OpaquePointer
    let port: OpaquePointer
    let records: UnsafeMutablePointer<Record>
    /// The cycle's messages, copied out of the port buffer in one guarded step.
    let events: UnsafeMutablePointer<DetentPortMIDIEvent>
    let bytes: UnsafeMutablePointer<UInt8>
    static var byteCapacity: Int { @_noLocks get { 32_768 } }
    let head = Atomic<Int>(0)
    let tail = Atomic<Int>(0)
    let lost = Atomic<Int>(0)

    init(client: OpaquePointer, port: OpaquePointer) {
        self.client = client
        self.port = port
        records = .allocate(capacity: Self.capacity)
        events = .allocate(capacity: Self.capacity)
        bytes = .allocate(capacity: Self.byteCapacity)
        detent_port_guard_install()
    }

    deinit {
        records.deallocate()
        events.deallocate()
        bytes.deallocate()
    }
}

@_noLocks
func midiMonitorProcess(_ nframes: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let arg else { return 0 }
    let state = arg.assumingMemoryBound(to: MIDIMonitorState.self)
    let count = _unsafePerformance {
        detent_jack_read_midi(state.pointee.port, nframes, state.pointee.events, Int32(MIDIMonitorState.capacity),
                              state.pointee.bytes, MIDIMonitorState.byteCapacity)
    }
    guard count > 0 else { return 0 }
    let start = _unsafePerformance { jack_last_frame_time(state.pointee.client) }
    var head = state.pointee.head.load(ordering: .relaxed)
    let tail = state.pointee.tail.load(ordering: .acquiring)
    for i in 0..<Int(count) {
        let event = state.pointee.events[i]
        let bytes = event.bytes!
        guard head - tail < MIDIMonitorState.capacity else {
            state.pointee.lost.wrappingAdd(1, ordering: .relaxed)
            continue
        }
        state.pointee.records[head % MIDIMonitorState.capacity] = MIDIMonitorState.Record(
            time: start &+ event.frame, size: UInt32(truncatingIfNeeded: event.size),
            b0: bytes[0], b1: event.size > 1 ? bytes[1] : 0, b2: event.size > 2 ? bytes[2] : 0)
        head += 1
    }
    state.pointee.head.store(head, ordering: .releasing)
    return 0
}
