import Platform
import Parameters
import AudioEngine

/// One line typed to a running host (`detent live --headless` reads them from stdin).
///
/// Parsing is pure: ids and values go through the parameter table
/// (``ParameterTable/index(of:)``, ``ParameterSpec/parse(_:)``), so a command accepts
/// exactly what `--set` and the panel accept.
///
/// ```swift
/// try HostCommand.parse("set cutoff 1.2 kHz")   // .set(.cutoff, 1200)
/// try HostCommand.parse("reset")                // .reset(nil)
/// try HostCommand.parse("   ")                  // nil: nothing to answer
/// ```
public enum HostCommand: Equatable, Sendable {
    case set(ParameterIndex, Double)
    /// `set ID PATH` of a file parameter (an impulse response, a sample).
    case setFile(String, String)
    case get(ParameterIndex)
    case params
    case reset(ParameterIndex?)
    case presetLoad(String)
    case presetSave(String)
    case status
    /// `midi`: what MIDI control changes do.
    case midi
    /// `midi ID CC` or `midi ID none`.
    case midiController(ParameterIndex, Int?)
    /// `midi channel N` or `midi channel all`.
    case midiChannel(Int?)
    /// `midi save [FILE]`: the mapping to a file (the `--midi-map` file when none is named).
    case midiSave(String?)
    /// `chain`: the slots (and a graph's connections); `chain add|remove|move|rename|connect|disconnect …`:
    /// an edit of the running chain or graph.
    case chain(ChainRequest?)
    /// `restart SLOT`: an isolated slot's process started afresh.
    case restart(String)
    case help
    case quit

    /// The commands as `help` lists them.
    public static let synopsis = [
        "set ID VALUE|PATH", "get ID", "params", "reset [ID]", "preset load NAME", "preset save NAME",
        "status", "midi [ID CC|none] [channel N|all] [save [FILE]]",
        "chain [add [NAME=]PLUGIN [at N|at FROM>TO] | remove NAME | move NAME N | rename NAME NEW | connect FROM TO | disconnect FROM TO]",
        "restart SLOT", "help", "quit",
    ]

    /// Parses one line. Blank lines and `#` comments give nil (no answer). `files` are the
    /// ids of the processor's file parameters, which `set` takes a path for.
    /// `outputs` are the processor's read-only outputs' ids (a plug-in's meters, its
    /// latency): setting one is refused as such, not as an unknown id.
    public static func parse(_ line: String, table: ParameterTable, files: [String] = [],
                             outputs: [String] = []) throws(CommandError) -> HostCommand? {
        let words = line.split(whereSeparator: \.isWhitespace)
        guard let verb = words.first?.lowercased(), !verb.hasPrefix("#") else { return nil }
        /// The text after the first `n` words, as typed (values such as `800 Hz` hold spaces).
        func rest(after n: Int) -> String {
            words.count > n ? String(line[words[n].startIndex...]).trimmingTrailingWhitespace : ""
        }
        func id(_ word: Substring) throws(CommandError) -> ParameterIndex {
            do { return try table.index(of: String(word)) } catch {
                let lowered = word.lowercased()
                if let output = outputs.first(where: { $0.lowercased() == lowered }) {
                    throw .readOnly(output)
                }
                throw .parameter(error)
            }
        }
        func noArguments(_ command: HostCommand) throws(CommandError) -> HostCommand {
            guard words.count == 1 else { throw .unexpectedArguments(verb) }
            return command
        }
        switch verb {
        case "set":
            guard words.count >= 3 else { throw .usage("set ID VALUE") }
            if files.contains(String(words[1])) { return .setFile(String(words[1]), rest(after: 2)) }
            let parameter = try id(words[1])
            do { return .set(parameter, try table[parameter].parse(rest(after: 2))) } catch { throw .parameter(error) }
        case "get":
            guard words.count == 2 else { throw .usage("get ID") }
            return .get(try id(words[1]))
        case "reset":
            guard words.count <= 2 else { throw .usage("reset [ID]") }
            return .reset(words.count == 2 ? try id(words[1]) : nil)
        case "preset":
            let action = words.count > 1 ? words[1].lowercased() : ""
            guard action == "load" || action == "save", words.count >= 3 else {
                throw .usage("preset load NAME | preset save NAME")
            }
            return action == "load" ? .presetLoad(rest(after: 2)) : .presetSave(rest(after: 2))
        case "midi":
            return try midi(Array(words.dropFirst()), table: table)
        case "chain":
            return .chain(try chain(Array(words.dropFirst()), line: line))
        case "restart":
            guard words.count == 2 else { throw .usage("restart SLOT") }
            return .restart(String(words[1]))
        case "params": return try noArguments(.params)
        case "status": return try noArguments(.status)
        case "help": return try noArguments(.help)
        case "quit": return try noArguments(.quit)
        default: throw .unknownCommand(String(words[0]))
        }
    }

    /// The edit `chain add|remove|move …` asks for (the words after `chain`, in `line`: a
    /// plug-in's name is taken as typed, spaces and all); nil for `chain`.
    private static func chain(_ words: [Substring], line: String) throws(CommandError) -> ChainRequest? {
        let usage = CommandError.usage("chain | chain add [NAME=]PLUGIN [at N|at FROM>TO] | chain remove NAME | chain move NAME N"
            + " | chain rename NAME NEW | chain connect FROM TO | chain disconnect FROM TO")
        guard let action = words.first?.lowercased() else { return nil }
        func position(_ word: Substring) throws(CommandError) -> Int {
            guard let n = Int(word), n >= 1 else { throw .invalid("position '\(word)': expected 1, 2, 3…") }
            return n
        }
        switch action {
        case "add":
            guard words.count >= 2 else { throw usage }
            var end = line.endIndex
            var at: Int?
            var wire: (from: String, to: String)?
            if words.count >= 4, words[words.count - 2].lowercased() == "at" {
                let place = words[words.count - 1]
                if let arrow = place.firstIndex(of: ">") {
                    // A graph's connection: FROM>TO.
                    let from = place[..<arrow], to = place[place.index(after: arrow)...]
                    guard !from.isEmpty, !to.isEmpty else { throw .invalid("connection '\(place)': expected FROM>TO") }
                    wire = (String(from), String(to))
                } else {
                    at = try position(place)
                }
                end = words[words.count - 2].startIndex
            }
            var text = String(line[words[1].startIndex..<end]).trimmingTrailingWhitespace
            var name: String?
            if let eq = text.firstIndex(of: "="), Processor.isSlotName(String(text[..<eq])), text.index(after: eq) < text.endIndex {
                name = String(text[..<eq])
                text = String(text[text.index(after: eq)...])
            }
            if let wire { return .insert(reference: text, name: name, from: wire.from, to: wire.to) }
            return .add(reference: text, name: name, position: at)
        case "remove":
            guard words.count == 2 else { throw usage }
            return .remove(String(words[1]))
        case "move":
            guard words.count == 3 else { throw usage }
            return .move(String(words[1]), to: try position(words[2]))
        case "rename":
            guard words.count == 3 else { throw usage }
            return .rename(String(words[1]), to: String(words[2]))
        case "connect", "disconnect":
            // FROM TO, or FROM>TO as the graph's file and `chain` write it.
            var ends = words.dropFirst().map(String.init)
            if ends.count == 1, let arrow = ends[0].firstIndex(of: ">") {
                ends = [String(ends[0][..<arrow]), String(ends[0][ends[0].index(after: arrow)...])]
            }
            guard ends.count == 2, !ends[0].isEmpty, !ends[1].isEmpty else { throw usage }
            return action == "connect" ? .connect(from: ends[0], to: ends[1]) : .disconnect(from: ends[0], to: ends[1])
        default:
            throw usage
        }
    }

    /// `midi`, `midi ID CC|none`, `midi channel N|all` (the words after `midi`).
    private static func midi(_ words: [Substring], table: ParameterTable) throws(CommandError) -> HostCommand {
        let usage = CommandError.usage("midi | midi ID CC | midi ID none | midi channel N | midi channel all | midi save [FILE]")
        guard !words.isEmpty else { return .midi }
        if words[0].lowercased() == "save" {
            guard words.count <= 2 else { throw .usage("midi save [FILE] (a file name without spaces)") }
            return .midiSave(words.count == 2 ? String(words[1]) : nil)
        }
        guard words.count == 2 else { throw usage }
        if words[0].lowercased() == "channel" {
            do { return .midiChannel(try MIDIControls.parseChannel(String(words[1]))) } catch {
                throw .invalid("MIDI channel '\(words[1])': expected \(MIDIControls.channelRange.lowerBound) … "
                    + "\(MIDIControls.channelRange.upperBound) or all")
            }
        }
        let id: ParameterIndex
        do { id = try table.index(of: String(words[0])) } catch { throw .parameter(error) }
        switch MIDIControls.controller(String(words[1])) {
        case .number(let number): return .midiController(id, number)
        case .none: return .midiController(id, nil)
        case .invalid: throw .invalid("controller '\(words[1])' for \(table[id].id): expected \(MIDIControls.controllerExpectation)")
        }
    }
}

/// Why a command line was refused: one line, answered as `error: …`.
public enum CommandError: Error, Equatable, Sendable, CustomStringConvertible {
    case unknownCommand(String)
    case usage(String)
    case unexpectedArguments(String)
    case parameter(ParameterError)
    /// A value that is not one the command takes: "invalid " and what it was.
    case invalid(String)
    /// A line over ``LineReader/maximumLength`` bytes, dropped unread.
    case lineTooLong
    /// One of the processor's outputs (a meter, its latency) named where a parameter to set is.
    case readOnly(String)

    public var description: String {
        switch self {
        case .unknownCommand(let word):
            "unknown command '\(word.count > 40 ? word.prefix(40) + "…" : word)' (try 'help')"
        case .lineTooLong: "a line longer than \(LineReader.maximumLength) bytes was ignored"
        case .usage(let form): "usage: \(form)"
        case .unexpectedArguments(let verb): "'\(verb)' takes no arguments"
        case .parameter(let error): error.description
        case .invalid(let what): "invalid \(what)"
        case .readOnly(let id): "'\(id)' is one of the processor's outputs: read-only (status shows its value)"
        }
    }
}

extension String {
    var trimmingTrailingWhitespace: String {
        var s = Substring(self)
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
