import TextFormats
import AudioEngine
import Parameters
import Platform
import Presets

/// What Detent keeps of a session for a session manager: `PATH/detent.json`, in the folder
/// the manager names. It holds a preset document — the processor (built-in, a plug-in's
/// URI, or the chain or graph as it was at the save), the values by id, the MIDI mapping in
/// the preset's `midi` field, and the plug-ins' states (in `PATH/detent.state/`, named
/// relative to the folder) — the OSC settings, and which plug-ins run in processes of their
/// own (`isolate`: `--isolate`'s plan, `null` for none; a file without it, from before it was
/// kept, takes the command line's). Connections are the session manager's to keep.
///
/// ```json
/// {"formatVersion": 1, "preset": {"formatVersion": 1, "name": "Mix", "values": {"cutoff": 800, …},
///  "midi": {"channel": null, "controllers": {"cutoff": 74}}}, "osc": {"port": 9000, "bind": "127.0.0.1"},
///  "isolate": "drive+eq,verb"}
/// ```
struct SessionFile {
    static let fileName = "detent.json"
    /// The folder beside the file holding the plug-ins' states and the files they hold.
    static let stateFolderName = "detent.state"
    static let formatVersion = 1

    var preset: Preset
    var osc: (port: Int, bind: String)?
    /// The sandbox plan (`each`, `together`, `drive+eq,verb`); `.some(nil)` for no isolation,
    /// nil when the file does not say.
    var isolate: String??

    static func path(in folder: String) -> String {
        (folder.hasSuffix("/") ? folder : folder + "/") + fileName
    }

    /// The file's bytes: pretty JSON, ending with a newline.
    var bytes: [UInt8] {
        var members = [
            JSONMember("formatVersion", .number(Self.formatVersion)),
            JSONMember("preset", PresetCodec.document(preset)),
        ]
        if let osc { members.append(JSONMember("osc", .object([JSONMember("port", .number(osc.port)), JSONMember("bind", .string(osc.bind))]))) }
        if let isolate { members.append(JSONMember("isolate", isolate.map { .string($0) } ?? .null)) }
        return Array((JSONWriter.text(of: .object(members), pretty: true) + "\n").utf8)
    }

    /// Writes the file in `folder` (made if missing), atomically: a crash leaves the old
    /// state or the new one, never half of one.
    func write(in folder: String) throws(SessionFileError) {
        do { try FolderEntries.makeOne(folder, mode: 0o755) } catch {
            throw SessionFileError("cannot make the session folder \(folder): \(error.errno)")
        }
        do {
            try AtomicFileWriter().write(bytes, to: Self.path(in: folder), replacing: true)
        } catch {
            throw SessionFileError(error.description)
        }
    }

    /// The session saved in `folder`, or nil when there is none yet (a new session).
    /// - Parameter scope: the preset scope of a processor identifier (resolving a plug-in).
    static func read(in folder: String,
                     scope: (String) throws(SessionFileError) -> PresetScope) throws(SessionFileError) -> SessionFile? {
        let path = Self.path(in: folder)
        let bytes: [UInt8]
        do {
            bytes = try BoundedFileReader.read(path: path, limit: PresetCodec.maximumFileSize)
        } catch .system(.noSuchFileOrDirectory) {
            return nil
        } catch {
            throw SessionFileError("\(path): cannot be read (\(error))")
        }
        let document: JSONValue
        do { document = try JSONParser.parse(bytes) } catch { throw SessionFileError("\(path): \(error)") }
        guard let presetDocument = document.member("preset") else { throw SessionFileError("\(path): no 'preset'") }
        let processor: String
        switch presetDocument.member("processor") {
        case nil: processor = Processor.lowpassGain.identifier
        case .string(let uri)?: processor = uri
        case let other?: throw SessionFileError("\(path): 'preset.processor' is \(other.kindDescription), not a string")
        }
        let presetScope = try scope(processor)
        let preset: Preset
        do {
            preset = try PresetCodec.decode(Array(presetDocument.compactText.utf8), source: path, scope: presetScope).preset
        } catch {
            throw SessionFileError(error.description)
        }
        var osc: (port: Int, bind: String)?
        if let settings = document.member("osc"), settings != .null {
            guard let port = settings.member("port")?.doubleValue.flatMap({ Int(exactly: $0) }), (0...65_535).contains(port),
                  case .string(let bind)? = settings.member("bind") else {
                throw SessionFileError("\(path): 'osc' needs a port 0…65535 and a bind address")
            }
            osc = (port, bind)
        }
        var isolate: String??
        switch document.member("isolate") {
        case nil: isolate = nil
        case .null?: isolate = .some(nil)
        case .string(let plan)?: isolate = .some(plan)
        case let other?: throw SessionFileError("\(path): 'isolate' is \(other.kindDescription), not a plan (each, together, SLOT+SLOT,SLOT) or null")
        }
        return SessionFile(preset: preset, osc: osc, isolate: isolate)
    }
}

struct SessionFileError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
