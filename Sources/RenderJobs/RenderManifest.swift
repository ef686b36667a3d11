import TextFormats
import OfflineRender
import Parameters
import Platform

/// A job manifest (`--manifest FILE`, or `-` for stdin) read whole: JSON Lines, one object per
/// line, each one file to render (see ``ManifestFields``).
///
/// Blank lines are not jobs; every other line is one, in order, even when it is not valid
/// JSON: it then fails alone, reported with its line number, and keeps its place so that
/// `--shard` splits the same list whatever the lines hold.
///
/// ```
/// {"input": "takes/a.wav", "output": "out/a.flac", "set": ["cutoff=800"]}
/// {"input": "takes/b.wav", "output": "out/b.wav", "plugin": ["builtin", "http://drobilla.net/plugins/mda/Overdrive"]}
/// ```
package struct RenderManifest {
    /// The manifest as messages name it: its path, or `stdin`.
    package let name: String
    /// The folder relative paths in it are taken from: the manifest's own (the current
    /// folder for stdin), so a manifest and its files can move together.
    package let folder: String
    package let lines: [Line]

    /// One job: its line number (from 1) and its members, or why the line is not a job object.
    package struct Line {
        package let number: Int
        package let members: Result<[JSONMember], CommandFailure>
    }

    /// The most a manifest may hold: a million jobs of a few hundred bytes.
    package static let maximumSize = 1 << 30

    /// Reads `path` (`-`: stdin).
    ///
    /// - Throws: ``CommandFailure`` (74) when the file cannot be read; a bad line is no error here.
    package static func read(path: String) throws(CommandFailure) -> RenderManifest {
        let stdin = path == "-"
        let name = stdin ? "stdin" : path
        let bytes: [UInt8]
        do {
            bytes = try BoundedFileReader.read(path: stdin ? "/dev/stdin" : path, limit: maximumSize)
        } catch {
            let reason = switch error {
            case .system(let errno): errno.description
            case .tooLarge(let limit): "larger than \(limit >> 20) MB"
            }
            throw CommandFailure("--manifest \(name): cannot be read (\(reason))", exitCode: 74)
        }
        var lines: [Line] = []
        var number = 0
        for raw in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            var text = Array(raw)
            if text.last == UInt8(ascii: "\r") { text.removeLast() }
            if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            lines.append(Line(number: number, members: parse(text, manifest: name, line: number)))
        }
        return RenderManifest(name: name, folder: stdin ? "." : PathString.folder(of: path), lines: lines)
    }

    /// One line's object.
    package static func parse(_ text: [UInt8], manifest: String, line: Int) -> Result<[JSONMember], CommandFailure> {
        do {
            guard case .object(let members) = try JSONParser.parse(text) else {
                return .failure(CommandFailure("\(manifest):\(line): expected a JSON object with the job's input and output",
                                           exitCode: 65))
            }
            return .success(members)
        } catch {
            return .failure(CommandFailure("\(manifest):\(line): not JSON: column \(error.column): \(error.message)", exitCode: 65))
        }
    }

    /// `path` as it is opened from the current folder: an absolute path as it is, a relative
    /// one taken from the manifest's folder.
    package func resolve(_ path: String) -> String {
        path.hasPrefix("/") || folder == "." ? path : PathString.join(folder, path)
    }
}
