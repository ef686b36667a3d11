import AudioEngine
import Control
import Parameters
import Platform

/// What the web panel needs of whatever holds the parameters — the live host, or the panel's
/// no-audio stand-in: a snapshot to show, and the verbs every other source of changes uses.
/// Nothing here reaches the audio thread but through the host's own queue.
package protocol WebPanelHost: AnyObject, Sendable {
    /// The processor (its table and chain slots), the chain's generation (bumped by every
    /// edit, so a request read against an older table is dropped), and every target.
    func webSnapshot() -> WebSnapshot
    /// New targets, only while the chain is still `generation`; false when dropped.
    func set(_ values: [ParameterIndex: Double], ifGeneration generation: Int) -> Bool
    /// Back to the Default preset's value (the factory default when there is none), as the
    /// typed `reset ID` does.
    func reset(_ index: ParameterIndex, ifGeneration generation: Int) -> Bool
    /// The processor's read-only outputs (a plug-in's meters, gain reduction) at their latest
    /// values; none without audio.
    func outputValues() -> [OutputValue]
    /// Loads the preset `name` (`save` false) or saves the values as it (`save` true), as the
    /// typed `preset load|save NAME` do; what went wrong in one line, or nil.
    func preset(_ name: String, save: Bool) -> String?
    /// The presets the page may offer to load; none where it cannot load any.
    func presetNames() -> [String]
    /// Starts MIDI learn for the parameter `index` (the next controller heard turns it), or
    /// stops it (nil), only while the chain is still `generation`; why it cannot, or nil.
    func learn(_ index: ParameterIndex?, ifGeneration generation: Int) -> String?
    /// The mapping a MIDI learn made since the last call, once: the parameter's id and the
    /// controller's number; nil while none has.
    func takeLearnt() -> LearntController?
    /// Waits until the host says something changed since the last call (its change feed), at
    /// most `timeout` (nil: until it does, or ``interruptChangeWait()``); true when it did.
    func awaitChange(timeout: Duration?) -> Bool
    /// Ends an ``awaitChange(timeout:)`` waiting now (or the next one) with false.
    func interruptChangeWait()
    /// The isolated slots that crashed or hung, by name, with what happened; none elsewhere.
    func faults() -> [String: String]
    /// Starts an isolated slot's process afresh, as the typed `restart SLOT`; why not, or nil.
    func restart(_ slot: String) -> String?
    /// Edits the rig as the typed `chain add|remove|move|rename|connect|disconnect` does
    /// (the same fades and refusals): the typed command's answer line, or why it was refused.
    /// It loads code: only a trusted page's request comes here.
    func editRig(_ request: ChainRequest) -> Result<String, ChainEditError>
    /// Points a file parameter at `path`, as the typed `set ID PATH`: the path loaded, or why
    /// not. It names a file: only a trusted page's request comes here.
    func setFile(_ id: String, path: String) -> Result<String, ChainEditError>
    /// Every plug-in the host can add, in the listing's order; none where it cannot add any.
    func catalogue() -> [CatalogueEntry]
}

/// A plug-in the page offers to add: what `detent plugins` lists of it.
package struct CatalogueEntry: Equatable, Sendable {
    package let name: String
    /// What `chain add` takes to pick it alone (a URI, `ladspa:ID:LABEL`, `VST3:…`).
    package let identifier: String
    package let format: String
    /// Its class (`Filter`, `Reverb`, `Instrument`; `Plugin` where the format gives none).
    package let category: String
    package let maker: String
    package let inputs: Int
    package let outputs: Int
    package let isInstrument: Bool

    package init(name: String, identifier: String, format: String, category: String, maker: String, inputs: Int,
                 outputs: Int, isInstrument: Bool) {
        self.name = name
        self.identifier = identifier
        self.format = format
        self.category = category
        self.maker = maker
        self.inputs = inputs
        self.outputs = outputs
        self.isInstrument = isInstrument
    }
}

/// A controller MIDI learn mapped to a parameter.
package struct LearntController: Equatable, Sendable {
    package let id: String
    package let controller: Int

    package init(id: String, controller: Int) {
        self.id = id
        self.controller = controller
    }
}

extension WebPanelHost {
    package func outputValues() -> [OutputValue] { [] }
    package func preset(_ name: String, save: Bool) -> String? { "presets cannot be loaded or saved here" }
    package func presetNames() -> [String] { [] }
    package func learn(_ index: ParameterIndex?, ifGeneration generation: Int) -> String? {
        index == nil ? nil : "no MIDI input to learn from (detent live has one, unless --no-midi)"
    }
    package func takeLearnt() -> LearntController? { nil }
    /// A host with no change feed is looked at 30 times a second.
    package func awaitChange(timeout: Duration?) -> Bool {
        ThisThread.sleep(for: min(timeout ?? .milliseconds(33), .milliseconds(33)))
        return true
    }
    package func interruptChangeWait() {}
    package func faults() -> [String: String] { [:] }
    package func restart(_ slot: String) -> String? { "restarting is for isolated slots (detent live --isolate)" }
    package func editRig(_ request: ChainRequest) -> Result<String, ChainEditError> {
        .failure(ChainEditError("this panel cannot change its rig (detent live can)"))
    }
    package func setFile(_ id: String, path: String) -> Result<String, ChainEditError> {
        .failure(ChainEditError("this panel cannot load files (detent live can)"))
    }
    package func catalogue() -> [CatalogueEntry] { [] }
}

/// One consistent look at a host: what the page draws and the feedback compares.
package struct WebSnapshot: Sendable {
    package let layout: WebLayout
    package let generation: Int
    package let targets: [ParameterIndex: Double]
    /// What the page and OSCQuery call the host now (it follows the chain's edits), or nil
    /// for the title the server started with (a session's name).
    package let title: String?

    package init(layout: WebLayout, generation: Int, targets: [ParameterIndex: Double], title: String? = nil) {
        self.layout = layout
        self.generation = generation
        self.targets = targets
        self.title = title
    }

    package init(processor: Processor, generation: Int, targets: [ParameterIndex: Double], title: String? = nil) {
        self.init(layout: WebLayout(processor: processor), generation: generation, targets: targets, title: title)
    }

    /// The target of `index`, or its default when the host has none.
    package func value(_ index: ParameterIndex) -> Double {
        targets[index] ?? layout.table[index].defaultValue
    }
}

/// What the page draws of a processor: its table, its chain slots as sections, its outputs,
/// a graph's connections and its file parameters. Plain data, so `detent-web` gets it over the
/// bridge without the processor itself.
package struct WebLayout: Sendable, Equatable {

    /// One chain slot: its name, its processor's name, its bypass row and its other rows.
    package struct Section: Sendable, Equatable {
        package let name: String
        package let plugin: String
        package let bypass: ParameterIndex
        package let rows: [ParameterIndex]

        package init(name: String, plugin: String, bypass: ParameterIndex, rows: [ParameterIndex]) {
            self.name = name
            self.plugin = plugin
            self.bypass = bypass
            self.rows = rows
        }
    }

    package let table: ParameterTable
    /// One per chain slot; none for a single processor (one untitled section of every row).
    package let sections: [Section]
    package let outputs: [OutputSpec]
    /// A graph's connections as its file writes them (`input>lp`, `key>comp:sidechain`,
    /// `lp>output`); nil for a chain (its sections, in order, are its line).
    package let connections: [String]?
    /// The file parameters (an impulse response, a sample) and the files chosen.
    package let files: [FileParameter]

    package init(table: ParameterTable, sections: [Section], outputs: [OutputSpec], connections: [String]? = nil, files: [FileParameter] = []) {
        self.table = table
        self.sections = sections
        self.outputs = outputs
        self.connections = connections
        self.files = files
    }

    /// The same layout with `files` chosen.
    package func with(files: [FileParameter]) -> WebLayout {
        WebLayout(table: table, sections: sections, outputs: outputs, connections: connections, files: files)
    }

    /// The same layout with `table`'s rows (the same rows, with other words: ``RemoteTexts``).
    package func with(table: ParameterTable) -> WebLayout {
        WebLayout(table: table, sections: sections, outputs: outputs, connections: connections, files: files)
    }

    package init(processor: Processor) {
        self.init(table: processor.table, sections: processor.slots.map { slot in
            // The plug-in's own on/off (`lv2:enabled`) is the slot's bypass already, which
            // drives it: one switch, in the heading, not two that disagree.
            let enabled = slot.processor.enabledRow.map(slot.row)
            // The slot's dry/wet mix first, then its own rows.
            return Section(name: slot.name, plugin: slot.processor.name, bypass: slot.bypass,
                           rows: [slot.mix] + slot.rows.map(ParameterIndex.init).filter { $0 != slot.bypass && $0 != enabled })
        }, outputs: processor.outputs, connections: processor.routing.map { _ in ChainSlotText.connections(of: processor) },
           files: processor.files)
    }
}
