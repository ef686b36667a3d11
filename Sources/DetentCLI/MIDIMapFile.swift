import RenderJobs
import TextFormats
import OfflineRender
import Control
import Parameters
import Platform
import Presets
import Rig

/// A MIDI mapping file (`--midi-map FILE`, `midi save [FILE]`): the JSON document of
/// ``MIDIControls`` (the same one a preset's `midi` field and a saved session hold), written
/// atomically.
enum MIDIMapFile {
    /// The mapping in the file at `path`, for `table`.
    /// - Throws: one line naming the file, and the line and column of a syntax error or the
    ///   member at fault.
    static func read(_ path: String, table: ParameterTable) throws(UsageError) -> MIDIControls {
        let bytes: [UInt8]
        do {
            bytes = try BoundedFileReader.read(path: path, limit: PresetCodec.maximumFileSize)
        } catch .system(let code) {
            throw UsageError("--midi-map \(PresetName.printable(path)): cannot be read: \(code)")
        } catch {
            throw UsageError("--midi-map \(PresetName.printable(path)): larger than \(PresetCodec.maximumFileSize) bytes")
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw UsageError("--midi-map \(PresetName.printable(path)):\(error.line):\(error.column): \(error.message)")
        }
        do {
            return try MIDIControls(json: document, table: table)
        } catch {
            throw UsageError("--midi-map \(PresetName.printable(path)): \(error)")
        }
    }

    /// Writes `controls` to `path` (pretty JSON), atomically. A file that exists is replaced
    /// only when it is `own` (the `--midi-map` file, by whatever path it is named: the same
    /// file, not the same text): `midi save` never overwrites another.
    static func write(_ controls: MIDIControls, to path: String, own: String?) throws(UsageError) {
        let bytes = Array((JSONWriter.text(of: controls.json, pretty: true) + "\n").utf8)
        let isOwn = path == own || own.flatMap(FileIdentity.init(path:)).map { $0 == FileIdentity(path: path) } == true
        do {
            // Written where the --midi-map file is, so that a link to it stays a link.
            try AtomicFileWriter().write(bytes, to: isOwn ? own ?? path : path, replacing: isOwn)
        } catch {
            if case .fileExists = error.problem {
                throw UsageError("\(PresetName.printable(path)) exists: midi save replaces only the --midi-map file")
            }
            throw UsageError(error.description)
        }
    }
}
