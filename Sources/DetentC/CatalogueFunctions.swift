import PluginFormats
import RenderJobs
import TextFormats
import Rig

/// The rows `detent plugins --json` prints, one JSON object per line.
@_cdecl("detent_plugins")
public func detent_plugins(_ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                           _ rows: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    answer(error) {
        let (entries, problems) = InstalledPlugins.catalogue.installed()
        if let problem = problems.first { throw problem }
        rows.pointee = handed(entries.map { CatalogueListing.json($0).compactText }.joined(separator: "\n"))
    }
}

/// Detent's version, as `detent --version` prints it.
@_cdecl("detent_version")
public func detent_version() -> UnsafeMutablePointer<CChar>? { handed(DetentRelease.version) }
