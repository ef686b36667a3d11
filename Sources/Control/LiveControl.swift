import Parameters
import AudioEngine

/// What the command interpreter needs from a live host: the ``ParameterHost`` verbs (`set`
/// stamps all its values at the same frame), a status report and the MIDI mapping.
/// ``LiveHost`` is the real one; tests use a stand-in with no JACK at all.
public protocol LiveControl: ParameterHost, Sendable {
    /// The parameters of the processor being hosted.
    var table: ParameterTable { get }
    func status() -> HostStatus
    /// What MIDI control changes do; nil without a MIDI input.
    var midiControls: MIDIControls? { get }
    /// Edits what MIDI control changes do, in one step, and returns the result; nil (and no
    /// edit) when there is no MIDI input.
    func updateMIDIControls(_ edit: (inout MIDIControls) -> Void) -> MIDIControls?
    /// The processor's read-only outputs now (a plug-in's meters); empty for most.
    func outputValues() -> [OutputValue]
    /// The processor hosted now (a chain edit replaces it).
    var processor: Processor { get }
    /// Adds, removes or moves a slot of the chain while running; returns the chain after.
    func editChain(_ request: ChainRequest) throws(ChainEditError) -> Processor
    /// Swaps the whole rig for the one `identifier` names (a preset of another rig loaded),
    /// keeping the slots both have; returns the rig after.
    func replaceRig(_ identifier: String) throws(ChainEditError) -> Processor
    /// Points a file parameter (an impulse response, a sample) at `path` while running;
    /// returns the absolute path loaded.
    func setFile(_ id: String, path: String) throws(ChainEditError) -> String
    /// Starts an isolated slot's process afresh (one that crashed or hung), with the slot's
    /// values, files and state; returns the slot's name as the chain spells it.
    func restartSlot(_ name: String) throws(ChainEditError) -> String
    /// Restores a preset's saved state into the plug-ins it is for while running (their
    /// kernels made again with it, fading in).
    func restoreState(_ state: SavedState) throws(ChainEditError)
}

extension LiveControl {
    /// One parameter's target (for a single read; a refresh takes ``targets()`` once).
    public func target(_ id: ParameterIndex) -> Double { targets()[id] ?? table[id].defaultValue }

    public var midiControls: MIDIControls? { nil }
    public func updateMIDIControls(_ edit: (inout MIDIControls) -> Void) -> MIDIControls? { nil }
    public func outputValues() -> [OutputValue] { [] }
    /// A host that does not say: a processor of its table alone, with no audio code.
    public var processor: Processor {
        Processor(identifier: "detent:parameters", name: "parameters", table: table) { _, _, _ in
            throw ChainEditError("this host has no audio code")
        }
    }

    public func editChain(_ request: ChainRequest) throws(ChainEditError) -> Processor {
        throw ChainEditError("this host cannot change its chain")
    }

    public func replaceRig(_ identifier: String) throws(ChainEditError) -> Processor {
        throw ChainEditError("this host cannot change its chain")
    }

    public func setFile(_ id: String, path: String) throws(ChainEditError) -> String {
        throw ChainEditError("this host cannot load files")
    }

    public func restartSlot(_ name: String) throws(ChainEditError) -> String {
        throw ChainEditError("this host runs no slot in a process of its own")
    }

    public func restoreState(_ state: SavedState) throws(ChainEditError) {
        throw ChainEditError("this host cannot restore a plug-in's state")
    }
}
