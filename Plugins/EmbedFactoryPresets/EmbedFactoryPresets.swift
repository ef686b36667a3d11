import Foundation
import PackagePlugin

/// Compiles the factory presets (`Presets/*.json` at the package root) into the target as a
/// generated Swift source holding their text.
///
/// Embedding, rather than shipping a resource bundle, is what lets a copied `detent` binary
/// still find its factory presets: there is no bundle path to lose.
///
/// The JSON files stay the single source, so every change to them must reach the build.
/// SwiftPM plans plugin commands only when the package's structure changes, and `Presets/`
/// lies outside every target, so a file list taken here would go stale: a preset added later
/// would be missed and one removed would fail the build as a missing input. Instead the tool
/// reads the folder itself each time it runs, and it runs on every build: one of its inputs
/// is a stamp file it touches when done. It rewrites the generated source only when the text
/// changes, so an unchanged set of presets recompiles nothing.
@main
struct EmbedFactoryPresets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Presets", directoryHint: .isDirectory)
        let output = context.pluginWorkDirectoryURL.appending(path: "FactoryPresetData.swift", directoryHint: .notDirectory)
        let stamp = context.pluginWorkDirectoryURL.appending(path: "last-run.stamp", directoryHint: .notDirectory)
        // The stamp must exist before the first build, or it would be a missing input.
        if !FileManager.default.fileExists(atPath: stamp.path(percentEncoded: false)) {
            try FileManager.default.createDirectory(at: context.pluginWorkDirectoryURL, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: stamp.path(percentEncoded: false), contents: Data())
        }
        return [
            .buildCommand(
                displayName: "Embedding the factory presets",
                executable: try context.tool(named: "PresetEmbedder").url,
                arguments: [
                    output.path(percentEncoded: false), "--stamp", stamp.path(percentEncoded: false),
                    folder.path(percentEncoded: false),
                ],
                inputFiles: [folder, stamp],
                outputFiles: [output]),
        ]
    }
}
