import Platform
import TextFormats

/// A binary plug-in as the listing holds it: everything `detent plugins` shows, with its
/// parameters read from their JSON only when a processor is made. An LSP or ZynAddSubFX VST2
/// plug-in has hundreds of parameters, and the index's 900-odd plug-ins several megabytes of
/// them, which a listing or a lookup by name never needs.
package struct ListedPlugin: Sendable {
    /// The plug-in without its parameters.
    package let summary: BinaryPlugin
    /// How many parameters a host writes, and the ids of the read-only ones.
    package let parameterCount: Int
    package let outputIDs: [String]
    /// The parameters as one JSON array (the index's third field).
    package let parametersJSON: String
    private let parameters: Lazy<[BinaryParameter]>

    /// A plug-in as a scan read it.
    package init(_ plugin: BinaryPlugin) {
        var summary = plugin
        summary.parameters = []
        self.summary = summary
        parameterCount = plugin.inputParameters.count
        outputIDs = BinaryTable.outputIDs(plugin).map(\.id)
        parametersJSON = JSONValue.array(plugin.parameters.map(\.json)).compactText
        let parameters = plugin.parameters
        self.parameters = Lazy { parameters }
    }

    /// A plug-in as the index keeps it: its summary's JSON object, and its parameters' text,
    /// read when first needed (a malformed array reads as none); nil when the summary is not
    /// one this build wrote.
    package init?(summary json: JSONValue, parametersJSON: String) {
        guard let plugin = BinaryPlugin(json: json), let count = json.member("parameterCount")?.doubleValue,
              case .array(let outputs)? = json.member("outputIDs") else { return nil }
        summary = plugin
        parameterCount = Int(count)
        outputIDs = outputs.compactMap { if case .string(let id) = $0 { id } else { nil } }
        self.parametersJSON = parametersJSON
        parameters = Lazy {
            guard case .array(let rows)? = try? JSONParser.parse(Array(parametersJSON.utf8)) else { return [] }
            return rows.compactMap(BinaryParameter.init(json:))
        }
    }

    /// The summary's JSON object: the plug-in's, with no parameters, and their count and
    /// outputs' ids.
    package var summaryJSON: JSONValue {
        guard case .object(let members) = summary.json else { return summary.json }
        return .object(members + [JSONMember("parameterCount", .number(parameterCount)),
                                  JSONMember("outputIDs", .array(outputIDs.map { .string($0) }))])
    }

    /// The whole plug-in, its parameters read.
    package var plugin: BinaryPlugin {
        var whole = summary
        whole.parameters = parameters.value
        return whole
    }
}
