import Platform
import Parameters
import Foundation
@testable import Presets

/// A store whose user folder is `root/detent/presets` (not created yet).
func makeStore(in root: String, factory: [FactoryPreset] = FactoryPreset.all, calls: any FileSystemCalls = SystemFileCalls()) -> PresetStore {
    PresetStore(userDirectory: root + "/detent/presets", factoryPresets: factory, calls: calls)
}

/// Writes `text` to `path`, creating the folders on the way.
func writeFile(_ text: String, to path: String) throws {
    try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

func readFile(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
}

/// Decodes preset JSON given as text.
func decode(_ text: String, source: String = "test.json") throws(PresetError) -> (preset: Preset, warnings: [PresetWarning]) {
    try PresetCodec.decode(Array(text.utf8), source: source)
}

extension Preset {
    /// A preset of the built-in processor at its table defaults.
    init(name: String, author: String? = nil, comment: String? = nil) {
        self.init(name: name, author: author, comment: comment, values: ParameterValues(table: LowpassGain.table))
    }
}
