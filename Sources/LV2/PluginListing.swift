import TextFormats
import Parameters
import Platform

/// The text and JSON of `detent plugins`.
public enum PluginListing {
    /// A table: name, class, audio inputs/outputs, parameters, hostable (or why not), URI.
    public static func table(_ plugins: [PluginDescription]) -> String {
        var rows = [["NAME", "CLASS", "IN", "OUT", "PARAMS", "HOSTABLE", "URI"]]
        for p in plugins {
            rows.append([p.name, p.className, "\(p.audioInputs.count)", "\(p.audioOutputs.count)",
                         "\(p.controlInputs.count)", p.unhostableReason.map { "no: \($0)" } ?? "yes", p.uri])
        }
        return TextTable.render(rows)
    }

    public static func json(_ p: PluginDescription) -> JSONValue {
        .object([
            JSONMember("name", .string(p.name)),
            JSONMember("uri", .string(p.uri)),
            JSONMember("class", .string(p.className)),
            JSONMember("audioInputs", .number(p.audioInputs.count)),
            JSONMember("audioOutputs", .number(p.audioOutputs.count)),
            JSONMember("parameters", .number(p.controlInputs.count)),
            JSONMember("outputs", .array(p.controlOutputs.map { .string($0.symbol) })),
            JSONMember("midiInput", .bool(p.hasMIDIInput)),
            JSONMember("hostable", .bool(p.isHostable)),
            JSONMember("reason", .string(p.unhostableReason)),
        ])
    }

    /// Where Detent looks for plug-ins: `LV2_PATH`, or Debian's lilv default (with this
    /// machine's multiarch folder, `/usr/lib/x86_64-linux-gnu/lv2` on a PC).
    public static var searchPath: String {
        Environment.value("LV2_PATH") ?? "~/.lv2:/usr/lib/\(machine)-linux-gnu/lv2:/usr/lib/lv2:/usr/local/lib/lv2"
    }

    /// The processor's name as `uname` gives it (`x86_64`, `aarch64`).
    private static var machine: String { ThisProcess.machine ?? "x86_64" }
}
