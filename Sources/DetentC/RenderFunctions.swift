import RenderJobs
import Synchronization
import TextFormats

/// Renders files as `detent render --json` does, in this process: `request` is a JSON object
/// of the render's options by their Python names (`inputs`, `out_dir`, `output`, `plugins`,
/// `chain`, `graph`, `sidechains`, `named_inputs`, `preset`, `sets`, `automation`, `midi`, `bpm`, `tail`, `format`, `subtype`,
/// `normalize`, `jobs`, `block`, `rate`, `channels`, `force`), and `results` receives the JSON object of each
/// file, one per line, in the order of the inputs — a file that failed has `error`. A
/// problem that concerns every file (a bad option, an unknown plug-in) fails the call.
@_cdecl("detent_render")
public func detent_render(_ request: UnsafePointer<CChar>, _ results: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                          _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    answer(error) {
        let options = try RenderRequest.options(String(cString: request))
        // Found first, so that a plug-in that is not installed is told as such, not as a
        // failed render.
        _ = try options.plugin.resolved()
        let lines = Mutex<[String]>([])
        _ = try options.run(arguments: nil, ownsProcess: false, lines: { line in lines.withLock { $0.append(line) } })
        results.pointee = handed(lines.withLock { $0 }.joined(separator: "\n"))
    }
}

/// A render's options from the JSON a caller sends.
enum RenderRequest {
    static func options(_ text: String) throws -> RenderOptions {
        guard case .object(let members) = try JSONParser.parse(Array(text.utf8)) else {
            throw CallFailure(.badValue, "render: the request is not a JSON object")
        }
        var options = RenderOptions()
        options.json = true
        options.quiet = true
        func string(_ key: String, _ value: JSONValue) throws -> String {
            switch value {
            case .string(let text): return text
            case .number(let text): return text
            default: throw CallFailure(.badValue, "\(key): expected a string, not \(value.kindDescription)")
            }
        }
        func strings(_ key: String, _ value: JSONValue) throws -> [String] {
            guard case .array(let items) = value else { return [try string(key, value)] }
            return try items.map { try string(key, $0) }
        }
        func whole(_ key: String, _ value: JSONValue) throws -> Int {
            guard case .number(let digits) = value, let number = Int(digits) else {
                throw CallFailure(.badValue, "\(key): expected a whole number, not \(value.kindDescription)")
            }
            return number
        }
        for member in members {
            let key = member.key, value = member.value
            if case .null = value { continue }
            switch key {
            case "inputs": options.inputs = try strings(key, value)
            case "out_dir": options.outDir = try string(key, value)
            case "output": options.output = try string(key, value)
            case "plugins": options.plugin.plugins = try strings(key, value)
            case "chain": options.plugin.chain = try string(key, value)
            case "graph": options.plugin.graph = try string(key, value)
            case "sidechains": options.sidechains = try strings(key, value)
            case "named_inputs": options.namedInputs = try strings(key, value)
            case "preset": options.starting.preset = try string(key, value)
            case "sets": options.starting.sets = try strings(key, value)
            case "automation": options.automation = try string(key, value)
            case "midi": options.midi = try string(key, value)
            case "bpm":
                guard let bpm = value.doubleValue else { throw CallFailure(.badValue, "bpm: expected a number") }
                options.bpm = bpm
            case "tail": options.tail = try string(key, value)
            case "format": options.format = try string(key, value)
            case "subtype": options.subtype = try string(key, value)
            case "normalize": options.normalize = try string(key, value)
            case "jobs": options.jobs = try whole(key, value)
            case "block": options.kernelFrames = try whole(key, value)
            case "rate": options.rate = try whole(key, value)
            case "channels": options.channels = try whole(key, value)
            case "force":
                guard case .bool(let flag) = value else { throw CallFailure(.badValue, "force: expected True or False") }
                options.force = flag
            default: throw CallFailure(.badValue, "render: unknown option '\(key)'")
            }
        }
        if options.inputs.isEmpty && options.midi == nil { throw CallFailure(.badValue, "render: no input files") }
        return options
    }
}
