import Foundation

/// The package's root folder, found from this file's path (`Tests/Support/PackageRoot.swift`),
/// so tests read the package's own files (`Presets/`, golden screens) from wherever they run.
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path
