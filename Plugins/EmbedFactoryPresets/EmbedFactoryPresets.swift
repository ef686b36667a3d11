import Foundation
import PackagePlugin

/// Compiles the factory presets (`Presets/*.json` at the package root) into the target as a
/// generated Swift source holding their text.
///
/// Embedding, rather than shipping a resource bundle, is what lets a copied `detent` binary
/// still find its factory presets: there is no bundle path to lose. The JSON files remain the
/// single source; the generated file is rebuilt whenever one of them changes, and adding or
/// removing a file changes the command's inputs, which reruns it.
@main
struct EmbedFactoryPresets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Presets", directoryHint: .isDirectory)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))) ?? []
        let inputs = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
            .map { folder.appending(path: $0, directoryHint: .notDirectory) }
        let output = context.pluginWorkDirectoryURL.appending(path: "FactoryPresetData.swift", directoryHint: .notDirectory)
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) factory presets",
                executable: try context.tool(named: "PresetEmbedder").url,
                arguments: [output.path(percentEncoded: false)] + inputs.map { $0.path(percentEncoded: false) },
                inputFiles: inputs,
                outputFiles: [output]),
        ]
    }
}
