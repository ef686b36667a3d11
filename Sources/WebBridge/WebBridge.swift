import TextFormats
import AudioEngine
import Control
import Parameters
import Platform
import Synchronization

/// The lines between `detent` and `detent-web`, its browser panel's server: JSON objects, one
/// a line, over a socket pair. `detent-web` asks and `detent` answers, one question at a time,
/// so the host's verbs run in `detent` exactly as they did in process (never on the audio
/// thread), and `detent` itself links no network code.
///
/// | from `detent-web` | the answer |
/// |---|---|
/// | `{"op":"snapshot","have":G}` | `{"generation":G2,"targets":[[row,value]…],"texts":[[row,text]…],"files":[…]}`, with `"layout"` when G2 is not G (a file is chosen without a new generation); `texts`: the plug-in's own text of each target whose row shows it |
/// | `{"op":"read","row":R,"text":T}` | `{"value":V}`, or `{"problem":…}`: a value typed for a row whose plug-in reads its own words (``Parameters/ParameterTexts``) |
/// | `{"op":"set","generation":G,"values":[[row,value]…]}` | `{"ok":true}` or `false` |
/// | `{"op":"reset","generation":G,"row":R}` | `{"ok":…}` |
/// | `{"op":"outputs"}` | `{"outputs":[[id,value]…]}` (`null` for a value that is not finite) |
/// | `{"op":"preset","name":N,"save":B}` | `{"problem":…}` (`null` when done) |
/// | `{"op":"presets"}` | `{"presets":[N…]}`: the names the page may offer |
/// | `{"op":"learn","generation":G,"row":R}` (`null`: stop) | `{"problem":…}` (`null` when begun) |
/// | `{"op":"learnt"}` | `{"learnt":{"id":…,"controller":…}}`, or `null` while nothing is learnt |
/// | `{"op":"chain","edit":E}` (E: ``ChainRequest/json``) | `{"answer":…}` (the typed command's line) or `{"problem":…}` |
/// | `{"op":"file","id":ID,"path":P}` | `{"answer":…}` (the path loaded) or `{"problem":…}` |
/// | `{"op":"catalogue"}` | `{"plugins":[[name,identifier,format,category,maker,inputs,outputs,instrument]…]}` |
/// | `{"op":"ready","url":U}`, `{"op":"failed","message":M}`, `{"op":"log","line":L}` | none |
///
/// `detent` first sends the settings, `{"port":…,"bind":…,"token":…,"title":…,"oscPort":…,"oscAddress":…}`.
package enum WebBridge {
    /// The program's name, looked for beside `detent` and then on `PATH`.
    package static let program = "detent-web"
    /// The descriptor `detent-web` holds its end of the socket pair as.
    package static let descriptor: Int32 = 3
    /// The descriptor `detent-web` holds the reading end of the change pipe as: `detent`
    /// writes a byte there when its change feed publishes (values, chain, mappings, a
    /// controller heard), and the browser panel's feedback sleeps on it.
    package static let changesDescriptor: Int32 = 4

    /// What `detent-web` is started with.
    package struct Start: Sendable, Equatable {
        package var settings: WebSettings
        package var title: String
        package var oscPort: Int?
        package var oscAddress: String?

        package init(settings: WebSettings, title: String, oscPort: Int?, oscAddress: String?) {
            self.settings = settings
            self.title = title
            self.oscPort = oscPort
            self.oscAddress = oscAddress
        }

        package var line: String {
            JSONValue.object([
                .init("port", .number(settings.port)), .init("bind", .string(settings.bind)),
                .init("token", settings.token.map { .string($0) } ?? .null), .init("title", .string(title)),
                .init("oscPort", oscPort.map { .number($0) } ?? .null),
                .init("oscAddress", oscAddress.map { .string($0) } ?? .null),
            ]).compactText
        }

        package init?(line: [UInt8]) {
            guard let json = try? JSONParser.parse(line), let port = json.member("port")?.intValue,
                  case .string(let bind)? = json.member("bind"), case .string(let title)? = json.member("title") else { return nil }
            self.init(settings: WebSettings(port: port, bind: bind, token: json.member("token")?.stringValue),
                      title: title, oscPort: json.member("oscPort")?.intValue, oscAddress: json.member("oscAddress")?.stringValue)
        }
    }

    // MARK: detent's side

    /// What `detent-web` told, besides a question.
    package enum Notice: Equatable, Sendable {
        case ready(url: String)
        case failed(String)
        case log(String)
    }

    /// What to do with a line from `detent-web`.
    package enum Handled: Equatable, Sendable {
        /// Send this answer back.
        case answer(String)
        case notice(Notice)
    }

    /// Reads one line from `detent-web`: a notice, or a question answered from `host` (the
    /// answer line to send back). Nil for a line that is neither (nothing is sent).
    package static func handle(_ line: [UInt8], host: any WebPanelHost) -> Handled? {
        guard let json = try? JSONParser.parse(line), case .string(let op)? = json.member("op") else { return nil }
        switch op {
        case "ready": return json.member("url")?.stringValue.map { .notice(.ready(url: $0)) }
        case "failed": return .notice(.failed(json.member("message")?.stringValue ?? "the web panel did not start"))
        case "log": return json.member("line")?.stringValue.map { .notice(.log($0)) }
        case "snapshot":
            let now = host.webSnapshot()
            var members: [JSONMember] = [
                .init("generation", .number(now.generation)),
                .init("targets", .array(now.targets.sorted { $0.key < $1.key }.map { .array([.number($0.key.rawValue), .number($0.value)]) })),
            ]
            // The plug-in's own text of each target whose row shows it: only `detent` can ask.
            let table = now.layout.table
            members.append(.init("texts", .array(now.targets.sorted { $0.key < $1.key }.compactMap { row, value in
                guard row.rawValue < table.count, table[row].ownTexts?.texts.showsOwnText == true else { return nil }
                return .array([.number(row.rawValue), .string(table[row].format(value))])
            })))
            if json.member("have")?.intValue != now.generation { members.append(.init("layout", encode(now.layout))) }
            members.append(.init("files", encode(now.layout.files)))
            if let title = now.title { members.append(.init("title", .string(title))) }
            return .answer(JSONValue.object(members).compactText)
        case "set":
            // Rows of the chain as it is (a row past its end is dropped here, not indexed).
            let rows = host.webSnapshot().layout.table.count
            guard let generation = json.member("generation")?.intValue, let values = rowValues(json.member("values")),
                  values.keys.allSatisfy({ $0.rawValue < rows }) else { return nil }
            return .answer(ok(host.set(values, ifGeneration: generation)))
        case "reset":
            guard let generation = json.member("generation")?.intValue, let row = json.member("row")?.intValue,
                  (0..<host.webSnapshot().layout.table.count).contains(row) else { return nil }
            return .answer(ok(host.reset(ParameterIndex(row), ifGeneration: generation)))
        case "read":
            let table = host.webSnapshot().layout.table
            guard let row = json.member("row")?.intValue, (0..<table.count).contains(row),
                  let typed = json.member("text")?.stringValue else { return nil }
            do {
                return .answer(JSONValue.object([.init("value", .number(try table[ParameterIndex(row)].parse(typed)))]).compactText)
            } catch {
                return .answer(JSONValue.object([.init("problem", .string(error.description))]).compactText)
            }
        case "outputs":
            return .answer(JSONValue.object([.init("outputs", .array(host.outputValues().map {
                .array([.string($0.id), .number($0.value)])
            }))]).compactText)
        case "learn":
            guard let generation = json.member("generation")?.intValue else { return nil }
            var row: ParameterIndex?
            if let r = json.member("row")?.intValue {
                guard (0..<host.webSnapshot().layout.table.count).contains(r) else { return nil }
                row = ParameterIndex(r)
            }
            return .answer(JSONValue.object([.init("problem", host.learn(row, ifGeneration: generation).map { .string($0) } ?? .null)]).compactText)
        case "learnt":
            let learnt = host.takeLearnt().map { JSONValue.object([.init("id", .string($0.id)), .init("controller", .number($0.controller))]) }
            return .answer(JSONValue.object([.init("learnt", learnt ?? .null)]).compactText)
        case "presets":
            return .answer(JSONValue.object([.init("presets", .array(host.presetNames().map { .string($0) }))]).compactText)
        case "faults":
            return .answer(JSONValue.object([.init("faults", .object(host.faults().sorted { $0.key < $1.key }.map {
                JSONMember($0.key, .string($0.value))
            }))]).compactText)
        case "restart":
            guard let slot = json.member("slot")?.stringValue else { return nil }
            return .answer(JSONValue.object([.init("problem", host.restart(slot).map { .string($0) } ?? .null)]).compactText)
        case "chain":
            guard let edit = json.member("edit"), case .success(let request) = ChainRequest.read(edit) else { return nil }
            return .answer(reply(host.editRig(request)))
        case "file":
            guard let id = json.member("id")?.stringValue, let path = json.member("path")?.stringValue else { return nil }
            return .answer(reply(host.setFile(id, path: path)))
        case "catalogue":
            return .answer(JSONValue.object([.init("plugins", .array(host.catalogue().map { entry in
                .array([.string(entry.name), .string(entry.identifier), .string(entry.format), .string(entry.category),
                        .string(entry.maker), .number(entry.inputs), .number(entry.outputs), .bool(entry.isInstrument)])
            }))]).compactText)
        case "preset":
            guard let name = json.member("name")?.stringValue, case .bool(let save)? = json.member("save") else { return nil }
            return .answer(JSONValue.object([.init("problem", host.preset(name, save: save).map { .string($0) } ?? .null)]).compactText)
        default:
            return nil
        }
    }

    private static func ok(_ done: Bool) -> String { JSONValue.object([.init("ok", .bool(done))]).compactText }

    private static func reply(_ result: Result<String, ChainEditError>) -> String {
        switch result {
        case .success(let answer): JSONValue.object([.init("answer", .string(answer))]).compactText
        case .failure(let problem): JSONValue.object([.init("problem", .string(problem.description))]).compactText
        }
    }

    /// What a `chain` or `file` answer says: the answer line, or the problem.
    static func readReply(_ answer: JSONValue) -> Result<String, ChainEditError> {
        if let text = answer.member("answer")?.stringValue { return .success(text) }
        return .failure(ChainEditError(answer.member("problem")?.stringValue ?? "no answer from detent"))
    }

    static func rowValues(_ json: JSONValue?) -> [ParameterIndex: Double]? {
        guard case .array(let pairs)? = json else { return nil }
        var values: [ParameterIndex: Double] = [:]
        for pair in pairs {
            guard case .array(let two) = pair, two.count == 2, let row = two[0].intValue, row >= 0,
                  let value = two[1].doubleValue else { return nil }
            values[ParameterIndex(row)] = value
        }
        return values
    }

    // MARK: the layout as JSON

    /// The layout: each row as `detent params --json` writes it (with `glidesInAmplitude`),
    /// the sections and the outputs.
    package static func encode(_ layout: WebLayout) -> JSONValue {
        .object([
            .init("table", .array(layout.table.specs.map { spec in
                guard case .object(var members) = ParameterTableText.json(spec) else { return .null }
                members.append(.init("glidesInAmplitude", .bool(spec.glidesInAmplitude)))
                if let texts = spec.ownTexts?.texts { members.append(.init("ownTexts", .bool(texts.showsOwnText))) }
                return .object(members)
            })),
            .init("sections", .array(layout.sections.map { section in
                .object([.init("name", .string(section.name)), .init("plugin", .string(section.plugin)),
                         .init("bypass", .number(section.bypass.rawValue)),
                         .init("rows", .array(section.rows.map { .number($0.rawValue) }))])
            })),
            .init("outputs", .array(layout.outputs.map { output in
                .object([.init("id", .string(output.id)), .init("name", .string(output.name)), .init("unit", .string(output.unit)),
                         .init("min", output.range.map { .number($0.lowerBound) } ?? .null),
                         .init("max", output.range.map { .number($0.upperBound) } ?? .null)])
            })),
            .init("connections", layout.connections.map { .array($0.map { .string($0) }) } ?? .null),
            .init("files", encode(layout.files)),
        ])
    }

    /// File parameters as the page needs them: id, name and the file chosen (what the
    /// processor knows one by stays in `detent`).
    package static func encode(_ files: [FileParameter]) -> JSONValue {
        .array(files.map { file in
            .object([.init("id", .string(file.id)), .init("name", .string(file.name)), .init("path", file.path.map { .string($0) } ?? .null)])
        })
    }

    static func decodeFiles(_ json: JSONValue?) -> [FileParameter]? {
        guard case .array(let rows)? = json else { return nil }
        var files: [FileParameter] = []
        for row in rows {
            guard let id = row.member("id")?.stringValue, let name = row.member("name")?.stringValue else { return nil }
            files.append(FileParameter(id: id, name: name, identifier: "", path: row.member("path")?.stringValue))
        }
        return files
    }

    /// The layout ``encode(_:)`` wrote, or nil when `json` is not one.
    package static func decodeLayout(_ json: JSONValue) -> WebLayout? {
        guard case .array(let rows)? = json.member("table"), case .array(let sections)? = json.member("sections"),
              case .array(let outputs)? = json.member("outputs") else { return nil }
        var specs: [ParameterSpec] = []
        for row in rows {
            guard let spec = decodeSpec(row) else { return nil }
            specs.append(spec)
        }
        guard let table = try? ParameterTable(specs) else { return nil }
        var layoutSections: [WebLayout.Section] = []
        for section in sections {
            guard let name = section.member("name")?.stringValue, let plugin = section.member("plugin")?.stringValue,
                  let bypass = section.member("bypass")?.intValue, case .array(let members)? = section.member("rows") else { return nil }
            let rows = members.compactMap(\.intValue)
            guard rows.count == members.count, ([bypass] + rows).allSatisfy({ (0..<specs.count).contains($0) }) else { return nil }
            layoutSections.append(.init(name: name, plugin: plugin, bypass: ParameterIndex(bypass), rows: rows.map(ParameterIndex.init)))
        }
        var outputSpecs: [OutputSpec] = []
        for output in outputs {
            guard let id = output.member("id")?.stringValue, let name = output.member("name")?.stringValue,
                  let unit = output.member("unit")?.stringValue else { return nil }
            let low = output.member("min")?.doubleValue, high = output.member("max")?.doubleValue
            let range = low.flatMap { low in high.flatMap { low <= $0 ? low...$0 : nil } }
            outputSpecs.append(OutputSpec(id: id, name: name, unit: unit, range: range))
        }
        var connections: [String]?
        if case .array(let words)? = json.member("connections") {
            connections = words.compactMap(\.stringValue)
            guard connections?.count == words.count else { return nil }
        }
        guard let files = json.member("files") == nil ? [] : decodeFiles(json.member("files")) else { return nil }
        return WebLayout(table: table, sections: layoutSections, outputs: outputSpecs, connections: connections, files: files)
    }

    static let units: [ParameterUnit] = [.hertz, .quality, .decibels, .none, .percent, .milliseconds, .seconds, .semitones]

    /// A row as ``encode(_:)`` wrote it; nil for anything a spec would refuse.
    static func decodeSpec(_ json: JSONValue) -> ParameterSpec? {
        guard let id = json.member("id")?.stringValue, let name = json.member("name")?.stringValue,
              let symbol = json.member("unit")?.stringValue, let unit = units.first(where: { $0.symbol == symbol }),
              let low = json.member("min")?.doubleValue, let high = json.member("max")?.doubleValue, low <= high,
              let defaultValue = json.member("default")?.doubleValue, (low...high).contains(defaultValue),
              let taper = json.member("taper")?.stringValue.flatMap(Taper.init(rawValue:)),
              let smoothing = json.member("smoothing")?.stringValue.flatMap(Smoothing.init(rawValue:)),
              let kindName = json.member("kind")?.stringValue else { return nil }
        if taper == .logarithmic && low <= 0 { return nil }
        let kind: ParameterKind
        switch kindName {
        case "continuous": kind = .continuous
        case "toggle": kind = .toggle
        case "integer": kind = .integer
        case "enumeration":
            guard case .array(let points)? = json.member("values") else { return nil }
            let scale = points.compactMap { point in
                point.member("value")?.doubleValue.flatMap { value in point.member("label")?.stringValue.map { ScalePoint(value, $0) } }
            }
            guard !scale.isEmpty, scale.count == points.count else { return nil }
            kind = .enumeration(scale)
        default: return nil
        }
        let controller = json.member("midiController")?.intValue
        guard controller.map(ParameterSpec.midiControllerRange.contains) ?? true else { return nil }
        var silence = false, amplitude = false
        if case .bool(let flag)? = json.member("minimumIsSilence") { silence = flag }
        if case .bool(let flag)? = json.member("glidesInAmplitude") { amplitude = flag }
        return ParameterSpec(id: id, name: name, unit: unit, range: low...high, taper: taper, defaultValue: defaultValue,
                             smoothing: smoothing, minimumIsSilence: silence, midiController: controller, kind: kind,
                             glidesInAmplitude: amplitude)
    }
}

/// The host as `detent-web` sees it: each verb a question to `detent` over the socket pair,
/// one at a time whatever thread asks. The layout is sent again only when the chain's
/// generation moves. When `detent` is gone the program ends: it serves nothing of its own.
package final class WebBridgeClient: WebPanelHost {
    private struct State {
        let socket: LineSocket
        var layout: WebLayout?
        var generation = -1
    }

    private let state: Mutex<State>
    /// What `detent` signals when something changed, and this side's own, to end a wait.
    private let changes: WakePipe
    private let interrupt: WakePipe?

    package init(socket: LineSocket, changes: WakePipe) {
        state = Mutex(State(socket: socket))
        self.changes = changes
        interrupt = try? WakePipe()
    }

    package func awaitChange(timeout: Duration?) -> Bool {
        let ready = DescriptorIO.waitReadable([changes.readEnd] + (interrupt.map { [$0.readEnd] } ?? []), timeout: timeout)
        if ready.count > 1, ready[1] { interrupt?.drain() }
        guard ready[0] else { return false }
        // The writing end closed: `detent` is gone, and this program with it.
        if !changes.drain() { Self.parentGone() }
        return true
    }

    package func interruptChangeWait() { interrupt?.signal() }

    /// Sends a line that is not a question (``WebBridge/Notice``).
    package func notify(_ members: [JSONMember]) {
        _ = state.withLock { $0.socket.send(JSONValue.object(members).compactText) }
    }

    package func log(_ line: String) { notify([.init("op", .string("log")), .init("line", .string(line))]) }

    /// Sends `question` and waits for its answer; the program ends when `detent` has.
    private func ask(_ state: inout State, _ question: [JSONMember]) -> JSONValue {
        guard state.socket.send(JSONValue.object(question).compactText) else { Self.parentGone() }
        while true {
            switch state.socket.receive(waiting: -1) {
            case .line(let line):
                guard let answer = try? JSONParser.parse(line) else {
                    LineWriter.standardError.line("detent-web: an answer from detent that is not JSON; stopping")
                    ThisProcess.exitNow(1)
                }
                return answer
            case .end: Self.parentGone()
            case .nothing: continue
            }
        }
    }

    private static func parentGone() -> Never { ThisProcess.exitNow(0) }

    /// The value `detent` reads from `text` for `row` (its plug-in's own words), or nil.
    fileprivate func read(row: Int, text: String) -> Double? {
        state.withLock { state in
            ask(&state, [.init("op", .string("read")), .init("row", .number(row)), .init("text", .string(text))]).member("value")?.doubleValue
        }
    }

    package func webSnapshot() -> WebSnapshot {
        state.withLock { state in
            let answer = ask(&state, [.init("op", .string("snapshot")), .init("have", .number(state.generation))])
            if let layout = answer.member("layout") {
                guard let read = WebBridge.decodeLayout(layout) else {
                    LineWriter.standardError.line("detent-web: a layout from detent it cannot read; stopping")
                    ThisProcess.exitNow(1)
                }
                state.layout = read.with(table: RemoteTexts.attach(to: read.table, layout: layout, client: self))
            }
            // The files chosen come with every snapshot: choosing one moves no generation.
            if let layout = state.layout, let files = WebBridge.decodeFiles(answer.member("files")), files != layout.files {
                state.layout = layout.with(files: files)
            }
            guard let layout = state.layout, let generation = answer.member("generation")?.intValue,
                  let targets = WebBridge.rowValues(answer.member("targets")) else {
                LineWriter.standardError.line("detent-web: a snapshot from detent it cannot read; stopping")
                ThisProcess.exitNow(1)
            }
            state.generation = generation
            RemoteTexts.remember(answer.member("texts"), targets: targets, in: layout.table)
            return WebSnapshot(layout: layout, generation: generation,
                               targets: targets.filter { $0.key.rawValue < layout.table.count },
                               title: answer.member("title")?.stringValue)
        }
    }

    package func set(_ values: [ParameterIndex: Double], ifGeneration generation: Int) -> Bool {
        state.withLock { state in
            ask(&state, [.init("op", .string("set")), .init("generation", .number(generation)),
                         .init("values", .array(values.map { .array([.number($0.key.rawValue), .number($0.value)]) }))])
        }.member("ok") == .bool(true)
    }

    package func reset(_ index: ParameterIndex, ifGeneration generation: Int) -> Bool {
        state.withLock { state in
            ask(&state, [.init("op", .string("reset")), .init("generation", .number(generation)), .init("row", .number(index.rawValue))])
        }.member("ok") == .bool(true)
    }

    package func outputValues() -> [OutputValue] {
        let answer = state.withLock { ask(&$0, [.init("op", .string("outputs"))]) }
        guard case .array(let pairs)? = answer.member("outputs") else { return [] }
        return pairs.compactMap { pair in
            guard case .array(let two) = pair, two.count == 2, let id = two[0].stringValue else { return nil }
            return OutputValue(id: id, value: two[1].doubleValue ?? -.infinity)
        }
    }

    package func preset(_ name: String, save: Bool) -> String? {
        state.withLock { ask(&$0, [.init("op", .string("preset")), .init("name", .string(name)), .init("save", .bool(save))]) }
            .member("problem")?.stringValue
    }

    package func learn(_ index: ParameterIndex?, ifGeneration generation: Int) -> String? {
        state.withLock {
            ask(&$0, [.init("op", .string("learn")), .init("generation", .number(generation)),
                      .init("row", index.map { .number($0.rawValue) } ?? .null)])
        }.member("problem")?.stringValue
    }

    package func takeLearnt() -> LearntController? {
        let learnt = state.withLock { ask(&$0, [.init("op", .string("learnt"))]) }.member("learnt")
        guard let id = learnt?.member("id")?.stringValue, let controller = learnt?.member("controller")?.intValue else { return nil }
        return LearntController(id: id, controller: controller)
    }

    package func presetNames() -> [String] {
        guard case .array(let names)? = state.withLock({ ask(&$0, [.init("op", .string("presets"))]) }).member("presets") else { return [] }
        return names.compactMap(\.stringValue)
    }

    package func faults() -> [String: String] {
        guard case .object(let members)? = state.withLock({ ask(&$0, [.init("op", .string("faults"))]) }).member("faults") else { return [:] }
        return Dictionary(members.compactMap { member in member.value.stringValue.map { (member.key, $0) } }, uniquingKeysWith: { a, _ in a })
    }

    package func restart(_ slot: String) -> String? {
        state.withLock { ask(&$0, [.init("op", .string("restart")), .init("slot", .string(slot))]) }.member("problem")?.stringValue
    }

    package func editRig(_ request: ChainRequest) -> Result<String, ChainEditError> {
        WebBridge.readReply(state.withLock { ask(&$0, [.init("op", .string("chain")), .init("edit", request.json)]) })
    }

    package func setFile(_ id: String, path: String) -> Result<String, ChainEditError> {
        WebBridge.readReply(state.withLock {
            ask(&$0, [.init("op", .string("file")), .init("id", .string(id)), .init("path", .string(path))])
        })
    }

    package func catalogue() -> [CatalogueEntry] {
        guard case .array(let rows)? = state.withLock({ ask(&$0, [.init("op", .string("catalogue"))]) }).member("plugins") else { return [] }
        return rows.compactMap { row in
            guard case .array(let f) = row, f.count == 8, let name = f[0].stringValue, let identifier = f[1].stringValue,
                  let format = f[2].stringValue, let category = f[3].stringValue, let maker = f[4].stringValue,
                  let inputs = f[5].intValue, let outputs = f[6].intValue, case .bool(let instrument) = f[7] else { return nil }
            return CatalogueEntry(name: name, identifier: identifier, format: format, category: category, maker: maker,
                                  inputs: inputs, outputs: outputs, isInstrument: instrument)
        }
    }
}

extension JSONValue {
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var intValue: Int? {
        guard let value = doubleValue, value == value.rounded(), abs(value) < 1e15 else { return nil }
        return Int(value)
    }
}

/// A row's plug-in words as `detent-web` has them: the plug-in is in `detent`, which sends the
/// text of each target with its snapshot (``WebBridge``'s `texts`) and reads a typed value
/// when asked (`read`). A value not sent shows in Detent's own words.
final class RemoteTexts: ParameterTexts {
    let row: Int
    let showsOwnText: Bool
    private weak let client: WebBridgeClient?
    /// The texts `detent` sent, by value; the latest few.
    private let known = Mutex<[Double: String]>([:])

    init(row: Int, showsOwnText: Bool, client: WebBridgeClient) {
        self.row = row
        self.showsOwnText = showsOwnText
        self.client = client
    }

    func text(for value: Double) -> String? { known.withLock { $0[value] } }

    func value(for text: String) -> Double? { client?.read(row: row, text: text) }

    func remember(_ text: String, for value: Double) {
        known.withLock { known in
            if known.count >= 64 { known.removeAll(keepingCapacity: true) }
            known[value] = text
        }
    }

    /// `table` with remote words on the rows whose JSON (`layout`'s `table`) says the plug-in has its own.
    static func attach(to table: ParameterTable, layout: JSONValue, client: WebBridgeClient) -> ParameterTable {
        guard case .array(let rows)? = layout.member("table") else { return table }
        var specs = table.specs
        for (row, json) in rows.enumerated() where row < specs.count {
            guard case .bool(let shows)? = json.member("ownTexts") else { continue }
            specs[row] = specs[row].withOwnTexts(RemoteTexts(row: row, showsOwnText: shows, client: client))
        }
        return (try? ParameterTable(specs)) ?? table
    }

    /// Keeps the texts a snapshot carried (`[[row,text]…]`) for its targets.
    static func remember(_ json: JSONValue?, targets: [ParameterIndex: Double], in table: ParameterTable) {
        guard case .array(let pairs)? = json else { return }
        for pair in pairs {
            guard case .array(let items) = pair, items.count == 2, let row = items[0].intValue, let text = items[1].stringValue,
                  row < table.count, let value = targets[ParameterIndex(row)],
                  let texts = table[ParameterIndex(row)].ownTexts?.texts as? RemoteTexts else { continue }
            texts.remember(text, for: value)
        }
    }
}
