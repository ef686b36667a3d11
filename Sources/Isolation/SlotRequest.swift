import AudioEngine
import Parameters
import TextFormats

/// What a sandbox's process is, as one line of JSON on its command line (`detent slot
/// SANDBOX`): its name, and the real-time priority its serving thread runs at.
package struct SandboxRequest: Sendable, Equatable {
    /// What the host calls it (`together`, a group's slots, or the one slot's).
    package var name: String
    /// The real-time priority to serve at (the host's audio thread's); nil: none.
    package var priority: Int?

    package init(name: String, priority: Int?) {
        self.name = name
        self.priority = priority
    }

    package var json: String {
        var members = [JSONMember("sandbox", .string(name))]
        if let priority { members.append(JSONMember("priority", .number(priority))) }
        return JSONValue.object(members).compactText
    }

    /// The sandbox `text` describes; nil when it does not.
    package init?(json text: String) {
        guard let value = try? JSONParser.parse(Array(text.utf8)), case .string(let name)? = value.member("sandbox") else { return nil }
        self.init(name: name, priority: value.member("priority")?.doubleValue.map { Int($0) })
    }
}

/// What a slot's sandbox is asked to run, as one line of JSON in the message that adds it
/// (with its shared block): the processor by identifier (found again there as `--plugin`
/// finds it, or at the file it was named by: ``AudioEngine/Processor/foundAt``), its file
/// parameters and state, and the format its kernel is made for.
package struct SlotRequest: Sendable, Equatable {
    package var identifier: String
    package var foundAt: String?
    package var files: [String: String]
    package var state: SavedState?
    package var format: KernelFormat

    package init(identifier: String, foundAt: String? = nil, files: [String: String], state: SavedState?, format: KernelFormat) {
        self.identifier = identifier
        self.foundAt = foundAt
        self.files = files
        self.state = state
        self.format = format
    }

    /// What the sandbox finds the processor by: its file, when it was named by one.
    package var reference: String { foundAt ?? identifier }

    package var json: String {
        var members = [
            JSONMember("identifier", .string(identifier)),
            JSONMember("files", .object(files.sorted { $0.key < $1.key }.map { JSONMember($0.key, .string($0.value)) })),
            JSONMember("sampleRate", .number(format.sampleRate)),
            JSONMember("maxFrames", .number(format.maxFrames)),
            JSONMember("channels", .number(format.channels)),
            JSONMember("realtime", .bool(format.realtime)),
            JSONMember("followsTransport", .bool(format.followsTransport)),
        ]
        if let bpm = format.beatsPerMinute { members.append(JSONMember("beatsPerMinute", .number(bpm))) }
        if let values = format.startingValues {
            // Written as read back: the shortest text that gives the same Double.
            members.append(JSONMember("startingValues", .array(values.map { .number(String($0)) })))
        }
        if let state { members.append(JSONMember("state", state.json)) }
        if let foundAt { members.append(JSONMember("foundAt", .string(foundAt))) }
        return JSONValue.object(members).compactText
    }

    /// The request `text` holds; nil when it is not one.
    package init?(json text: String) {
        guard let value = try? JSONParser.parse(Array(text.utf8)),
              case .string(let identifier)? = value.member("identifier"),
              let rate = value.member("sampleRate")?.doubleValue, let frames = value.member("maxFrames")?.doubleValue,
              let channels = value.member("channels")?.doubleValue else { return nil }
        var format = KernelFormat(sampleRate: rate, maxFrames: Int(frames), channels: Int(channels),
                                  realtime: value.member("realtime") == .bool(true),
                                  beatsPerMinute: value.member("beatsPerMinute")?.doubleValue,
                                  followsTransport: value.member("followsTransport") == .bool(true))
        if case .array(let values)? = value.member("startingValues") { format.startingValues = values.compactMap(\.doubleValue) }
        var files: [String: String] = [:]
        if case .object(let members)? = value.member("files") {
            for member in members { if case .string(let path) = member.value { files[member.key] = path } }
        }
        let state = value.member("state").flatMap { try? SavedState(json: $0) }
        var foundAt: String?
        if case .string(let path)? = value.member("foundAt") { foundAt = path }
        self.init(identifier: identifier, foundAt: foundAt, files: files, state: state, format: format)
    }
}
