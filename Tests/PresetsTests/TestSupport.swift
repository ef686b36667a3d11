import Foundation
@testable import Presets

/// A fresh folder under the system's temporary directory, removed after `body`.
/// Every test that touches files works inside one, never in the real home or config folder.
func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("detent-presets-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

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

/// The names in a folder, sorted (hidden ones included: leftovers of a failed save would show).
func folderContents(_ path: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
}

/// Decodes preset JSON given as text.
func decode(_ text: String, source: String = "test.json") throws(PresetError) -> (preset: Preset, warnings: [PresetWarning]) {
    try PresetCodec.decode(Array(text.utf8), source: source)
}

/// The package's root folder, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
