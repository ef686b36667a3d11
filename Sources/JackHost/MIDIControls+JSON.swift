import Parameters

extension MIDIControls {
    /// The mapping as JSON, as presets' `midi` field and saved sessions hold it:
    /// `{"channel": 2, "controllers": {"cutoff": 74, "gain": 7}}` (`"channel": null` for
    /// every channel; parameters without a controller left out).
    public var json: JSONValue {
        .object([
            JSONMember("channel", channel.map { .number($0) } ?? .null),
            JSONMember("controllers", .object(table.indices.compactMap { id in
                controllers[id].map { JSONMember(table[id].id, .number($0)) }
            })),
        ])
    }

    /// The mapping `json` describes for `table`.
    /// - Throws: naming the first parameter the table lacks, or channel or number out of range.
    public init(json: JSONValue, table: ParameterTable) throws(LiveHostError) {
        self.init(table: table, channel: nil, controllers: [:])
        guard case .object = json else { throw .invalidMIDIControl("midi", reason: "expected an object, found \(json.kindDescription)") }
        switch json.member("channel") {
        case nil, .null?: channel = nil
        case let value?:
            guard let n = value.doubleValue, let c = Int(exactly: n), Self.channelRange.contains(c) else {
                throw .invalidMIDIChannel("\(value.compactText)")
            }
            channel = c
        }
        guard let controllers = json.member("controllers") else { return }
        guard case .object(let members) = controllers else {
            throw .invalidMIDIControl("midi.controllers", reason: "expected an object, found \(controllers.kindDescription)")
        }
        for member in members {
            let text = "\(member.key)=\(member.value.compactText)"
            let (id, number) = try parseAssignment(text)
            assign(id, to: number)
        }
    }
}
