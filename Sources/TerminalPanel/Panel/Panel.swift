import Control
import Parameters
import AudioEngine
import KnobKit
import Presets

/// The knob panel's state and behaviour, with no terminal attached: knobs, focus, prompts,
/// overlays, undo, the preset being edited.
///
/// Events come in with the time they happened (any monotonic clock in seconds); every gesture,
/// taper, snap, double-click and label timing is KnobKit's — the panel only routes keys and
/// pointer positions to the right knob and sends what the knob reports to the host. Drawing is
/// ``PanelRenderer``'s job; the terminal loop is ``PanelApp``'s. Tests drive a panel with
/// events and times and read its state or render it, with no terminal and no sleeping.
///
/// ```swift
/// let panel = Panel(values: ParameterValues(), host: NoAudioHost(), store: store, width: 80, height: 24)
/// panel.handle(.key(.up, []), at: 0.0)        // Cutoff one step up
/// let (screen, _) = PanelRenderer.render(panel, at: 0.0)
/// ```
public final class Panel {
    /// What has the keyboard.
    public enum Mode: Sendable, Hashable {
        case normal
        case help
        case browser(PresetBrowser)
        /// Typing a value for the focused knob.
        case valueEntry(TextField)
        /// Typing the name to save the preset under.
        case saveName(TextField)
        /// Asking whether to replace the existing user preset of this name.
        case confirmReplace(String)
        /// Waiting for a MIDI controller to move, to map it to the focused knob; `heard` is
        /// the host's count of control changes when learning began.
        case midiLearn(MIDILearn)
        /// Searching the knobs by id or name (`/`), from knob `origin`.
        case search(TextField, origin: Int)
        /// Typing the plug-in to add to the chain at `position` (`A`).
        case chainAdd(TextField, position: Int)
        /// Asking whether to take slot `name` out of the chain (`X`).
        case confirmRemove(String)
        /// Typing the path for file parameter `file` (an index into ``files``; `f`), with the
        /// names Tab left to choose from.
        case fileEntry(TextField, file: Int, candidates: [String])
    }

    /// A line for the status bar.
    public struct Message: Sendable, Hashable {
        public var text: String
        public var isError: Bool
    }

    public let host: any PanelHost
    public internal(set) var store: PresetStore
    /// The header's name: `Detent` for the built-in processor, a plug-in's own name.
    public internal(set) var title: String
    /// Draw with ASCII only.
    public let ascii: Bool
    /// The parameters, in table order: one knob each.
    public internal(set) var ids: [ParameterIndex]
    /// The parameters the knobs turn.
    public internal(set) var table: ParameterTable
    /// A chain's slots, as sections of the knobs (none for a single processor).
    public internal(set) var sections: [PanelSection]
    /// The host's chain generation the knobs were made for (``PanelHost/chainGeneration``).
    var chainGeneration = 0
    public internal(set) var knobs: [Knob]
    public internal(set) var focus = 0
    /// The first knob shown when not every knob fits: kept from frame to frame so a compact
    /// list scrolls no further than it must to show the focused knob (``PanelLayout``).
    var firstShown = 0
    public internal(set) var mode: Mode = .normal
    /// The status line's message: it lasts until the next event replaces it, or for
    /// ``messageDuration`` seconds, so the key hints come back and an old error never sits
    /// beside a value accepted since.
    public internal(set) var message: Message? {
        didSet { messageTime = now }
    }
    /// When ``message`` was set.
    var messageTime: Double = 0
    /// The message was set after a host call that may have taken seconds (a chain edit's
    /// first search reads every installed plug-in's description): its time starts at the
    /// next frame, not at the key that asked, or it could expire before it is ever drawn.
    var messageTimedFromNextFrame = false
    /// How long a message stays on the status line when nothing else happens.
    public static let messageDuration = 5.0
    /// The time of the event or frame being handled: what a message set now is stamped with.
    var now: Double = 0
    /// The preset being edited: its name (nil until saved or loaded), author, comment and MIDI
    /// mappings are kept; its values are the last saved or loaded ones, against which
    /// ``isModified`` compares the knobs.
    public internal(set) var preset: Preset
    public internal(set) var presetName: String?
    /// Where the preset being edited came from, when known.
    public internal(set) var presetOrigin: PresetOrigin?
    public internal(set) var history = UndoHistory()
    public internal(set) var width: Int
    public internal(set) var height: Int
    public internal(set) var dragStyle: KnobDragStyle = .vertical
    /// The unit mouse reports arrive in: pixels once the terminal agreed to SGR-pixel reports.
    public var pointerUnit: PointerUnit = .cells
    /// One cell's size in pixels, when the terminal told.
    public var cellPixels: (width: Int, height: Int)?

    /// Set by `q` and Ctrl-C; the loop then restores the terminal and returns.
    public internal(set) var quitRequested = false
    /// Set by Ctrl-Z; the loop suspends and clears it.
    public var suspendRequested = false
    /// Set by Ctrl-L; the loop redraws the whole screen and clears it.
    public var repaintRequested = false

    /// Something changed since the last frame.
    public internal(set) var needsDraw = true
    /// What the last frame showed of each knob's label and glide, to notice when time alone
    /// changes the picture.
    var drawnLabels: [Bool] = []
    var drawnAnimating: [Bool] = []
    /// When the host was last polled.
    var lastRefresh: Double = -.infinity
    var lastHostValues: [ParameterIndex: Double]?
    /// The pickup controllers last seen waiting, by parameter (see ``showPickups(_:)``).
    var lastPickups: [ParameterIndex: Double] = [:]
    var lastStatus = PanelStatus()
    var lastMeters: [MeterReading]?
    var lastOutputs: [PanelOutput] = []
    var lastFiles: [PanelFile] = []

    /// The knob last turned with the fine modifier: while its label shows the value, the
    /// value has ``preciseDigits`` more decimals, so a fine step is seen.
    public internal(set) var preciseKnob: Int?
    /// Decimals added to a finely turned value and to the value prompt's starting text.
    public static let preciseDigits = 2
    /// A drag at this speed or slower (a fine step's, a tenth) counts as turning finely.
    static let preciseDragSpeed = 0.1

    /// Each knob's smallest displayed step (normalised), once measured (``displayGap(_:)``).
    var displayGaps: [Int: Double] = [:]

    /// The text the value prompt started with: submitted unchanged, it changes nothing.
    var offeredValue: String?

    /// The level each muted knob had before `M` silenced it.
    var mutedLevels: [ParameterIndex: Double] = [:]

    /// The knob a mouse button went down on, and its value then (for undo).
    var capture: (index: Int, start: Double)?

    /// A panel over `values` (every parameter), whose resets go to `defaults`.
    ///
    /// - Parameters:
    ///   - preset: the preset being edited, when one was loaded (its name shows in the header).
    ///   - origin: where that preset came from: saving keeps its author and comment only when
    ///     it replaces the user's own preset of the same name.
    ///   - title: the processor's name for the header (a plug-in's name).
    public init(
        values: ParameterValues, defaults: ParameterValues? = nil, preset: Preset? = nil, origin: PresetOrigin? = nil,
        host: any PanelHost, store: PresetStore, title: String = "Detent", ascii: Bool = false, width: Int = 80, height: Int = 24
    ) {
        self.host = host
        self.store = store
        self.title = title
        self.ascii = ascii
        self.width = width
        self.height = height
        table = values.table
        ids = table.ids
        sections = PanelSection.of(table)
        let defaults = defaults ?? ParameterValues(table: table)
        knobs = ids.map { id in
            var knob = Knob(values.table[id], value: values[id], appearance: Self.appearance(for: values.table[id]))
            knob.defaultValue = defaults[id]
            return knob
        }
        if !knobs.isEmpty { knobs[0].isFocused = true }
        self.preset = preset ?? Preset(name: "", values: values, processor: store.scope.processor)
        self.preset.values = values
        presetName = preset?.name
        presetOrigin = origin
        chainGeneration = host.chainGeneration
        lastFiles = host.files()
    }

    /// How every knob looks: five ticks (ends, quarters, middle), and a progress arc from the
    /// default for levels (a level is bipolar around unity gain), from the start otherwise.
    static func appearance(for spec: ParameterSpec) -> KnobAppearance {
        var appearance = KnobAppearance()
        appearance.progressOrigin = spec.unit == .decibels ? .defaultValue : .start
        appearance.tickCount = 5
        appearance.tickLength = 0.25
        appearance.indicatorLength = 0.6
        return appearance
    }

    /// The layout for the current size, showing the focused knob.
    public var layout: PanelLayout {
        PanelLayout(width: width, height: height, knobCount: knobs.count,
                    nameWidth: knobs.map { DisplayWidth.of($0.scale.name) }.max() ?? 0, meterCount: lastMeters?.count ?? 0,
                    outputCount: outputs.count, plot: showsResponse, focus: focus, first: firstShown)
    }

    /// The response curve is the built-in lowpass's: other processors have none, and their
    /// knobs take its room.
    public var showsResponse: Bool {
        store.scope.processor == LowpassGain.identifier && table == LowpassGain.table
    }

    /// The knob turning parameter `id`.
    public func knob(_ id: ParameterIndex) -> Knob { knobs[ids.firstIndex(of: id)!] }

    /// The current values, as a preset stores them.
    public var values: ParameterValues {
        ParameterValues(table: table, Dictionary(uniqueKeysWithValues: zip(ids, knobs.map(\.value))))
    }

    /// The knobs differ from the preset as last loaded or saved, at the precision values are
    /// kept at (``KnobPrecision``): a difference no preset file could hold is no edit.
    public var isModified: Bool {
        zip(ids, knobs).contains { id, knob in KnobPrecision.kept(knob.value) != KnobPrecision.kept(preset.values[id]) }
    }

    /// The message to show at `time`, if it has not expired.
    public func shownMessage(at time: Double) -> Message? {
        guard let message, time < messageTime + Self.messageDuration else { return nil }
        return message
    }

    /// The host's latest status, meters and outputs (polled every ``PanelHost/refreshInterval``).
    public var status: PanelStatus { lastStatus }
    public var meters: [MeterReading]? { lastMeters }
    /// The processor's outputs, then its file parameters, each shown by its file's name.
    public var outputs: [PanelOutput] {
        lastOutputs + lastFiles.map {
            PanelOutput(id: $0.id, label: PresetName.printable($0.label), value: .nan, text: PresetName.printable($0.shownName))
        }
    }
    /// The processor's file parameters, as last read from the host.
    public var files: [PanelFile] { lastFiles }

    // MARK: - Events

    /// Handles one input event that happened at `time`.
    public func handle(_ event: InputEvent, at time: Double) {
        now = time
        if case .modeReport = event { return }
        if case .cellSize = event { return }
        // The next event replaces the message (it may set a new one).
        if message != nil { message = nil }
        // The "too small" notice shows no knobs: nothing may change one unseen.
        if layout.style == .tooSmall {
            if case .key(let key, let modifiers) = event { tooSmallKey(key, modifiers, at: time) }
            needsDraw = true
            return
        }
        switch event {
        case .key(let key, let modifiers):
            handleKey(key, modifiers, at: time)
        case .mouse(let mouse):
            handleMouse(mouse, at: time)
        case .paste(let text):
            handlePaste(text)
        case .modeReport, .cellSize:
            return  // the terminal loop's business
        }
        keepFocusShown()
        needsDraw = true
    }

    /// The terminal changed size: a drag in progress ends where it is.
    public func resize(width: Int, height: Int, at time: Double) {
        now = time
        guard width != self.width || height != self.height else { return }
        endCapture(at: time)
        self.width = width
        self.height = height
        keepFocusShown()
        needsDraw = true
    }

    /// Pasted text goes into an open prompt as if typed; anywhere else it is refused, since
    /// keys there are commands (a pasted `q` must not quit).
    func handlePaste(_ text: String) {
        switch mode {
        case .valueEntry(var field):
            field.insert(pasted: text)
            mode = .valueEntry(field)
        case .saveName(var field):
            field.insert(pasted: text)
            mode = .saveName(field)
        case .chainAdd(var field, let position):
            field.insert(pasted: text)
            mode = .chainAdd(field, position: position)
        case .fileEntry(var field, let file, _):
            field.insert(pasted: text)
            mode = .fileEntry(field, file: file, candidates: [])
        case .normal:
            message = Message(text: "paste ignored: press = to type a value, then paste", isError: true)
        default:
            break
        }
    }

    // MARK: - Turning knobs

    /// Applies `change` to knob `index`, sends what it reports, and records the move for undo.
    func turn(_ index: Int, burst: Bool = false, at time: Double, _ change: (inout Knob) -> Double?) {
        let before = knobs[index].value
        if let value = change(&knobs[index]) { host.set([ids[index]: value]) }
        history.record([UndoHistory.Change(id: ids[index], before: before, after: knobs[index].value)],
                       burst: burst ? UndoHistory.Burst(ids[index]) : nil, at: time)
    }

    /// Sets knobs from code (undo, redo, preset load): the needles glide, the host gets the
    /// new values. Returns the moves made.
    @discardableResult
    func setValues(_ targets: [(ParameterIndex, Double)], at time: Double) -> [UndoHistory.Change] {
        var changes: [UndoHistory.Change] = []
        for (id, target) in targets {
            guard let i = ids.firstIndex(of: id) else { continue }
            let before = knobs[i].value
            if let value = knobs[i].setValue(target, animated: true, at: time) {
                host.set([id: value])
                changes.append(UndoHistory.Change(id: id, before: before, after: value))
            }
        }
        return changes
    }

    func setFocus(_ index: Int) {
        guard index != focus, knobs.indices.contains(index) else { return }
        preciseKnob = nil
        knobs[focus].isFocused = false
        focus = index
        knobs[focus].isFocused = true
        keepFocusShown()
    }

    func undo(at time: Double) {
        guard let step = history.undo() else {
            message = Message(text: "nothing to undo", isError: false)
            return
        }
        setValues(step.changes.reversed().map { ($0.id, $0.before) }, at: time)
        message = Message(text: "undo: " + describe(step), isError: false)
    }

    func redo(at time: Double) {
        guard let step = history.redo() else {
            message = Message(text: "nothing to redo", isError: false)
            return
        }
        setValues(step.changes.map { ($0.id, $0.after) }, at: time)
        message = Message(text: "redo: " + describe(step), isError: false)
    }

    /// `Cutoff 1.00 kHz` or, for a step moving several knobs, their names.
    private func describe(_ step: UndoHistory.Step) -> String {
        step.changes.map { change in
            let knob = knob(change.id)
            return knob.scale.name + " " + knob.valueText(ascii: ascii)
        }.joined(separator: ", ")
    }

    func resetAll(at time: Double) {
        var changes: [UndoHistory.Change] = []
        for i in knobs.indices {
            let before = knobs[i].value
            if let value = knobs[i].resetToDefault(at: time) {
                host.set([ids[i]: value])
                changes.append(UndoHistory.Change(id: ids[i], before: before, after: value))
            }
        }
        history.record(changes, at: time)
    }

    func toggleDragStyle() {
        dragStyle = dragStyle == .vertical ? .circular : .vertical
        for i in knobs.indices { knobs[i].behavior.dragStyle = dragStyle }
        message = Message(
            text: dragStyle == .circular ? "circular drag: turn around the knob (c: back to vertical)"
                : "vertical drag: up and down, sideways for finer steps (c: circular)",
            isError: false)
    }

    // MARK: - Time

    /// When the picture will change by itself next (a glide's next frame, a label going back
    /// to the name, the host's next poll); nil when nothing will change until an event.
    public func nextChange(after time: Double) -> Double? {
        var next: Double?
        func consider(_ t: Double?) {
            if let t, t.isFinite { next = min(next ?? t, t) }
        }
        for knob in knobs {
            if knob.isAnimating(at: time) { consider(time) }
            consider(knob.nameReturnTime(after: time))
        }
        if message != nil { consider(max(messageTime + Self.messageDuration, time)) }
        if let interval = host.refreshInterval, interval > 0 { consider(lastRefresh + interval) }
        return next
    }

    /// Brings time-driven state up to `time`: polls the host when due, and notes whether the
    /// picture changed since the last frame (a glide moved, a label timed out).
    public func advance(to time: Double) {
        now = time
        if messageTimedFromNextFrame {
            messageTimedFromNextFrame = false
            messageTime = max(messageTime, time)
        }
        if message != nil, time >= messageTime + Self.messageDuration {
            message = nil
            needsDraw = true
        }
        if let interval = host.refreshInterval, interval > 0, time >= lastRefresh + interval {
            refreshHost(at: time)
        }
        for (i, knob) in knobs.enumerated() {
            let animating = knob.isAnimating(at: time)
            if animating || (drawnAnimating.indices.contains(i) && drawnAnimating[i]) { needsDraw = true }
            if !drawnLabels.indices.contains(i) || drawnLabels[i] != knob.showsValue(at: time) { needsDraw = true }
        }
    }

    /// The terminal was given back and taken again: the next frame draws everything.
    public func needsDrawAfterResume() {
        needsDraw = true
    }

    /// Records what a frame drawn at `time` showed.
    public func didDraw(at time: Double) {
        drawnLabels = knobs.map { $0.showsValue(at: time) }
        drawnAnimating = knobs.map { $0.isAnimating(at: time) }
        needsDraw = false
    }

    /// Reads the host's values, status and meters; values changed by others move the knobs.
    func refreshHost(at time: Double) {
        lastRefresh = time
        let status = host.status()
        // The host's own lines (a slot down, the server lost): the latest in the message line.
        if let notice = host.takeNotices().last {
            let text = notice.hasPrefix("detent: ") ? String(notice.dropFirst("detent: ".count)) : notice
            // Good news is `SLOT restarted` or `SLOT plays again`; the rest is trouble.
            let good = text.split(separator: " ").count <= 3 && (text.hasSuffix(" restarted") || text.hasSuffix(" plays again"))
            message = Message(text: PresetName.printable(text), isError: !good)
            needsDraw = true
        }
        let meters = host.meters()
        let outputs = host.outputs()
        let files = host.files()
        if status != lastStatus || meters != lastMeters || outputs != lastOutputs || files != lastFiles { needsDraw = true }
        lastStatus = status
        lastMeters = meters
        lastOutputs = outputs
        lastFiles = files
        // Another front end (a typed command, OSC) edited the chain: knobs for the new one.
        if host.chainGeneration != chainGeneration, let chain = host.currentChain() { retable(to: chain) }
        keepFocusShown()
        learnMIDIIfHeard()
        showPickups(host.midiPickups())
        let values = host.targets()
        for (i, id) in ids.enumerated() {
            guard let value = values[id], value != lastHostValues?[id], value != knobs[i].value,
                  !knobs[i].isTurning
            else { continue }
            knobs[i].setValue(value, animated: true, at: time)
            needsDraw = true
        }
        lastHostValues = values
    }
}
