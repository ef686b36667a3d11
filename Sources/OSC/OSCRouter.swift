import Parameters

/// Turns an OSC message into a request, or says in one line why it is ignored: an unknown
/// address or parameter, the wrong arguments, a value that is not finite or not in range, a
/// preset file's path from another machine. Pure, so every rule is tested without a socket.
///
/// | address | arguments | request | answer, to the sender |
/// |---|---|---|---|
/// | `/detent/param/<id>` | one number | ``OSCRequest/set(_:_:)`` | — |
/// | `/detent/param/<id>` (a file parameter) | `s`: a path (this user only) | ``OSCRequest/setFile(_:_:)`` | — |
/// | `/detent/param/<id>/norm` | one number, 0 … 1 | ``OSCRequest/setPosition(_:_:)`` | — |
/// | `/detent/get/<id>` | — | ``OSCRequest/get(_:)`` | `/detent/param/<id> f` |
/// | `/detent/preset/load` | `s`: a name (a path only from this user) | ``OSCRequest/presetLoad(_:)`` | — |
/// | `/detent/reset` | — | ``OSCRequest/reset`` | — |
/// | `/detent/subscribe`, `/detent/unsubscribe` | — | ``OSCRequest/subscribe`` … | `/detent/param/<id> f`, each change |
/// | `/detent/status` | —, or `s` `json` | ``OSCRequest/status(json:)`` | `/detent/status s` |
/// | `/detent/midi/learn` | `s`: an id; — to stop | ``OSCRequest/midiLearn(_:)`` | `/detent/midi/learn s i`, once learnt |
/// | `/detent/slot/restart` | `s`: a slot's name | ``OSCRequest/restartSlot(_:)`` | `/detent/slot/restart s`, the typed answer |
/// | `/detent/chain` | —, or `s`: a chain edit (this user only) | ``OSCRequest/chain(_:)`` | `/detent/chain s`, the typed answer |
///
/// Subscribers are also told of isolated slots as it happens: `/detent/slot/fault ss SLOT
/// REASON` when one crashes or hangs, `/detent/slot/restarted s SLOT` when it is started again.
///
/// `/detent/status` is answered with one string: the line the typed `status` command answers
/// (`server …, client …, 48000 Hz, 256 frames, xruns 0, …, cutoff=1.20 kHz, …, peaks …`), or,
/// for `/detent/status s json`, the JSON object `status` answers under `--json` (`{"ok":true,
/// "server":…,"connected":…,"sampleRate":…,"xruns":…,"values":{…},"peaks":[…],…}`). Its peaks
/// are since the previous status, asked by any means. `/detent/midi/learn s ID` is answered,
/// when a controller has been heard and mapped, with `/detent/midi/learn s ID i CC`.
///
/// ```swift
/// OSCRouter.route("/detent/param/cutoff", [.float(800)], table: LowpassGain.table, fromThisUser: true)
/// // .success(.set(.cutoff, 800))
/// ```
package enum OSCRouter {
    package static let prefix = "/detent/"

    /// - Parameter fromThisUser: whether the sender is the user Detent runs as, on this
    ///   machine (``LocalSender``); asked only of a message that needs it. Only such a sender
    ///   may name a preset *file* (``isPresetPath(_:)``) or edit the chain: anyone else — a
    ///   peer on the network, another user of this machine — could otherwise make Detent open
    ///   any path it can read, or load code of theirs into it.
    /// - Parameter files: the ids of the processor's file parameters, which take a path.
    package static func route(_ path: String, _ arguments: [OSCArgument], table: ParameterTable, files: [String] = [],
                             fromThisUser: @autoclosure () -> Bool) -> Result<OSCRequest, OSCRejection>
    {
        guard path.hasPrefix(prefix) else { return .failure(.init("unknown address \(path)")) }
        let parts = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let message = Message(path: path, arguments: arguments, table: table)
        if let request = message.parameterRequest(parts, files: files, fromThisUser: fromThisUser()) { return request }
        return message.command(parts, fromThisUser: fromThisUser())
    }

    /// One message being routed: its address, arguments and the table its ids are found in,
    /// and the checks every kind of request shares, each refusal naming the address.
    private struct Message {
        let path: String
        let arguments: [OSCArgument]
        let table: ParameterTable

        /// The parameter `id` names, or the refusal that says there is none.
        func parameter(_ id: String) -> Result<ParameterIndex, OSCRejection> {
            guard let index = table.find(id) else { return .failure(.init("\(path): no parameter '\(id)'")) }
            return .success(index)
        }

        /// The message's one argument as a finite number, or the refusal that says why not.
        func number() -> Result<Double, OSCRejection> {
            guard arguments.count == 1, let value = arguments[0].number else {
                return .failure(.init("\(path): expects one number"))
            }
            guard value.isFinite else { return .failure(.init("\(path): the value is not finite")) }
            return .success(value)
        }

        /// `request`, for a message that brings no arguments.
        func none(_ request: OSCRequest) -> Result<OSCRequest, OSCRejection> {
            arguments.isEmpty ? .success(request) : .failure(.init("\(path): expects no arguments"))
        }

        /// The request of an address about one parameter (`param/<id>`, `param/<id>/norm`,
        /// `get/<id>`), or nil for any other address.
        func parameterRequest(_ parts: [String], files: [String],
                              fromThisUser: @autoclosure () -> Bool) -> Result<OSCRequest, OSCRejection>? {
            if parts.count == 2, parts[0] == "param", let id = files.first(where: { $0.lowercased() == parts[1].lowercased() }) {
                // A file parameter takes a path: it opens a file, so only this user may send one.
                guard arguments.count == 1, case .string(let file) = arguments[0], !file.isEmpty else {
                    return .failure(.init("\(path): expects one string, a file's path"))
                }
                guard fromThisUser() else {
                    return .failure(.init("\(path): a file's path is taken only from this user on this machine"))
                }
                return .success(.setFile(id, file))
            }
            if parts.count == 2, parts[0] == "param" {
                return parameter(parts[1]).flatMap { index in
                    number().flatMap { value in
                        let spec = table[index]
                        guard spec.range.contains(value) else {
                            return .failure(.init("\(path): \(value) is outside \(spec.format(spec.range.lowerBound, ascii: true)) … \(spec.format(spec.range.upperBound, ascii: true))"))
                        }
                        return .success(.set(index, value))
                    }
                }
            }
            if parts.count == 3, parts[0] == "param", parts[2] == "norm" {
                return parameter(parts[1]).flatMap { index in
                    number().flatMap { position in
                        guard (0...1).contains(position) else { return .failure(.init("\(path): a position is 0 … 1")) }
                        return .success(.setPosition(index, position))
                    }
                }
            }
            if parts.count == 2, parts[0] == "get" {
                return parameter(parts[1]).flatMap { index in none(.get(index)) }
            }
            return nil
        }

        /// The request of every other address: presets, reset, subscriptions, status, MIDI
        /// learn, slot restarts and chain edits.
        func command(_ parts: [String], fromThisUser: @autoclosure () -> Bool) -> Result<OSCRequest, OSCRejection> {
            switch parts {
            case ["preset", "load"]:
                guard arguments.count == 1, case .string(let name) = arguments[0] else {
                    return .failure(.init("\(path): expects one string, the preset's name"))
                }
                guard !isPresetPath(name) || fromThisUser() else {
                    return .failure(.init("\(path): a preset file's path is taken only from this user on this machine; send a preset's name"))
                }
                return .success(.presetLoad(name))
            case ["reset"]: return none(.reset)
            case ["subscribe"]: return none(.subscribe)
            case ["unsubscribe"]: return none(.unsubscribe)
            case ["status"]:
                if arguments.isEmpty { return .success(.status(json: false)) }
                guard arguments == [.string("json")] else { return .failure(.init("\(path): expects no arguments, or the string json")) }
                return .success(.status(json: true))
            case ["midi", "learn"]:
                if arguments.isEmpty { return .success(.midiLearn(nil)) }
                guard arguments.count == 1, case .string(let id) = arguments[0] else {
                    return .failure(.init("\(path): expects one string, the parameter's id (or none, to stop learning)"))
                }
                return parameter(id).map { .midiLearn($0) }
            case ["slot", "restart"]:
                guard arguments.count == 1, case .string(let slot) = arguments[0] else {
                    return .failure(.init("\(path): expects one string, the slot's name"))
                }
                return .success(.restartSlot(slot))
            case ["chain"]:
                // An edit loads plug-in code, and the chain's plug-ins name files: only the user
                // Detent runs as may ask for either.
                guard arguments.isEmpty || arguments.count == 1, arguments.allSatisfy({ if case .string = $0 { true } else { false } }) else {
                    return .failure(.init("\(path): expects one string, a chain edit (add, remove, move, connect, disconnect), or none"))
                }
                guard fromThisUser() else { return .failure(.init("\(path): taken only from this user on this machine (over UDP from a socket kept open, or at the osc.unix:// socket)")) }
                guard case .string(let edit) = arguments.first else { return .success(.chain("")) }
                return .success(.chain(edit))
            default: return .failure(.init("unknown address \(path)"))
            }
        }
    }

    /// True when the preset store would read `reference` as a file rather than look a preset
    /// up by name: it contains `/`, or ends in `.json` (`PresetStore.resolve` opens such a
    /// file, relative to the working folder, when it exists).
    package static func isPresetPath(_ reference: String) -> Bool {
        reference.contains("/") || reference.lowercased().hasSuffix(".json")
    }

    /// The address feedback and answers use for a parameter.
    package static func address(of index: ParameterIndex, in table: ParameterTable) -> String {
        prefix + "param/" + table[index].id
    }
}

/// Why a message was ignored, one line.
package struct OSCRejection: Error, Equatable, Sendable, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
