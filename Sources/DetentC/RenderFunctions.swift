import RenderJobs
import Synchronization
import TextFormats

/// Renders files as `detent render --json` does, in this process: `request` is a JSON object
/// of the render's options by their Python names (`inputs`, and the keys
/// `detent_render_options` lists: `out_dir`, `plugins`, `sets`, `tail`, …), and `results`
/// receives the JSON object of each file, one per line, in the order of the inputs — a file
/// that failed has `error`. A problem that concerns every file (a bad option, an unknown
/// plug-in) fails the call.
@_cdecl("detent_render")
public func detent_render(_ request: UnsafePointer<CChar>, _ results: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                          _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    answer(error) {
        let options = try RenderOptions(request: String(cString: request))
        // Found first, so that a plug-in that is not installed is told as such, not as a
        // failed render.
        _ = try options.plugin.resolved()
        let lines = Mutex<[String]>([])
        _ = try options.run(arguments: nil, ownsProcess: false, lines: { line in lines.withLock { $0.append(line) } })
        results.pointee = handed(lines.withLock { $0 }.joined(separator: "\n"))
    }
}

/// `detent_render`, each file's JSON object handed to `line` as soon as it and every file
/// before it are done (the order of the inputs), with `context` — on a thread of the render's,
/// one call at a time — instead of all of them at the end: what a caller shows progress by.
/// The text is the callee's only during the call.
@_cdecl("detent_render_streaming")
public func detent_render_streaming(_ request: UnsafePointer<CChar>,
                                    _ line: @escaping @convention(c) (UnsafePointer<CChar>, UnsafeMutableRawPointer?) -> Void,
                                    _ context: UnsafeMutableRawPointer?,
                                    _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let receiver = LineReceiver(call: line, context: context)
    return answer(error) {
        let options = try RenderOptions(request: String(cString: request))
        _ = try options.plugin.resolved()
        _ = try options.run(arguments: nil, ownsProcess: false, lines: { text in receiver.send(text) })
    }
}

/// A caller's function for each line, and the pointer it gets back with each.
private struct LineReceiver: @unchecked Sendable {
    let call: @convention(c) (UnsafePointer<CChar>, UnsafeMutableRawPointer?) -> Void
    let context: UnsafeMutableRawPointer?

    func send(_ text: String) { text.withCString { call($0, context) } }
}

/// The keys `detent_render` takes, one per line, each with the kind of its value
/// (`out_dir text`, `jobs whole`, `plugins texts`, `force flag`): what Python's
/// `detent.render` allows, from the one table of render options.
@_cdecl("detent_render_options")
public func detent_render_options() -> UnsafeMutablePointer<CChar>? {
    handed((["inputs texts"] + RenderOption.all.compactMap { option in option.python.map { "\($0) \(option.kind.jsonName)" } })
        .joined(separator: "\n"))
}

