import AudioEngine
import Isolation
import OfflineRender
import Parameters
import Platform
import Presets
import RenderJobs
import Synchronization
import TextFormats
import Rig

/// A processor — the built-in, a plug-in, a chain of them — hosted for a caller in another
/// language (Python's `detent.Chain`), with the command line's semantics: values set before
/// the first block (or after ``reset()``) are starting values, as `--set`; later ones glide
/// with the engine's smoothing, as live. Blocks of any size give the same samples as one
/// block for every plug-in whose sound does not depend on how its runs are cut (almost all;
/// for the others, parts whose lengths are multiples of ``grid``), and a whole signal
/// (`final`) gives what `detent render` writes for it: the processor's latency dropped from
/// the start and rendered out at the end.
final class EmbeddedChain: @unchecked Sendable {
    /// The processor as found, and as it runs (with files and a preset's state chosen).
    private var found: Processor
    private var processor: Processor
    private(set) var store: PresetStore
    let sampleRate: Double
    let channels: Int
    /// Every parameter's value: the starting value before the first block, the target after.
    private(set) var values: [ParameterIndex: Double]
    /// File parameters' paths, by id.
    private var files: [String: String] = [:]
    private var state: SavedState?
    private var engine: Engine?
    /// The isolated engine let go last, until the next is made (``dropEngine()``).
    private var retired: Engine?
    /// Whether the engine has processed a block of the current signal: values set before are
    /// starting values. A built-in engine given new starting values restarts at its next block.
    private var running = false
    private var restarts = false
    /// How its plug-ins' processes are started, when they run in processes of their own
    /// (`isolate=True`, or sandboxes: `isolate="together"`).
    var isolation: SlotLauncher? {
        didSet {
            dropEngine()
            sandboxes.withLock { $0 = isolation?.sandboxes }
            tableChanged()
        }
    }
    /// Set by ``interrupt()`` from another thread while a call runs; the call ends at its next
    /// piece, and the flag is cleared when it does.
    private let interruption = Atomic<Bool>(false)
    /// The sandboxes of an isolated chain, reached without the chain's lock (a call holds it).
    private let sandboxes = Mutex<SandboxRegistry?>(nil)

    /// Its slots' names (the processor's own, for a plug-in alone).
    var slotNames: [String] { found.chainParts.map(\.name) }
    /// Its slots, with their processors, in order.
    var slots: [(name: String, processor: Processor)] { found.chainParts }
    /// Whether any slot is a plug-in (the built-in alone, or chains of it, restart in place).
    private var hostsPlugins: Bool
    /// The process that made `engine`: a child made by `fork` has none of its threads (an LV2
    /// worker's) and makes its own.
    private var engineProcess: Int32 = 0
    /// Latency frames still to drop from the output, and the latency.
    private var toDrop = 0
    private(set) var latency = 0
    /// Taken for the length of a call: a second thread's call is refused, not run.
    private let inUse = Atomic<Bool>(false)
    /// Room for a block's discarded frames and for silence; channel pointers.
    private let scratch: UnsafeMutablePointer<Float>
    private let silence: UnsafeMutablePointer<Float>
    private let inputs: UnsafeMutablePointer<UnsafePointer<Float>>
    private let outputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// The same, from the frame of a piece the engine's current call starts at.
    private let spanInputs: UnsafeMutablePointer<UnsafePointer<Float>>
    private let spanOutputs: UnsafeMutablePointer<UnsafeMutablePointer<Float>>
    /// The MIDI messages given, on the engine's timeline, as every render hands them over.
    private let feed = EventFeed()

    /// The frames a plug-in runs at most at once, from frame 0 of the signal on: a render's
    /// blocks (a power of two, at least this) are cut into runs on the same grid. No piece
    /// of a call is longer, so it is also the engine's largest block.
    static let grid = Engine.defaultKernelFrames
    /// The smallest engine made for a short whole signal (``blockFrames(forSignal:)``).
    static let smallestBlock = 256

    init(plugins: [String], sampleRate: Double, channels: Int) throws {
        guard sampleRate.isFinite, (1_000...768_000).contains(sampleRate) else {
            throw CallFailure(.badValue, "sample rate \(sampleRate): expected 1000 … 768000 Hz")
        }
        guard (1...64).contains(channels) else { throw CallFailure(.badValue, "channels \(channels): expected 1 … 64") }
        // A graph file, alone, is hosted as `--graph` hosts it (its values the starting ones).
        let graph = plugins.count == 1 && plugins[0].lowercased().hasSuffix(".json") && GraphFile.isGraph(plugins[0]) ? plugins[0] : nil
        (found, store) = try graph.map { try PluginChoice(graph: $0).resolved() } ?? ProcessorReference.find(plugins: plugins)
        processor = found
        table = found.table
        hostsPlugins = found.slots.isEmpty ? !found.isBuiltIn : found.slots.contains { !$0.processor.isBuiltIn }
        self.sampleRate = sampleRate
        self.channels = channels
        values = try StartingChoice(sets: PluginChoice(graph: graph).startingSets).values(store: store, processor: found)
        scratch = .allocate(capacity: channels * Self.grid)
        silence = .allocate(capacity: Self.grid)
        silence.initialize(repeating: 0, count: Self.grid)
        inputs = .allocate(capacity: channels)
        outputs = .allocate(capacity: channels)
        spanInputs = .allocate(capacity: channels)
        spanOutputs = .allocate(capacity: channels)
    }

    deinit {
        // An engine made before a fork belongs to the parent: its plug-ins' threads are not
        // in this process, and releasing it here would wait for them forever.
        if let engine, engineProcess != ThisProcess.id { _ = Unmanaged.passRetained(engine) }
        if let retired, engineProcess != ThisProcess.id { _ = Unmanaged.passRetained(retired) }
        engine = nil
        retired = nil
        scratch.deallocate()
        silence.deallocate()
        inputs.deallocate()
        outputs.deallocate()
        spanInputs.deallocate()
        spanOutputs.deallocate()
    }

    /// The table values are read, set and shown through: the processor's own, or an isolated
    /// chain's, whose plug-ins' words are asked in a process of their own (asking here would
    /// load a plug-in into the caller's process, which isolation promises it never is).
    private(set) var table: ParameterTable

    /// ``table`` made again, for a new processor or isolation.
    private func tableChanged() {
        table = isolation.map { found.isolated($0).table } ?? found.table
    }
    var fileParameters: [FileParameter] { processor.files }
    var identifier: String { found.identifier }

    /// Runs `body` as this thread's call, or refuses when another thread is in one.
    func exclusive<T>(_ body: () throws -> T) throws -> T {
        guard inUse.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            throw CallFailure(.busy, "this chain is in use by another thread: use one chain per thread")
        }
        defer { inUse.store(false, ordering: .releasing) }
        return try body()
    }

    /// Sets `id` from text as `--set ID=TEXT` reads it; a file parameter takes a path.
    func set(_ id: String, _ text: String) throws {
        if let file = found.file(id) {
            let path = try FileSettings.checked(text, assignment: id + "=" + text)
            files[file.id] = path
            // A file is loaded when the engine is prepared: the next block starts afresh.
            dropEngine()
            return
        }
        let (index, value) = try table.parseAssignment(id + "=" + text)
        set(index, value)
    }

    /// Sets a row: a starting value until the signal's first block, gliding after it.
    private func set(_ index: ParameterIndex, _ value: Double) {
        let clamped = table[index].clamp(value)
        values[index] = clamped
        guard let engine, engineProcess == ThisProcess.id else { return }
        if running {
            // Glides from the next call's first frame, handed over with that call's automation
            // by the one loop; the latest value per parameter, so a caller setting one a
            // thousand times between calls fills nothing.
            settled[index] = clamped
        } else if hostsPlugins {
            // Made already (for its latency) but not started: made again at the values.
            dropEngine()
        } else {
            engine.jump(index, to: clamped)
            restarts = true
        }
    }

    /// The value of `id`: the starting value, or the target it glides to.
    func value(_ id: String) throws -> Double {
        values[try table.index(of: id)] ?? 0
    }

    /// Loads a preset by name or file, as `--preset` does: starting values before the first
    /// block, glides after; a plug-in state it keeps is restored when the chain next starts.
    func loadPreset(_ reference: String) throws {
        let loaded = try StartingChoice(preset: reference).values(store: store, processor: found)
        for (index, value) in loaded { set(index, value) }
        if let state = try PresetStates.starting(reference, store: store, processor: found) {
            self.state = state
            dropEngine()
        }
    }

    /// What makes this chain what it is beyond what it was made from, as JSON: every value by
    /// id (the starting value, or the target it glides to), the files its file parameters
    /// hold, and the plug-in state a preset gave it — what a copy is made again from (Python's
    /// `copy`, `pickle`, a chain sent to a worker process).
    func snapshot() -> String {
        // Its shape first (a graph's is its file's, which the caller keeps): each slot's name
        // and plug-in, and whether it is a processor alone rather than a chain of one slot.
        let shape: JSONValue = found.routing != nil ? .null : .array(found.chainParts.map { part in
            .object([JSONMember("name", .string(part.name)), JSONMember("identifier", .string(part.processor.identifier))])
        })
        var members = [JSONMember("slots", shape), JSONMember("alone", .bool(found.slots.isEmpty))]
        members.append(JSONMember("values", .object(values.keys.sorted().map { JSONMember(table[$0].id, .number(values[$0]!)) })))
        members.append(JSONMember("files", .object(files.keys.sorted().map { JSONMember($0, .string(files[$0]!)) })))
        members.append(JSONMember("state", state?.json ?? .null))
        return JSONValue.object(members).compactText
    }

    /// Takes a ``snapshot()``'s values, files and state, as starting values (the chain starts
    /// afresh with them).
    ///
    /// - Throws: ``CallFailure`` for JSON that is no snapshot, an unknown id, a file that
    ///   cannot be read.
    func restore(_ text: String) throws {
        guard case .object(let members) = try? JSONParser.parse(Array(text.utf8)) else {
            throw CallFailure(.badValue, "a chain's snapshot: not a JSON object")
        }
        if let shape = members.first(where: { $0.key == "slots" })?.value, case .array(let slots) = shape {
            let alone = members.first { $0.key == "alone" }?.value == .bool(true)
            try take(shape: slots, alone: alone)
        }
        for member in members {
            switch (member.key, member.value) {
            case ("values", .object(let entries)):
                for entry in entries {
                    guard let value = entry.value.doubleValue else { throw CallFailure(.badValue, "\(entry.key): not a number") }
                    set(try table.index(of: entry.key), value)
                }
            case ("files", .object(let entries)):
                for entry in entries {
                    guard case .string(let path) = entry.value else { throw CallFailure(.badValue, "\(entry.key): not a path") }
                    try set(entry.key, path)
                }
            case ("state", .null):
                break
            case ("state", let json):
                do { state = try SavedState(json: json) } catch { throw CallFailure(.badValue, "a chain's snapshot: \(error)") }
                dropEngine()
            case ("slots", _), ("alone", _):
                break  // taken first
            default:
                throw CallFailure(.badValue, "a chain's snapshot: unexpected '\(member.key)'")
            }
        }
    }

    /// Saves the values as the user preset `name`, with the plug-ins' states and the files
    /// they hold (a state folder beside it), as a live `preset save` does.
    func savePreset(_ name: String, replacing: Bool) throws -> String {
        var preset = Preset(name: name, values: store.defaultValues().values, processor: store.scope.processor)
        for (index, value) in values { preset.values[index] = value }
        var chosen = found.settingState(state)
        do { chosen = try chosen.settingFiles(files) } catch { throw CallFailure(.badValue, error.description) }
        return try PresetStateFolder.save(running: chosen, preset, store: store, replacing: replacing)
    }

    /// Ends the call running on another thread (Python's Ctrl-C): it stops at its next piece
    /// of at most a grid block, and an isolated chain's processes are killed, so that a call
    /// waiting on a plug-in that hangs ends at once rather than at its deadline. The next call
    /// starts afresh (new processes). Takes no lock (a call holds the chain's), and does
    /// nothing when no call runs.
    func interrupt() {
        guard inUse.load(ordering: .acquiring) else { return }
        interruption.store(true, ordering: .releasing)
        sandboxes.withLock { $0 }?.interrupt()
    }

    /// Starts afresh: state cleared, values kept as the starting values. A plug-in starts as
    /// a new instance, as each file of a render does: not every plug-in clears its memory
    /// when it is reactivated (mda Overdrive keeps its filter's), and "afresh" must sound
    /// the same as a render of the next signal.
    func reset() {
        running = false
        guard let engine, engineProcess == ThisProcess.id, !hostsPlugins else {
            dropEngine()
            return
        }
        engine.reset()
        feed.dropPending()
        // Values set while the last signal ran start the next one, as values set now would.
        for (index, value) in settled { engine.jump(index, to: value) }
        settled = [:]
        restarts = false
        toDrop = latency
    }

    /// Processes `frames` frames of `input` (`channels` rows of `inputStride` floats; nil for
    /// silence) into `output` (`channels` rows of `outputStride` floats, room for `frames` +
    /// ``latency`` frames), with `midi` at their frames in this call. With `final`, the
    /// latency is rendered out after the input and the chain starts afresh. Returns the
    /// frames written.
    ///
    /// `keys` feed side chains and a graph's named inputs, by name (a keyed slot's, or an
    /// input's): each `channels` rows of `frames` floats, folded to the chain's channels.
    func process(input: UnsafePointer<Float>?, inputStride: Int, frames: Int, output: UnsafeMutablePointer<Float>,
                 outputStride: Int, final: Bool, midi: [(frame: Int, bytes: [UInt8])],
                 keys: [(name: String, samples: UnsafePointer<Float>, channels: Int)] = []) throws -> Int {
        // An interruption meant for an earlier call (it came as that one ended) is not this one's.
        interruption.store(false, ordering: .releasing)
        defer { interruption.store(false, ordering: .releasing) }
        let engine = try preparedEngine(signal: final ? frames : nil)
        let targets = try keys.map { key throws -> Engine.SideInput in try target(key.name) }
        let keyRows = KeyRows(keys, channels: channels, frames: frames)
        defer { keyRows.deallocate() }
        if restarts {
            engine.reset()
            restarts = false
        }
        running = true
        let counted = (repairs: engine.telemetry.repairs(), dropped: feed.droppedNotes)
        // The messages on the engine's timeline: this call's frames start where it stands.
        let start = engine.framePosition
        feed.add(notes: midi.map { (start + Int64($0.frame), $0.bytes) })
        // Values set since the last call first, then the automation: at one frame, the later
        // wins, as a render's file order does.
        feed.add(changes: settled.keys.sorted().map { ParameterChange($0, settled[$0]!, frame: start) })
        settled = [:]
        feed.add(changes: automation.map { change in
            var placed = change
            placed.frame += start
            return placed
        })
        automation = []
        var written = 0
        // With `final`, the latency's silence follows the input in the same grid block, as a
        // render's reader fills its last block: the block that holds both is made here.
        let total = frames + (final ? latency : 0)
        let piece = UnsafeMutablePointer<Float>.allocate(capacity: channels * Self.grid * (1 + keys.count))
        defer { piece.deallocate() }
        var done = 0
        while done < total {
            if interruption.load(ordering: .acquiring) {
                dropEngine()
                throw CallFailure(.interrupted, "interrupted")
            }
            // Calls end on the grid a render's blocks end on, whatever the caller's parts:
            // a plug-in's runs are then the render's, for plug-ins whose sound depends on them.
            let position = engine.framePosition
            let n = min(total - done, Self.grid - Int(position) % Self.grid)
            let dropping = toDrop > 0
            // The input's frames of this piece (all, some, or none: the latency's silence).
            let real = max(0, min(n, frames - done))
            for c in 0..<channels {
                outputs[c] = dropping ? scratch + c * Self.grid : output + c * outputStride + written
            }
            pointInputs(input, stride: inputStride, at: done, frames: n, real: real, piece: piece)
            let keyed = input != nil && real > 0 && !keys.isEmpty
            if keyed { keyRows.point(at: done, frames: n, real: real, piece: piece + channels * Self.grid) }
            // The one loop every render goes through: MIDI at its frames, a call cut where it
            // would take more messages than a plug-in's list, the end of the stream said
            // (a whole-block plug-in's last run is padded, see `Engine.endStream`).
            feed.render(engine, position: position, frames: n, endsStream: final && done + n == total) { from, to in
                run(engine, from: from, to: to, sides: keyed ? targets : nil, keyRows: keyRows)
            }
            if dropping {
                written += keepAfterLatency(frames: n, into: output, stride: outputStride, at: written)
            } else {
                written += n
            }
            done += n
        }
        lastReport = CallReport(since: counted, now: (engine.telemetry.repairs(), feed.droppedNotes), slots: { slotNames },
                                latency: latency)
        if final { reset() }
        try checkFaults(engine)
        return written
    }

    /// What one `process` call repaired, that a caller could not otherwise learn (a render
    /// says the same in its summary): input blocks that held NaN or infinity (made silence),
    /// output samples made silence (denormals, or a slot's absurd output), the frames each
    /// slot passed its input through for absurd output, the MIDI messages that could not be
    /// played; and the latency compensated.
    struct CallReport {
        var nonFiniteBlocks: Int64 = 0
        var sanitizedOutputSamples: Int64 = 0
        var absurdFrames: [(slot: String, frames: Int64)] = []
        var midiDropped = 0
        var latency = 0

        init() {}

        /// `slots` gives the slots' names, asked only when a slot passed absurd output.
        init(since: (repairs: TelemetryRepairs, dropped: Int), now: (repairs: TelemetryRepairs, dropped: Int),
             slots: () -> [String], latency: Int) {
            nonFiniteBlocks = now.repairs.nonFiniteBlocks - since.repairs.nonFiniteBlocks
            sanitizedOutputSamples = now.repairs.sanitizedOutputSamples - since.repairs.sanitizedOutputSamples
            if now.repairs.absurdFrames != since.repairs.absurdFrames {
                let names = slots()
                absurdFrames = names.indices.compactMap { s in
                    let frames = (now.repairs.absurdFrames.indices.contains(s) ? now.repairs.absurdFrames[s] : 0)
                        - (since.repairs.absurdFrames.indices.contains(s) ? since.repairs.absurdFrames[s] : 0)
                    return frames > 0 ? (names[s], frames) : nil
                }
            }
            midiDropped = now.dropped - since.dropped
            self.latency = latency
        }

        /// Whether the call repaired anything at all.
        var repairedAnything: Bool {
            nonFiniteBlocks != 0 || sanitizedOutputSamples != 0 || !absurdFrames.isEmpty || midiDropped != 0
        }

        /// As JSON, with the names a render's summary gives the same counts.
        var json: String {
            JSONValue.object([
                JSONMember("nonFiniteBlocks", .number(nonFiniteBlocks)),
                JSONMember("sanitizedOutputSamples", .number(sanitizedOutputSamples)),
                JSONMember("absurdOutput", .object(absurdFrames.map { JSONMember($0.slot, .number($0.frames)) })),
                JSONMember("midiDropped", .number(midiDropped)),
                JSONMember("latency", .number(latency)),
            ]).compactText
        }
    }

    /// The report of the last `process` call (all zero before the first).
    private(set) var lastReport = CallReport()

    /// A call's keys as the engine reads them: each folded to the chain's channels, whole
    /// (this is not the audio thread), and per key a table of its rows for the current piece
    /// and one for the span of it the engine runs. Freed at the end of the call.
    private struct KeyRows {
        let channels: Int
        let frames: Int
        let folded: [UnsafeMutablePointer<Float>]
        let tables: [UnsafeMutablePointer<UnsafePointer<Float>>]
        let spanTables: [UnsafeMutablePointer<UnsafePointer<Float>>]

        init(_ keys: [(name: String, samples: UnsafePointer<Float>, channels: Int)], channels: Int, frames: Int) {
            self.channels = channels
            self.frames = frames
            folded = keys.map { key -> UnsafeMutablePointer<Float> in
                let rows = UnsafeMutablePointer<Float>.allocate(capacity: channels * max(1, frames))
                ChannelFold.fold(key.samples, .rows(key.channels, frames: frames), into: rows, .rows(channels, frames: frames), frames: frames)
                return rows
            }
            tables = keys.map { _ in UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: channels) }
            spanTables = keys.map { _ in UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: channels) }
        }

        /// Frees the rows and tables, once the call is done with them.
        func deallocate() {
            (tables + spanTables).forEach { $0.deallocate() }
            folded.forEach { $0.deallocate() }
        }

        /// Points each key's table at a piece of `n` frames from frame `done`, of which `real`
        /// are the call's: its folded rows, or, for a piece cut short, a copy of them padded
        /// with silence in `pieces` (one row of the grid per key and channel).
        func point(at done: Int, frames n: Int, real: Int, piece pieces: UnsafeMutablePointer<Float>) {
            for k in tables.indices {
                for c in 0..<channels {
                    if real == n {
                        tables[k][c] = UnsafePointer(folded[k] + c * frames + done)
                    } else {
                        let row = pieces + (k * channels + c) * EmbeddedChain.grid
                        row.update(from: folded[k] + c * frames + done, count: real)
                        (row + real).update(repeating: 0, count: n - real)
                        tables[k][c] = UnsafePointer(row)
                    }
                }
            }
        }
    }

    /// Points `inputs` at a piece of `n` frames from frame `done` of `input`, of which `real`
    /// are the input's: the input itself when the piece is whole, silence when it has none
    /// of it, else a copy padded with silence in `piece` (one row of the grid per channel).
    private func pointInputs(_ input: UnsafePointer<Float>?, stride: Int, at done: Int, frames n: Int, real: Int,
                             piece: UnsafeMutablePointer<Float>) {
        let whole = real == n && input != nil
        for c in 0..<channels {
            if whole {
                inputs[c] = UnsafePointer(input! + c * stride + done)
            } else if real == 0 || input == nil {
                inputs[c] = UnsafePointer(silence)
            } else {
                let row = piece + c * Self.grid
                row.update(from: input! + c * stride + done, count: real)
                (row + real).update(repeating: 0, count: n - real)
                inputs[c] = UnsafePointer(row)
            }
        }
    }

    /// Runs the engine on frames `from ..< to` of the piece `inputs` and `outputs` point at,
    /// with the keys' rows of the same frames as `sides` (nil: no keys in this piece).
    private func run(_ engine: Engine, from: Int, to: Int, sides targets: [Engine.SideInput]?, keyRows: KeyRows) {
        for c in 0..<channels {
            spanInputs[c] = inputs[c] + from
            spanOutputs[c] = outputs[c] + from
        }
        guard var sides = targets else {
            engine.process(input: UnsafePointer(spanInputs), output: UnsafePointer(spanOutputs), frames: to - from)
            return
        }
        for k in sides.indices {
            for c in 0..<channels { keyRows.spanTables[k][c] = keyRows.tables[k][c] + from }
            sides[k].channels = UnsafePointer(keyRows.spanTables[k])
        }
        sides.withUnsafeBufferPointer {
            engine.process(input: UnsafePointer(spanInputs), output: UnsafePointer(spanOutputs), frames: to - from, sides: $0)
        }
    }

    /// The latency's frames are processed with the rest of their block, as a render
    /// processes them, and not kept: of a piece of `n` frames rendered into the scratch rows,
    /// what follows them is copied to `output` at frame `written`.
    ///
    /// - Returns: the frames kept.
    private func keepAfterLatency(frames n: Int, into output: UnsafeMutablePointer<Float>, stride: Int, at written: Int) -> Int {
        let dropped = min(toDrop, n)
        for c in 0..<channels {
            (output + c * stride + written).update(from: scratch + c * Self.grid + dropped, count: n - dropped)
        }
        toDrop -= dropped
        return n - dropped
    }

    /// Takes the shape a ``snapshot()`` gave (its slots by name and plug-in; `alone`: a
    /// processor alone), when this chain has another: the chain that was edited after it was
    /// made is made again as it was left, a chain of one slot included.
    private func take(shape slots: [JSONValue], alone: Bool) throws {
        var parts: [(name: String, processor: Processor)] = []
        for slot in slots {
            guard case .object(let fields) = slot,
                  case .string(let name)? = fields.first(where: { $0.key == "name" })?.value,
                  case .string(let identifier)? = fields.first(where: { $0.key == "identifier" })?.value else {
                throw CallFailure(.badValue, "a chain's snapshot: a slot without its name and plug-in")
            }
            parts.append((name, try ProcessorReference.processor(identifier)))
        }
        guard found.routing == nil, !parts.isEmpty else { return }
        let shaped = alone && parts.count == 1 ? parts[0].processor : try Processor.chain(parts)
        guard shaped.identifier != found.identifier || shaped.slots.isEmpty != found.slots.isEmpty else { return }
        reshape(to: shaped, values: shaped.table.complete([:]))
    }

    /// This chain as `processor` from now on, at `values`: its preset store and whether it
    /// hosts plug-ins follow; the next call starts afresh.
    private func reshape(to processor: Processor, values: [ParameterIndex: Double]) {
        found = processor
        tableChanged()
        store = ProcessorReference.store(for: found)
        hostsPlugins = found.chainParts.contains { !$0.processor.isBuiltIn }
        self.values = values
        dropEngine()
    }

    /// Edits the chain between calls (Python's `append`, `insert`, `del`, `move`): a plug-in
    /// added as a slot, a slot removed or moved, as a live `chain add|remove|move` edits a
    /// running chain. The slots that stay keep their values, files and preset state; a new
    /// one starts at its defaults; the chain starts afresh at the next call, as after
    /// ``reset()`` (an isolated one in the processes it has).
    ///
    /// - Throws: ``CallFailure``: a plug-in that is not found, an unknown slot, a bad place or
    ///   name, the last slot removed, a graph (edited by its connections, not from here).
    func edit(_ edit: ChainEdit) throws {
        guard found.routing == nil else {
            throw CallFailure(.badValue, "a graph is edited by its connections (its file), not slot by slot")
        }
        let edited: EditedChain
        do { edited = try found.applying(edit) } catch { throw CallFailure(.badValue, error.description) }
        let wasAlone = found.slots.isEmpty
        let firstName = edited.processor.chainParts.first?.name ?? ""
        var carried = edited.carry(values)
        for id in edited.processor.table.indices where carried[id] == nil {
            carried[id] = edited.processor.table[id].defaultValue
        }
        // A processor alone that becomes a chain's first slot: its ids gain the slot's name.
        let newFiles = Set(edited.processor.files.map(\.id))
        files = Dictionary(files.compactMap { id, path -> (String, String)? in
            let now = wasAlone ? firstName + "." + id : id
            return newFiles.contains(now) ? (now, path) : nil
        }, uniquingKeysWith: { a, _ in a })
        if wasAlone, let alone = state { state = .slots([firstName: alone]) }
        reshape(to: edited.processor, values: carried)
    }

    /// Automation for the next `process` call, its frames counted from that call's start.
    private var automation: [ParameterChange] = []
    /// Values set while running, for the next call's first frame: at most one per parameter.
    private var settled: [ParameterIndex: Double] = [:]

    /// Takes `text`, an automation file's lines (`TIME ID VALUE [ramp DURATION]`, read as
    /// `render --automation` reads them), for the next `process` call: each change at its
    /// frame from that call's start, gliding as the file says — so that a whole signal with
    /// it equals `detent render --automation` of the same file. A change past that call's end
    /// waits for the calls after it.
    ///
    /// - Throws: ``CallFailure`` naming the line that cannot be read, or when more changes
    ///   fall on one frame than the engine's queue holds.
    func automate(_ text: String) throws {
        let read: [ParameterChange]
        do {
            read = try AutomationParser.parse(text, path: "automation", table: table)
                .changes(sampleRate: Int(sampleRate.rounded()), input: "the signal")
        } catch {
            throw CallFailure(.badValue, error.description)
        }
        // The queue takes every change at one frame, and the values set meanwhile (one per
        // parameter) with them.
        let most = EventFeed(changes: automation + read).mostChangesAtOneFrame
        let room = Self.queueCapacity - 1 - table.count
        guard most <= room else {
            throw CallFailure(.badValue, "automation: \(most) changes at one frame; at most \(room)")
        }
        automation += read
    }

    /// The engine's queue: it holds more than any one frame's automation (``automate(_:)``).
    static let queueCapacity = 1_024

    /// MIDI messages given that could not be played (more than a call takes at one frame, or
    /// more than a plug-in's list holds), since the chain was made: counted as a render counts them.
    var droppedMIDI: Int { feed.droppedNotes }

    /// Throws when an isolated plug-in crashed, aborted or hung in the last call (its slot
    /// passed its input through from then on): the chain starts afresh at the next call, in
    /// new processes.
    private func checkFaults(_ engine: Engine) throws {
        guard isolation != nil, let faults = engine.kernelReports?.faults, !faults.isEmpty else { return }
        dropEngine()
        let said = faults.map { ($0.slot.isEmpty ? found.name : $0.slot) + ": " + $0.reason }
        throw CallFailure(.pluginCrashed, said.joined(separator: "; "))
    }

    /// Where a key named `name` goes: a keyed slot's side chain, or a graph's named input;
    /// with no name, the one there is.
    private func target(_ name: String) throws -> Engine.SideInput {
        let silent = UnsafePointer(inputs)
        let names = found.keyNames
        let chosen = name.isEmpty && names.count == 1 ? names[0] : name
        if let k = found.namedInputs.firstIndex(where: { $0.lowercased() == chosen.lowercased() }) {
            return Engine.SideInput(slot: -1, channels: silent, stride: 1, namedInput: k + 1)
        }
        let parts = found.chainParts
        if let s = found.keyedSlots.first(where: { parts[$0].name.lowercased() == chosen.lowercased() }) {
            return Engine.SideInput(slot: s, channels: silent, stride: 1)
        }
        let label = name.isEmpty ? "sidechain" : "key '\(name)'"
        throw CallFailure(.badValue, label + ": " + (names.isEmpty ? "\(found.name) has no side-chain input or named input"
            : name.isEmpty ? "there are several (\(names.joined(separator: ", "))); give a dict of name: signal"
            : "no keyed slot or named input of that name (there are: \(names.joined(separator: ", ")))"))
    }

    /// The engine's largest block for a call of `frames` frames that is a whole signal (nil:
    /// a part of a stream, or not known): a grid block, or for a signal shorter than that the
    /// power of two that holds it. Most of an engine's start is clearing its buffers, and a
    /// short signal's call is mostly its start: 480 frames through a light plug-in cost
    /// several times more with grid-sized buffers. The output does not depend on it (pieces
    /// are still cut on the grid). An isolated chain keeps the grid: its slots are made
    /// anew in place, at the size they were made.
    private func blockFrames(forSignal frames: Int?) -> Int {
        guard let frames, isolation == nil else { return Self.grid }
        var block = Self.smallestBlock
        while block < min(frames, Self.grid) { block *= 2 }
        return block
    }

    /// The engine, made and prepared at the chain's values when there is none (first use,
    /// after a file or a preset's state was chosen, in a child made by `fork`), or when the
    /// one there is has not started and its blocks are too short for a whole signal of
    /// `signal` frames and the latency's after them (``blockFrames(forSignal:)``).
    private func preparedEngine(signal: Int? = nil) throws -> Engine {
        if let engine, engineProcess == ThisProcess.id,
           running || engine.maxFrames >= blockFrames(forSignal: signal.map { $0 + latency }) {
            return engine
        }
        let engine = try madeEngine(maxFrames: blockFrames(forSignal: signal))
        // The latency is known once a plug-in is made: a short signal's last piece holds it too.
        if let signal, engine.maxFrames < blockFrames(forSignal: signal + latency) {
            return try madeEngine(maxFrames: blockFrames(forSignal: signal + latency))
        }
        return engine
    }

    /// A new engine at the chain's values, for blocks of up to `maxFrames` frames.
    private func madeEngine(maxFrames: Int) throws -> Engine {
        dropEngine()
        var chosen = found.settingState(state)
        do { chosen = try chosen.settingFiles(files) } catch { throw CallFailure(.badValue, error.description) }
        let engine = Engine(processor: isolation.map { chosen.isolated($0) } ?? chosen, initialValues: values,
                            queueCapacity: Self.queueCapacity)
        // Nothing here reads the output's meters (a call's report reads the counters alone).
        engine.metersOutput = false
        // The last engine's isolated slots, made anew in place for this one where they can be.
        if let retired, let isolation, engineProcess == ThisProcess.id { isolation.sandboxes.offer(retired.slotOwners) }
        defer { isolation?.sandboxes.withdrawOffers() }
        do {
            try engine.prepare(sampleRate: sampleRate, maxFrames: maxFrames, channels: channels)
        } catch let error as SlotError where error.fault {
            // An isolated plug-in that crashed, aborted or hung while its process made it is
            // the same fault as one in a run: the caller catches one kind of error for both.
            throw CallFailure(.pluginCrashed, "\(found.name): \(error)")
        } catch {
            throw CallFailure(.failed, "\(found.name): \(error)")
        }
        processor = chosen
        // The retired engine goes now that its processes serve this one (kept forever when a
        // parent process made it, as `dropEngine` keeps such an engine).
        if let retired, engineProcess != ThisProcess.id { _ = Unmanaged.passRetained(retired) }
        retired = nil
        latency = engine.latencyAtCurrentValues()
        toDrop = latency
        self.engine = engine
        engineProcess = ThisProcess.id
        return engine
    }

    /// Lets the engine go (kept forever when a parent process made it); the next block makes one.
    /// An isolated chain's is kept until then: its slots, still served, become the next
    /// engine's (each plug-in made anew in place, ``SandboxRegistry/offer(_:)``), so a whole
    /// signal pays for neither starting processes nor setting up slots.
    private func dropEngine() {
        if let engine, engineProcess != ThisProcess.id {
            _ = Unmanaged.passRetained(engine)
        } else if isolation != nil {
            retired = engine ?? retired
        }
        engine = nil
        feed.dropPending()
        settled = [:]  // the next engine starts at `values`, which hold them
        running = false
        restarts = false
    }

    /// The frames a ``process`` call of `frames` frames writes (`final`: with the latency
    /// rendered out), so that the caller makes room for exactly those.
    func outputFrames(_ frames: Int, final: Bool) throws -> Int {
        _ = try preparedEngine(signal: final ? frames : nil)
        let total = frames + (final ? latency : 0)
        return total - min(toDrop, total)
    }

    /// The latency a whole signal is compensated by, once the engine is made.
    func latencyFrames() throws -> Int {
        _ = try preparedEngine()
        return latency
    }
}
