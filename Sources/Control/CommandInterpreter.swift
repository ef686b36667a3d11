import Parameters
import AudioEngine

/// Runs typed commands against a live host and answers each with one line.
///
/// ```swift
/// let interpreter = CommandInterpreter(control: host, presets: FactoryDefaultPresets())
/// interpreter.respond(to: "set gain -6")?.text    // "gain=-6.0 dB"
/// interpreter.respond(to: "bogus")?.text          // "error: unknown command 'bogus' (try 'help')"
/// ```
public struct CommandInterpreter: Sendable {
    public let control: any LiveControl
    public let presets: any PresetSource
    /// Writes the mapping to a file (`midi save`), returning the path written; nil when the
    /// host cannot save mappings.
    public let saveMIDIMap: (@Sendable (MIDIControls, String?) throws -> String)?

    public init(control: any LiveControl, presets: any PresetSource,
                saveMIDIMap: (@Sendable (MIDIControls, String?) throws -> String)? = nil) {
        self.control = control
        self.presets = presets
        self.saveMIDIMap = saveMIDIMap
    }

    /// Parses and runs one line; nil for a blank line or a comment.
    public func respond(to line: String) -> CommandAnswer? {
        if let output = outputAsked(line) { return .output(output) }
        do {
            guard let command = try HostCommand.parse(line, table: control.table, files: control.processor.files.map(\.id),
                                                      outputs: control.processor.outputs.map(\.id))
            else { return nil }
            return execute(command)
        } catch {
            return .error(error.description)
        }
    }

    public func execute(_ command: HostCommand) -> CommandAnswer {
        switch command {
        case .set(let id, let value):
            control.set([id: value])
            return .value(id, targets()[id]!)
        case .setFile(let id, let path):
            do { return .file(id, try control.setFile(id, path: path)) } catch { return .error(error.description) }
        case .get(let id):
            return .value(id, targets()[id]!)
        case .params:
            return .values(targets())
        case .reset(let id?):
            control.set([id: presets.defaults()[id]!])
            return .value(id, targets()[id]!)
        case .reset(nil):
            control.set(presets.defaults())
            return .values(targets())
        case .presetLoad(let name):
            do {
                // Another rig's preset brings its rig: the slots both have carry on, the
                // others fade in and out; then its values and state load as any preset's.
                if let rig = presets.otherRig(name) { _ = try control.replaceRig(rig) }
                // Both read before anything changes: a state that cannot be read loads nothing.
                let values = try presets.valuesToLoad(name), state = try presets.stateToLoad(name)
                control.set(values)
                if let state { try control.restoreState(state) }
                return .preset(name, targets())
            } catch {
                return .error("\(error)")
            }
        case .presetSave(let name):
            do {
                try presets.save(name, values: targets(), midi: control.midiControls?.json)
                return .saved(name)
            } catch {
                return .error("\(error)")
            }
        case .status:
            return .status(control.status())
        case .midi:
            return control.midiControls.map(CommandAnswer.midi) ?? Self.noMIDI
        case .midiController(let id, let number):
            return control.updateMIDIControls { $0.assign(id, to: number) }.map(CommandAnswer.midi) ?? Self.noMIDI
        case .midiChannel(let channel):
            return control.updateMIDIControls { $0.channel = channel }.map(CommandAnswer.midi) ?? Self.noMIDI
        case .midiSave(let path):
            guard let controls = control.midiControls else { return Self.noMIDI }
            guard let saveMIDIMap else { return .error("this host cannot save MIDI mappings") }
            do {
                return .midiSaved(try saveMIDIMap(controls, path))
            } catch {
                return .error("\(error)")
            }
        case .chain(nil):
            return .chain(ChainSlotText.slots(of: control.processor), connections: ChainSlotText.connections(of: control.processor))
        case .chain(let request?):
            do {
                let before = Set(control.processor.namedInputs.map { $0.lowercased() })
                let edited = try control.editChain(request)
                // A connection from a name that is no slot makes a named input: said, so that
                // a misspelt slot is not taken for one unnoticed.
                let new = edited.namedInputs.filter { !before.contains($0.lowercased()) }
                return .chain(ChainSlotText.slots(of: edited), connections: ChainSlotText.connections(of: edited), newInputs: new)
            } catch {
                return .error(error.description)
            }
        case .restart(let name):
            do {
                return .restarted(try control.restartSlot(name))
            } catch {
                return .error(error.description)
            }
        case .help:
            return .help
        case .quit:
            return .bye
        }
    }

    /// `get ID` of one of the processor's read-only outputs (a plug-in's meter), which is not
    /// in the parameter table.
    private func outputAsked(_ line: String) -> OutputValue? {
        let words = line.split(whereSeparator: \.isWhitespace)
        guard words.count == 2, words[0].lowercased() == "get", (try? control.table.index(of: String(words[1]))) == nil
        else { return nil }
        return control.outputValues().first { $0.id == words[1] }
    }

    static let noMIDI = CommandAnswer.error("there is no MIDI input (Detent was started with --no-midi)")

    private func targets() -> [ParameterIndex: Double] { control.targets() }
}
