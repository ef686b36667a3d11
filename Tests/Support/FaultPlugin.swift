import Foundation

/// The test plug-in that misbehaves on command (`Tests/JackHostTests/FaultPlugin/`: its source and description):
/// an LV2 bundle in a folder of its own, built once; its folder goes on `LV2_PATH`.
public enum FaultPlugin {
    public struct BuildFailed: Error, CustomStringConvertible { public let description: String }
    public static let uri = "urn:detent:test:faults"
    nonisolated(unsafe) static let folder = TemporaryFolder()

    public static let built: Result<String, BuildFailed> = {
        let bundle = folder.file("detent-faults.lv2")
        do {
            try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
            if let problem = try PluginCompiler.compile("Tests/JackHostTests/FaultPlugin/fault-plugin.c",
                                                        into: bundle + "/fault-plugin.so", optimization: "-O1") {
                return .failure(BuildFailed(description: problem))
            }
            // The description beside the source, shared with the Python tests.
            for name in ["manifest.ttl", "plugin.ttl"] {
                try FileManager.default.copyItem(atPath: packageRoot + "/Tests/JackHostTests/FaultPlugin/" + name,
                                                 toPath: bundle + "/" + name)
            }
            return .success(folder.path)
        } catch {
            return .failure(BuildFailed(description: "\(error)"))
        }
    }()
}

