import Foundation

/// The test CLAP plug-in that moves one of its own parameters (`Tests/BinaryFormatTests/Plugins/linked-clap.c`):
/// given a new `gain`, it sets `follow` to half of it and tells the host. Built once.
public enum LinkedPlugin {
    public struct BuildFailed: Error, CustomStringConvertible { public let description: String }
    nonisolated(unsafe) static let folder = TemporaryFolder()

    /// The `.clap` file's path, which `--plugin` takes.
    public static let built: Result<String, BuildFailed> = {
        let library = folder.file("detent-linked.clap")
        do {
            if let problem = try PluginCompiler.compile("Tests/BinaryFormatTests/Plugins/linked-clap.c", into: library,
                                                        optimization: "-O1", includes: [PluginCompiler.formatHeaders]) {
                return .failure(BuildFailed(description: problem))
            }
            return .success(library)
        } catch {
            return .failure(BuildFailed(description: "\(error)"))
        }
    }()
}
