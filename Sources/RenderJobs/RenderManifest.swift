import TextFormats
import OfflineRender
import Parameters
import Platform
import Rig

/// A job manifest (`--manifest FILE`, or `-` for stdin), read as a stream: JSON Lines, one
/// object per line, each one file to render (see ``ManifestFields``).
///
/// Blank lines are not jobs; every other line is one, in order, even when it is not valid
/// JSON: it then fails alone, reported with its line number, and keeps its place so that
/// `--shard` splits the same list whatever the lines hold. The manifest is never held whole,
/// and a line is parsed only when its job is wanted: a shard of a million-line manifest keeps
/// its own jobs and passes over the others' lines at the cost of finding their ends.
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
    /// What is opened: the path, or `/dev/stdin`.
    private let file: String

    /// The longest line taken: a job of a few hundred bytes, a `set` list of thousands. A
    /// longer line is that job's error.
    package static let maximumLine = 16 << 20

    /// The manifest at `path` (`-`: stdin), not yet read.
    package init(path: String) {
        let stdin = path == "-"
        name = stdin ? "stdin" : path
        folder = stdin ? "." : PathString.folder(of: path)
        file = stdin ? "/dev/stdin" : path
    }

    /// Reads the manifest's jobs in order: `job` is called with each one's place in the list
    /// (from 0), its line number (from 1) and a way to parse its line, valid during the call
    /// only (a job another shard renders is never parsed).
    ///
    /// - Throws: ``CommandFailure`` (74) when the file cannot be read; a bad line is no error here.
    package func read(_ job: (_ place: Int, _ line: Int, _ members: () -> Result<[JSONMember], CommandFailure>) -> Void)
        throws(CommandFailure) {
        var place = 0
        do {
            try FileLines.read(path: file, maximumLength: Self.maximumLine) { number, line in
                switch line {
                case .tooLong:
                    job(place, number) {
                        .failure(CommandFailure("\(name):\(number): longer than \(Self.maximumLine >> 20) MB", exitCode: 65))
                    }
                case .text(let bytes):
                    guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return true }
                    job(place, number) { Self.parse(Array(bytes), manifest: name, line: number) }
                }
                place += 1
                return true
            }
        } catch {
            throw CommandFailure("--manifest \(name): cannot be read (\(error.errno))", exitCode: 74)
        }
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
