import Foundation

/// The test plug-in that misbehaves on command (`Tests/JackHostTests/FaultPlugin/fault-plugin.c`):
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
            try """
                @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
                @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
                <\(uri)> a lv2:Plugin ; lv2:binary <fault-plugin.so> ; rdfs:seeAlso <plugin.ttl> .

                """.write(toFile: bundle + "/manifest.ttl", atomically: true, encoding: .utf8)
            try """
                @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
                @prefix doap: <http://usefulinc.com/ns/doap#> .
                <\(uri)> a lv2:Plugin ;
                    doap:name "Detent Faults" ;
                    lv2:port [ a lv2:AudioPort, lv2:InputPort ; lv2:index 0 ; lv2:symbol "in" ; lv2:name "In" ] ,
                             [ a lv2:AudioPort, lv2:OutputPort ; lv2:index 1 ; lv2:symbol "out" ; lv2:name "Out" ] ,
                             [ a lv2:ControlPort, lv2:InputPort ; lv2:index 2 ; lv2:symbol "gain" ; lv2:name "Gain" ;
                               lv2:default 1 ; lv2:minimum 0 ; lv2:maximum 1 ] ,
                             [ a lv2:ControlPort, lv2:InputPort ; lv2:index 3 ; lv2:symbol "fault" ; lv2:name "Fault" ;
                               lv2:portProperty lv2:integer ; lv2:default 0 ; lv2:minimum 0 ; lv2:maximum 4 ] .

                """.write(toFile: bundle + "/plugin.ttl", atomically: true, encoding: .utf8)
            return .success(folder.path)
        } catch {
            return .failure(BuildFailed(description: "\(error)"))
        }
    }()
}

