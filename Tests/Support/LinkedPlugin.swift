import Foundation

/// The tests' plug-ins that move one of their own parameters, as CLAP and as VST2
/// (`Tests/BinaryFormatTests/Plugins/linked-clap.c`, `linked-vst2.c`): given a new `gain`, each
/// sets `follow` to half of it and tells the host. Built once each.
public enum LinkedPlugin {
    public struct BuildFailed: Error, CustomStringConvertible { public let description: String }
    nonisolated(unsafe) static let folder = TemporaryFolder()

    /// The `.clap` file's path, which `--plugin` takes.
    public static let clap: Result<String, BuildFailed> = build("linked-clap.c", as: "detent-linked.clap", includes: [])

    /// The VST2 library's path, built with Detent's VST2 declarations.
    public static let vst2: Result<String, BuildFailed> = build("linked-vst2.c", as: "detent-linked-vst2.so",
                                                                includes: [packageRoot + "/Sources/CVst2"])

    private static func build(_ source: String, as name: String, includes: [String]) -> Result<String, BuildFailed> {
        let library = folder.file(name)
        do {
            if let problem = try PluginCompiler.compile("Tests/BinaryFormatTests/Plugins/" + source, into: library,
                                                        optimization: "-O1", includes: includes + [PluginCompiler.formatHeaders]) {
                return .failure(BuildFailed(description: problem))
            }
            return .success(library)
        } catch {
            return .failure(BuildFailed(description: "\(error)"))
        }
    }
}
