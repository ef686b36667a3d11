import TextFormats
import Parameters

/// The text and JSON of `detent plugins`: every format's plug-ins in one list.
public enum CatalogueListing {
    /// A table: name, format, class, audio inputs/outputs, parameters, hostable (or why not),
    /// identifier.
    public static func table(_ entries: [PluginEntry]) -> String {
        var rows = [["NAME", "FORMAT", "CLASS", "IN", "OUT", "PARAMS", "HOSTABLE", "IDENTIFIER"]]
        for e in entries {
            rows.append([e.name, e.format, e.className, "\(e.audioInputs)", "\(e.audioOutputs)", "\(e.parameters)",
                         e.unhostableReason.map { "no: \($0)" } ?? (e.isMIDIOnly ? "yes (MIDI only)" : "yes"), e.identifier])
        }
        return TextTable.render(rows)
    }

    /// One plug-in as a JSON object. `uri` repeats the identifier, as listings made before
    /// other formats than LV2 were hosted had it.
    public static func json(_ e: PluginEntry) -> JSONValue {
        .object([
            JSONMember("name", .string(e.name)),
            JSONMember("format", .string(e.format)),
            JSONMember("identifier", .string(e.identifier)),
            JSONMember("uri", .string(e.identifier)),
            JSONMember("class", .string(e.className)),
            JSONMember("maker", .string(e.maker)),
            JSONMember("audioInputs", .number(e.audioInputs)),
            JSONMember("audioOutputs", .number(e.audioOutputs)),
            JSONMember("parameters", .number(e.parameters)),
            JSONMember("outputs", .array(e.outputs.map { .string($0) })),
            JSONMember("midiInput", .bool(e.takesMIDI)),
            JSONMember("midiOnly", .bool(e.isMIDIOnly)),
            JSONMember("hostable", .bool(e.isHostable)),
            JSONMember("reason", .string(e.unhostableReason)),
        ])
    }
}
