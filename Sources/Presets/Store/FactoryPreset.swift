import Parameters
import Platform

/// A factory preset as shipped: the text of one `Presets/*.json` file of the package.
///
/// The files are compiled into the module at build time (the `EmbedFactoryPresets` plugin
/// generates `FactoryPreset.embedded`), so the executable needs no resource folder: factory
/// presets work from any working directory and after the binary is copied elsewhere. They
/// are read-only by construction, since nothing on disk backs them.
public struct FactoryPreset: Sendable, Hashable {
    /// The file's name in `Presets/` (`Dark.json`).
    public let fileName: String
    /// The file's exact text.
    public var jsonText: String { text.value }
    private let text: Lazy<String>

    /// How errors and warnings name this preset (`factory preset Dark.json`, or a
    /// plug-in's own preset).
    public let source: String

    public init(fileName: String, jsonText: String, source: String? = nil) {
        self.init(fileName: fileName, source: source) { jsonText }
    }

    /// A preset whose text is made when first read: a plug-in's programs, of which there may be
    /// thousands, each read from the plug-in, while a render asks only for their names.
    package init(fileName: String, source: String?, lazyText: @escaping @Sendable () -> String) {
        self.fileName = fileName
        self.text = Lazy(lazyText)
        self.source = source ?? "factory preset \(fileName)"
    }

    public static func == (a: FactoryPreset, b: FactoryPreset) -> Bool {
        a.fileName == b.fileName && a.source == b.source && a.jsonText == b.jsonText
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fileName)
        hasher.combine(source)
    }

    /// The factory presets of this build, sorted by file name.
    public static var all: [FactoryPreset] { embedded }


    /// The preset read from its text.
    public func decode(scope: PresetScope = .builtIn) throws(PresetError) -> (preset: Preset, warnings: [PresetWarning]) {
        try PresetCodec.decode(Array(jsonText.utf8), source: source, scope: scope)
    }
}
