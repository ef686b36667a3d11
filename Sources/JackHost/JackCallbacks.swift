import CJack
import CRealtime
import Parameters
import AudioEngine
import Platform

// The C callbacks JACK calls, as top-level functions: they capture nothing, so they
// convert to C function pointers, and they live outside `main.swift`, so they are not
// isolated to the main actor (Swift 6 would trap when JACK calls them from its own threads).

/// The process callback: port buffers in, `Engine.process`, port buffers out.
///
/// Proven free of allocation, locks and reference counting by the compiler
/// (`@_noLocks`); the calls into C are JACK's real-time-safe buffer and time functions,
/// and the RealtimeSanitizer hooks, which do nothing unless the sanitizer is linked in.
@_noLocks
func jackProcess(_ nframes: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    _unsafePerformance { detent_rtsan_enter() }
    if let arg {
        jackRender(arg.assumingMemoryBound(to: CallbackContext.self), frames: nframes)
    }
    _unsafePerformance { detent_rtsan_exit() }
    return 0
}

/// One period of the audio thread: the port buffers read (a faulted one silenced), MIDI
/// mapped to changes, the engine run, MIDI feedback and the plug-ins' MIDI written, the
/// supervisor posted when the cycle brought something. One function, longer than the others
/// by design: every step shares the cycle's buffers and counters in locals, and each call out
/// of it is one more place the compiler must prove lock- and allocation-free.
@_noLocks
func jackRender(_ context: UnsafeMutablePointer<CallbackContext>, frames nframes: jack_nframes_t) {
    let cycles = context.pointee.cycles.load(ordering: .relaxed)
    context.pointee.cycles.store(cycles &+ 1, ordering: .relaxed)
    let channels = context.pointee.channels
    let frames = Int(nframes)
    let stride = CallbackContext.portFrames
    guard frames <= stride else {
        silence(context, frames: nframes)
        return
    }
    // The inputs, copied in one guarded step (see CJack.h): 1 when a port had no buffer, -1
    // when one faulted.
    let read = _unsafePerformance {
        detent_jack_read_audio(context.pointee.inputPorts, Int32(channels), nframes, context.pointee.audio, stride)
    }
    if read < 0 { context.pointee.countFault() }
    // The side-chain inputs likewise (a missing buffer there leaves that key silent).
    let sideSets = context.pointee.sideSets.load(ordering: .acquiring)
    if sideSets > 0 {
        let sideRead = _unsafePerformance {
            detent_jack_read_audio(context.pointee.sidePorts, Int32(sideSets * channels), nframes, context.pointee.sideAudio, stride)
        }
        if sideRead < 0 { context.pointee.countFault() }
    }
    // A live chain edit's engine, or one prepared for a new sample rate, takes over here,
    // between blocks, once what it drops has faded.
    let (running, tookOver) = Unmanaged<EngineExchange>.fromOpaque(context.pointee.exchange)._withUnsafeGuaranteedRef {
        $0.engineForBlock()
    }
    if tookOver {
        _unsafePerformance { context.pointee.switched.signal() }
        // The new engine's processors have been told nothing yet.
        context.pointee.transportTempo = 0
    }
    let engineRate = Unmanaged<Engine>.fromOpaque(running)._withUnsafeGuaranteedRef { $0.sampleRate }
    let serverRate = Double(context.pointee.sampleRate.load(ordering: .relaxed))
    guard read == 0, engineRate == serverRate else {
        // Silence rather than audio processed at the wrong rate (or with a missing or
        // faulted port), until the host has an engine prepared for the new one.
        silence(context, frames: nframes)
        return
    }
    let cycleStart = _unsafePerformance { jack_last_frame_time(context.pointee.client) }
    // The MIDI input's messages, copied out in one guarded step: -1 when it faulted.
    let midiCount = context.pointee.midiPort.map { port in
        _unsafePerformance {
            detent_jack_read_midi(port, nframes, context.pointee.midiIn, Int32(CallbackContext.midiInCapacity),
                                  context.pointee.midiInBytes, CallbackContext.midiInByteCapacity)
        }
    } ?? -1
    if midiCount < 0 && context.pointee.midiPort != nil { context.pointee.countFault() }
    Unmanaged<Engine>.fromOpaque(running)._withUnsafeGuaranteedRef { engine in
        context.pointee.publishClock(jackFrame: cycleStart, engineFrame: engine.framePosition, period: nframes)
        // Each mapped control change lands at its own frame: the engine's one splitter cuts
        // the block there (JACK delivers the events in time order).
        // Messages that turn no knob (notes, bends, unmapped controllers) go to a processor
        // that takes MIDI, at their frame too.
        var count = 0
        let passMIDI = engine.acceptsMIDI
        if passMIDI { engine.beginMIDI() }
        let mappings = midiCount < 0 ? nil : context.pointee.midi.beginCycle()
        // Whether a control or program change came: what the host publishes (notes do not).
        var controllers = false
        if let mappings {
            for i in 0..<Int(midiCount) {
                let event = context.pointee.midiIn[i]
                let kind = event.bytes[0] & 0xF0
                if kind == 0xB0 || kind == 0xC0 { controllers = true }
                let frame = min(Int(event.frame), frames)
                let taken = context.pointee.midi.receive(
                    mappings, event.bytes, size: Int(event.size), frame: Int64(frame),
                    into: context.pointee.events, count: &count, capacity: CallbackContext.eventCapacity)
                if !taken && passMIDI {
                    engine.addMIDI(frame: frame, bytes: event.bytes, size: Int(event.size))
                }
            }
        }
        followTransport(context, engine: engine, frames: nframes)
        // Each keyed slot hears the port set bound to it.
        var keyed = 0
        if sideSets > 0 {
            for s in 0..<engine.slotCount {
                let set = engine.sideSource(s)
                guard set >= 0, set < sideSets, keyed < CallbackContext.sideSetCapacity else { continue }
                context.pointee.sides[keyed].slot = s
                context.pointee.sides[keyed].namedInput = 0
                context.pointee.sides[keyed].channels = UnsafePointer(context.pointee.sideTables + set * channels)
                keyed += 1
            }
            // And each named input of a graph its own.
            let named = engine.namedInputCount
            if named > 0 {
                for k in 1...named {
                    let set = engine.namedSource(k)
                    guard set >= 0, set < sideSets, keyed < CallbackContext.sideSetCapacity else { continue }
                    context.pointee.sides[keyed].namedInput = k
                    context.pointee.sides[keyed].channels = UnsafePointer(context.pointee.sideTables + set * channels)
                    keyed += 1
                }
            }
        }
        engine.process(
            input: UnsafePointer(context.pointee.inputBuffers), output: UnsafePointer(context.pointee.outputBuffers),
            frames: frames, events: UnsafeBufferPointer(start: context.pointee.events, count: count),
            sides: UnsafeBufferPointer(start: context.pointee.sides, count: keyed))
        let written = _unsafePerformance {
            detent_jack_write_audio(context.pointee.outputPorts, Int32(channels), nframes,
                                    context.pointee.audio + channels * stride, stride)
        }
        if written < 0 { context.pointee.countFault() }
        // Feedback: every mapped parameter that changed, at its frame, on midi_out.
        if let port = context.pointee.midiOutPort {
            var n = 0
            if let mappings { n = context.pointee.feedback.gather(mappings, engine: engine, frames: frames) }
            let events = context.pointee.feedback.events
            sortByFrame(events, count: n)
            let written = _unsafePerformance { detent_jack_write_midi(port, nframes, events, Int32(n)) }
            if written < 0 { context.pointee.countFault() }
        }
        if mappings != nil { context.pointee.midi.endCycle() }
        // A cycle that brought a control or program change wakes the host's supervisor, which
        // publishes what it changed (a post: a system call when the thread sleeps on it, so
        // only then — not for every cycle a keyboard plays notes in).
        // So does one in which a plug-in moved one of its own parameters (its value becomes
        // the rig's).
        let own = _unsafePerformance { detent_own_changes() }
        let moved = own != context.pointee.ownChangesSeen
        context.pointee.ownChangesSeen = own
        if controllers || moved { _unsafePerformance { context.pointee.wake.signal() } }
        // The processor's own MIDI, at its frames, on plugin_midi_out.
        if let port = context.pointee.pluginMIDIPort {
            writePluginMIDI(context, engine: engine, frames: frames, to: port, cycle: nframes)
        }
    }
}

/// Zeros on every output port for the cycle, in one guarded step.
@_noLocks
func silence(_ context: UnsafeMutablePointer<CallbackContext>, frames: jack_nframes_t) {
    let written = _unsafePerformance {
        detent_jack_write_audio(context.pointee.outputPorts, Int32(context.pointee.channels), frames, nil, 0)
    }
    if written < 0 { context.pointee.countFault() }
}

/// Gathers the messages every slot wrote in the cycle, puts them in time order (slot order at
/// equal frames, and each slot's are in order already), and writes them to `port` in one
/// guarded step; a full buffer drops the rest, as JACK does.
@_noLocks
func writePluginMIDI(_ context: UnsafeMutablePointer<CallbackContext>, engine: Engine, frames: Int,
                     to port: OpaquePointer, cycle nframes: jack_nframes_t) {
    context.pointee.pluginMIDICount = 0
    engine.drainMIDIOutput(frames: frames, into: gatherPluginMIDI, target: UnsafeMutableRawPointer(context))
    let count = context.pointee.pluginMIDICount
    sortByFrame(context.pointee.pluginMIDI, count: count)
    let written = _unsafePerformance { detent_jack_write_midi(port, nframes, context.pointee.pluginMIDI, Int32(count)) }
    if written < 0 { context.pointee.countFault() }
}

/// The engine's sink for ``writePluginMIDI(_:engine:frames:into:)``: `target` is the callback
/// context; messages beyond its capacity are dropped.
@_noLocks
func gatherPluginMIDI(_ target: UnsafeMutableRawPointer?, _ frame: UInt32, _ bytes: UnsafePointer<UInt8>, _ size: UInt32) {
    guard let context = target?.assumingMemoryBound(to: CallbackContext.self),
          context.pointee.pluginMIDICount < CallbackContext.pluginMIDICapacity else { return }
    let slot = context.pointee.pluginMIDI + context.pointee.pluginMIDICount
    slot.pointee.frame = frame
    slot.pointee.bytes = bytes
    slot.pointee.size = size
    context.pointee.pluginMIDICount += 1
}

/// JACK's transport, when a timebase master gives bars and beats, told to the processors that
/// follow one whenever it changes (as LV2's `time:Position` asks, and as jalv does): it
/// starts or stops rolling, its tempo changes, or it is moved. Without a master nothing is
/// told, and a processor keeps the tempo it started with (`--bpm`).
@_noLocks
func followTransport(_ context: UnsafeMutablePointer<CallbackContext>, engine: Engine, frames: jack_nframes_t) {
    var position = jack_position_t()
    let state = _unsafePerformance { jack_transport_query(context.pointee.client, &position) }
    guard position.valid.rawValue & JackPositionBBT.rawValue != 0, position.beats_per_minute > 0,
          position.beats_per_bar > 0, position.ticks_per_beat > 0 else { return }
    let rolling = state == JackTransportRolling
    if rolling != context.pointee.transportRolling || position.frame != context.pointee.transportFrame
        || position.beats_per_minute != context.pointee.transportTempo {
        // JACK counts bars and beats from 1.
        let barBeat = Double(position.beat - 1) + Double(position.tick) / position.ticks_per_beat
        let bar = Int64(position.bar - 1)
        engine.transport(TransportPosition(
            frame: Int64(position.frame), rolling: rolling, bar: bar, barBeat: barBeat,
            beat: Double(bar) * Double(position.beats_per_bar) + barBeat, beatsPerBar: Double(position.beats_per_bar),
            beatUnit: Int32(position.beat_type), beatsPerMinute: position.beats_per_minute))
    }
    context.pointee.transportRolling = rolling
    context.pointee.transportTempo = position.beats_per_minute
    context.pointee.transportFrame = rolling ? position.frame &+ frames : position.frame
}

/// Latency: each output's capture latency is its input's plus the processor's, and each
/// input's playback latency is its output's plus the processor's (in_N feeds out_N), so
/// JACK's graph and any recorder downstream can compensate for a plug-in's lookahead.
func jackLatency(_ mode: jack_latency_callback_mode_t, _ arg: UnsafeMutableRawPointer?) {
    guard let context = arg?.assumingMemoryBound(to: CallbackContext.self) else { return }
    let latency = context.pointee.latency.load(ordering: .relaxed)
    var range = jack_latency_range_t()
    for c in 0..<context.pointee.channels {
        let (from, to) = mode == JackCaptureLatency
            ? (context.pointee.inputPorts[c], context.pointee.outputPorts[c])
            : (context.pointee.outputPorts[c], context.pointee.inputPorts[c])
        jack_port_get_latency_range(from, mode, &range)
        range.min += latency
        range.max += latency
        jack_port_set_latency_range(to, mode, &range)
    }
}

func jackXrun(_ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let context = arg?.assumingMemoryBound(to: CallbackContext.self) else { return 0 }
    context.pointee.xruns.wrappingAdd(1, ordering: .relaxed)
    return 0
}

/// The engine splits blocks longer than it was prepared for, so a new buffer size needs
/// no allocation: it is only recorded (for `status` and the frame clock).
func jackBufferSize(_ frames: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let context = arg?.assumingMemoryBound(to: CallbackContext.self) else { return 0 }
    context.pointee.bufferSize.store(frames, ordering: .relaxed)
    return 0
}

/// A new sample rate needs an engine prepared for it (which allocates, off the audio
/// thread): the callback goes silent while the rate and its engine's differ, and the host
/// prepares one and hands it over through the exchange, the client staying where it is.
func jackSampleRate(_ rate: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let context = arg?.assumingMemoryBound(to: CallbackContext.self) else { return 0 }
    context.pointee.sampleRate.store(rate, ordering: .relaxed)
    context.pointee.formatChanged.store(true, ordering: .relaxed)
    context.pointee.wake.signal()
    return 0
}

/// The server went away. Runs like a signal handler: atomics and `sem_post` only.
func jackShutdown(_ code: jack_status_t, _ reason: UnsafePointer<CChar>?,
                     _ arg: UnsafeMutableRawPointer?) {
    jackServerGone(arg)
}

/// The same, as the plain shutdown callback: jackd2 calls only the info callback when both
/// are set, PipeWire's libjack (0.3.65) only this one.
func jackServerGone(_ arg: UnsafeMutableRawPointer?) {
    guard let context = arg?.assumingMemoryBound(to: CallbackContext.self) else { return }
    context.pointee.serverGone.store(true, ordering: .releasing)
    context.pointee.wake.signal()
}

func jackPortConnect(_ a: jack_port_id_t, _ b: jack_port_id_t, _ connect: Int32,
                     _ arg: UnsafeMutableRawPointer?) {
    jackGraphChanged(arg)
}

func jackPortRegistration(_ port: jack_port_id_t, _ registered: Int32, _ arg: UnsafeMutableRawPointer?) {
    jackGraphChanged(arg)
}

/// Connections to remember, or a remembered peer that may have appeared: the host looks
/// once things have settled.
func jackGraphChanged(_ arg: UnsafeMutableRawPointer?) {
    guard let context = arg?.assumingMemoryBound(to: CallbackContext.self) else { return }
    context.pointee.graphChanged.store(true, ordering: .relaxed)
    context.pointee.wake.signal()
}

/// Silences libjack's own messages ("Cannot connect to server socket…"): Detent says
/// what went wrong in one line of its own.
func jackQuiet(_ message: UnsafePointer<CChar>?) {}
