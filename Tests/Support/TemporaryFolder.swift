import Foundation
import Testing

/// A fresh folder under the system's temporary folder, removed with everything in it when
/// the value goes away.
public final class TemporaryFolder {
    public let path: String

    public init() {
        var template = Array((NSTemporaryDirectory() + "detent-test-XXXXXX").utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// The names in the folder, hidden ones (temporary files) included, sorted. A folder that
    /// cannot be listed fails the test here, so that "nothing changed" is never two failed
    /// listings compared.
    public var names: [String] {
        do { return try folderContents(path) } catch {
            Issue.record("cannot list the test folder \(path): \(error)")
            return []
        }
    }

    /// Writes `bytes` to `name` in the folder and returns its path. A file that cannot be
    /// written fails the test here, rather than later as a puzzling "no such file" from the
    /// program under test.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let path = file(name)
        if !FileManager.default.createFile(atPath: path, contents: Data(bytes)) {
            Issue.record("cannot write the test file \(path)", sourceLocation: sourceLocation)
        }
        return path
    }

    /// Writes `text` as UTF-8 to `name` in the folder and returns its path.
    @discardableResult
    public func write(_ name: String, text: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        write(name, Array(text.utf8), sourceLocation: sourceLocation)
    }

    /// The bytes of `name` in the folder.
    public func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: file(name)))) }
}
