import Foundation

/// The names in the folder at `path`, sorted, hidden ones included (a failed save's leftover
/// temporary file must show). Throws when the folder cannot be listed — a folder that is gone
/// is never taken for an empty one.
public func folderContents(_ path: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
}
