import AudioEngine
import BinaryPlugins
import Isolation
import Parameters
import PluginFormats
import RenderJobs
import Rig
import TextFormats

// The C interface to a chain. Every function that can fail returns a ``CallStatus`` and, on
// failure, hands its line through `error` (freed with `detent_free`). A chain is an opaque
// pointer made by `detent_chain_new` and ended by `detent_chain_free`; a call on a chain
// another thread is inside is refused with `busy`.

/// Makes a chain of `count` processors named as `--plugin` names them (none: the built-in).
@_cdecl("detent_chain_new")
public func detent_chain_new(
    _ references: UnsafePointer<UnsafePointer<CChar>?>?, _ count: Int32, _ sampleRate: Double, _ channels: Int32,
    _ chain: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    answer(error) {
        var plugins: [String] = []
        for i in 0..<Int(max(0, count)) {
            guard let reference = references?[i] else { continue }
            plugins.append(String(cString: reference))
        }
        let made = try EmbeddedChain(plugins: plugins, sampleRate: sampleRate, channels: Int(channels))
        chain.pointee = Unmanaged.passRetained(made).toOpaque()
    }
}

/// Runs each of the chain's plug-ins in a process of its own — or in the sandboxes `plan`
/// names (`together`, or groups of slot names `a+b,c`; null: each alone) — started as
/// `program` with `arguments` and then `slot SANDBOX` (Python: its interpreter, `-m
/// detent._slot`): a crash, an abort or a hang costs the call a `pluginCrashed` status instead
/// of the caller's process.
@_cdecl("detent_chain_isolate")
public func detent_chain_isolate(
    _ chain: UnsafeMutableRawPointer, _ program: UnsafePointer<CChar>, _ arguments: UnsafePointer<UnsafePointer<CChar>?>?,
    _ count: Int32, _ plan: UnsafePointer<CChar>?, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    let chain = embedded(chain)
    return answer(error) {
        var words: [String] = []
        for i in 0..<Int(max(0, count)) { if let word = arguments?[i] { words.append(String(cString: word)) } }
        // Each plug-in alone, its process kept from one whole signal to the next.
        var sandboxes = SandboxPlan.kept
        if let plan {
            do { sandboxes = try SandboxPlan(parsing: String(cString: plan)) } catch {
                throw CallFailure(.badValue, "isolate" + String(describing: error).dropFirst("--isolate".count))
            }
        }
        try chain.exclusive {
            let slots = chain.slotNames
            if let unknown = sandboxes.unknownSlots(among: slots).first {
                throw CallFailure(.badValue, "isolate: no slot '\(unknown)' in the chain (slots: \(slots.joined(separator: ", ")))")
            }
            chain.isolation = SlotLauncher(program: String(cString: program), arguments: words, plan: sandboxes)
        }
    }
}

/// The longest an isolated chain's plug-in may take to answer — to start, or to run one
/// block — before it counts as hung (Python's `timeout=`): `seconds` > 0, or 0 for the
/// defaults (10 s to start; offline, 10 s or four times the block's length to run).
@_cdecl("detent_chain_timeout")
public func detent_chain_timeout(_ chain: UnsafeMutableRawPointer, _ seconds: Double,
                                 _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let chain = embedded(chain)
    return answer(error) {
        guard seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
            throw CallFailure(.badValue, "timeout \(seconds): expected seconds up to a day (86400), or 0 for the defaults")
        }
        try chain.exclusive {
            guard var launcher = chain.isolation else { throw CallFailure(.badValue, "timeout applies to an isolated chain (isolate=True)") }
            launcher.timeout = seconds > 0 ? .nanoseconds(Int64((seconds * 1e9).rounded())) : nil
            chain.isolation = launcher
        }
    }
}

/// Interrupts the call running on `chain` in another thread (Ctrl-C in Python): it ends at
/// its next piece with status 7, an isolated chain's processes killed. Takes no lock, and
/// does nothing when no call runs.
@_cdecl("detent_chain_interrupt")
public func detent_chain_interrupt(_ chain: UnsafeMutableRawPointer) {
    embedded(chain).interrupt()
}

/// Serves one isolated slot (the body of `detent slot REQUEST`), for a process a chain made
/// by `detent_chain_isolate` started; returns the status the process should exit with.
@_cdecl("detent_serve_slot")
public func detent_serve_slot(_ request: UnsafePointer<CChar>) -> Int32 {
    SlotService.serve(request: String(cString: request))
}

/// Reads VST2, VST3 or CLAP binaries for a listing (the body of `detent scan FORMAT PATH…`),
/// for a process started by ``detent_use_scanner``'s program; returns the exit status.
@_cdecl("detent_serve_scan")
public func detent_serve_scan(_ format: UnsafePointer<CChar>, _ paths: UnsafePointer<UnsafePointer<CChar>>, _ count: Int32) -> Int32 {
    InstalledPlugins.serveScan(format: String(cString: format), paths: (0..<Int(max(0, count))).map { String(cString: paths[$0]) })
}

/// Answers for an isolated plug-in's words (the body of `detent words REFERENCE IDENTIFIER`),
/// for a process started by ``detent_use_scanner``'s program; returns the exit status.
@_cdecl("detent_serve_words")
public func detent_serve_words(_ reference: UnsafePointer<CChar>, _ identifier: UnsafePointer<CChar>) -> Int32 {
    WordsService.serve(reference: String(cString: reference), identifier: String(cString: identifier))
}

/// The program that reads plug-in binaries in a child process for a listing: `program` with
/// `arguments` and then `scan FORMAT PATH…` (Python: its interpreter, `-m detent._slot`).
@_cdecl("detent_use_scanner")
public func detent_use_scanner(_ program: UnsafePointer<CChar>, _ arguments: UnsafePointer<UnsafePointer<CChar>>?, _ count: Int32) {
    let words = (0..<Int(max(0, count))).compactMap { i in arguments.map { String(cString: $0[i]) } }
    ScanHelper.use(ScanHelper(program: String(cString: program), arguments: words))
}

@_cdecl("detent_chain_free")
public func detent_chain_free(_ chain: UnsafeMutableRawPointer?) {
    guard let chain else { return }
    Unmanaged<EmbeddedChain>.fromOpaque(chain).release()
}

private func embedded(_ chain: UnsafeMutableRawPointer) -> EmbeddedChain {
    Unmanaged<EmbeddedChain>.fromOpaque(chain).takeUnretainedValue()
}

/// Sets parameter `id` from `text`, read as `--set ID=TEXT` reads it.
@_cdecl("detent_chain_set")
public func detent_chain_set(_ chain: UnsafeMutableRawPointer, _ id: UnsafePointer<CChar>, _ text: UnsafePointer<CChar>,
                             _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let chain = embedded(chain)
    return answer(error) { try chain.exclusive { try chain.set(String(cString: id), String(cString: text)) } }
}

/// The value of parameter `id` in its unit.
@_cdecl("detent_chain_get")
public func detent_chain_get(_ chain: UnsafeMutableRawPointer, _ id: UnsafePointer<CChar>, _ value: UnsafeMutablePointer<Double>,
                             _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let chain = embedded(chain)
    return answer(error) { value.pointee = try chain.exclusive { try chain.value(String(cString: id)) } }
}

/// A parameter's value now as a person reads it (`800 Hz`; `20.0 ms` for a row that shows its
/// plug-in's own words), into `text`, which the caller frees with `detent_free`.
@_cdecl("detent_chain_text")
public func detent_chain_text(_ chain: UnsafeMutableRawPointer, _ id: UnsafePointer<CChar>,
                              _ text: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                              _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let chain = embedded(chain)
    return answer(error) {
        let name = String(cString: id)
        let value = try chain.exclusive { try chain.value(name) }
        text.pointee = handed(chain.table[try chain.table.index(of: name)].format(value))
    }
}

/// The rows `detent params --json` prints, one JSON object per line.
@_cdecl("detent_chain_parameters")
public func detent_chain_parameters(_ chain: UnsafeMutableRawPointer) -> UnsafeMutablePointer<CChar>? {
    let chain = embedded(chain)
    let lines = chain.table.specs.map { ParameterTableText.jsonLine($0) } + chain.fileParameters.map { ParameterTableText.jsonLine($0) }
    return handed(lines.joined(separator: "\n"))
}

/// The chain's slots, in order, as a JSON array of `{"name", "plugin", "identifier"}` (a
/// processor alone is the one slot it would be in a chain).
@_cdecl("detent_chain_slots")
public func detent_chain_slots(_ chain: UnsafeMutableRawPointer) -> UnsafeMutablePointer<CChar>? {
    handed(JSONValue.array(embedded(chain).slots.map { slot in
        .object([JSONMember("name", .string(slot.name)), JSONMember("plugin", .string(slot.processor.name)),
                 JSONMember("identifier", .string(slot.processor.identifier))])
    }).compactText)
}

/// The chain's identifier (what presets and sessions store) and its processor's name.
@_cdecl("detent_chain_identifier")
public func detent_chain_identifier(_ chain: UnsafeMutableRawPointer) -> UnsafeMutablePointer<CChar>? {
    handed(embedded(chain).identifier)
}

/// The latency in frames that a whole signal is compensated by.
@_cdecl("detent_chain_latency")
public func detent_chain_latency(_ chain: UnsafeMutableRawPointer, _ frames: UnsafeMutablePointer<Int64>,
                                 _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let chain = embedded(chain)
    return answer(error) { frames.pointee = Int64(try chain.exclusive { try chain.latencyFrames() }) }
}

/// Adds the plug-in `reference` (`NAME=REFERENCE` names its slot) at `position` (1 is
/// first; 0 or less: last).
@_cdecl("detent_chain_add")
public func detent_chain_add(_ chain: UnsafeMutableRawPointer, _ reference: UnsafePointer<CChar>, _ position: Int64,
                             _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let chain = embedded(chain)
    return answer(error) {
        let (name, rest) = Processor.slotNameAndReference(String(cString: reference))
        let processor = try ProcessorReference.processor(rest)
        try chain.exclusive { try chain.edit(.add(name: name, processor: processor, position: position > 0 ? Int(position) : nil)) }
    }
}

/// Removes the slot `name`.
@_cdecl("detent_chain_remove")
public func detent_chain_remove(_ chain: UnsafeMutableRawPointer, _ name: UnsafePointer<CChar>,
                                _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let chain = embedded(chain)
    return answer(error) { try chain.exclusive { try chain.edit(.remove(String(cString: name))) } }
}

/// Moves the slot `name` to `position` (1 is first).
@_cdecl("detent_chain_move")
public func detent_chain_move(_ chain: UnsafeMutableRawPointer, _ name: UnsafePointer<CChar>, _ position: Int64,
                              _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let chain = embedded(chain)
    return answer(error) {
        guard let place = Int(exactly: position) else { throw CallFailure(.badValue, "position \(position): out of range") }
        try chain.exclusive { try chain.edit(.move(String(cString: name), to: place)) }
    }
}

/// Automation for the next `detent_chain_process` call: `text` holds an automation file's
/// lines, as `render --automation` reads them, times counted from that call's start.
@_cdecl("detent_chain_automate")
public func detent_chain_automate(_ chain: UnsafeMutableRawPointer, _ text: UnsafePointer<CChar>,
                                  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let chain = embedded(chain)
    return answer(error) { try chain.exclusive { try chain.automate(String(cString: text)) } }
}

/// The chain's values, files and plug-in state as JSON (a string the caller frees with
/// `detent_free`), for `detent_chain_restore` on another chain made from the same plug-ins.
@_cdecl("detent_chain_snapshot")
public func detent_chain_snapshot(_ chain: UnsafeMutableRawPointer, _ snapshot: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                                  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let chain = embedded(chain)
    return answer(error) { snapshot.pointee = handed(try chain.exclusive { chain.snapshot() }) }
}

/// Takes a `detent_chain_snapshot`'s values, files and state as this chain's starting ones.
@_cdecl("detent_chain_restore")
public func detent_chain_restore(_ chain: UnsafeMutableRawPointer, _ snapshot: UnsafePointer<CChar>,
                                 _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let chain = embedded(chain)
    return answer(error) { try chain.exclusive { try chain.restore(String(cString: snapshot)) } }
}

/// What the last `detent_chain_process` call repaired, as a JSON object (a string the caller
/// frees with `detent_free`): `nonFiniteBlocks`, `sanitizedOutputSamples`, `absurdOutput`
/// (frames by slot), `midiDropped` and `latency`.
@_cdecl("detent_chain_report")
public func detent_chain_report(_ chain: UnsafeMutableRawPointer, _ report: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                                _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let chain = embedded(chain)
    return answer(error) { report.pointee = handed(try chain.exclusive { chain.lastReport.json }) }
}

/// MIDI messages given to `detent_chain_process` that could not be played, since the chain
/// was made (more than 512 at one frame, or more than a plug-in's list holds), counted as a
/// render counts them.
@_cdecl("detent_chain_dropped_midi")
public func detent_chain_dropped_midi(_ chain: UnsafeMutableRawPointer, _ count: UnsafeMutablePointer<Int64>,
                                      _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let chain = embedded(chain)
    return answer(error) { count.pointee = Int64(try chain.exclusive { chain.droppedMIDI }) }
}

/// The frames `detent_chain_process` writes for `frames` frames of input (with `final`).
@_cdecl("detent_chain_output_frames")
public func detent_chain_output_frames(_ chain: UnsafeMutableRawPointer, _ frames: Int64, _ final: Int32,
                                       _ written: UnsafeMutablePointer<Int64>,
                                       _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let chain = embedded(chain)
    return answer(error) {
        guard frames >= 0 else { throw CallFailure(.badValue, "frames \(frames): expected 0 or more") }
        written.pointee = Int64(try chain.exclusive { try chain.outputFrames(Int(frames), final: final != 0) })
    }
}

@_cdecl("detent_chain_reset")
public func detent_chain_reset(_ chain: UnsafeMutableRawPointer, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let chain = embedded(chain)
    return answer(error) { try chain.exclusive { chain.reset() } }
}

@_cdecl("detent_chain_load_preset")
public func detent_chain_load_preset(_ chain: UnsafeMutableRawPointer, _ reference: UnsafePointer<CChar>,
                                     _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let chain = embedded(chain)
    return answer(error) { try chain.exclusive { try chain.loadPreset(String(cString: reference)) } }
}

/// Saves the values as a user preset; `path` receives the file written.
@_cdecl("detent_chain_save_preset")
public func detent_chain_save_preset(_ chain: UnsafeMutableRawPointer, _ name: UnsafePointer<CChar>, _ replacing: Int32,
                                     _ path: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                                     _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let chain = embedded(chain)
    return answer(error) {
        path.pointee = handed(try chain.exclusive { try chain.savePreset(String(cString: name), replacing: replacing != 0) })
    }
}

/// Processes `frames` frames: `input` holds `channels` rows of `inputStride` floats (nil:
/// silence), `output` as many rows of `outputStride` floats with room for `frames` plus the
/// latency. `midiFrames`, `midiOffsets` and `midiSizes` place `midiCount` messages of
/// `midiBytes` (frames counted from this call's start, in order). With `final`, the latency is
/// rendered out and the chain starts afresh. `written` receives the frames written, and
/// `repaired` (when given) 1 when the call repaired anything `detent_chain_report` counts.
@_cdecl("detent_chain_process")
public func detent_chain_process(
    _ chain: UnsafeMutableRawPointer, _ input: UnsafePointer<Float>?, _ inputStride: Int64, _ frames: Int64,
    _ output: UnsafeMutablePointer<Float>, _ outputStride: Int64, _ final: Int32,
    _ midiBytes: UnsafePointer<UInt8>?, _ midiFrames: UnsafePointer<Int64>?, _ midiOffsets: UnsafePointer<Int64>?,
    _ midiSizes: UnsafePointer<Int32>?, _ midiCount: Int32,
    _ keyCount: Int32, _ keyNames: UnsafePointer<UnsafePointer<CChar>?>?, _ keyData: UnsafePointer<UnsafePointer<Float>?>?,
    _ keyChannels: UnsafePointer<Int64>?,
    _ written: UnsafeMutablePointer<Int64>, _ repaired: UnsafeMutablePointer<Int32>?,
    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    let chain = embedded(chain)
    return answer(error) {
        // Side-chain keys and a graph's named inputs: each `keyChannels[k]` rows of `frames`.
        var keys: [(name: String, samples: UnsafePointer<Float>, channels: Int)] = []
        for k in 0..<Int(max(0, keyCount)) {
            guard let name = keyNames?[k], let data = keyData?[k], let count = keyChannels?[k], count > 0 else {
                throw CallFailure(.badValue, "key \(k): no name, samples or channels")
            }
            keys.append((String(cString: name), data, Int(count)))
        }
        guard frames >= 0 else { throw CallFailure(.badValue, "frames \(frames): expected 0 or more") }
        var midi: [(frame: Int, bytes: [UInt8])] = []
        if midiCount > 0, let midiBytes, let midiFrames, let midiOffsets, let midiSizes {
            for i in 0..<Int(midiCount) {
                let frame = Int(midiFrames[i])
                guard frame >= 0, frame < max(1, Int(frames)) else {
                    throw CallFailure(.badValue, "MIDI message \(i) at frame \(frame): expected 0 … \(max(0, frames - 1))")
                }
                guard i == 0 || frame >= midi[i - 1].frame else {
                    throw CallFailure(.badValue, "MIDI message \(i) at frame \(frame) comes before the one before it")
                }
                let size = Int(midiSizes[i])
                guard (1...3).contains(size) || (midiBytes[Int(midiOffsets[i])] == 0xF0 && size <= 65_536) else {
                    throw CallFailure(.badValue, "MIDI message \(i): \(size) bytes is not a MIDI message")
                }
                midi.append((frame, Array(UnsafeBufferPointer(start: midiBytes + Int(midiOffsets[i]), count: size))))
            }
        }
        try chain.exclusive {
            written.pointee = Int64(try chain.process(input: input, inputStride: Int(inputStride), frames: Int(frames), output: output,
                                                      outputStride: Int(outputStride), final: final != 0, midi: midi, keys: keys))
            // Whether `detent_chain_report` has anything to say: the caller asks for it only then.
            repaired?.pointee = chain.lastReport.repairedAnything ? 1 : 0
        }
    }
}
