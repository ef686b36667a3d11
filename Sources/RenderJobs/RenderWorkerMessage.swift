import TextFormats
import OfflineRender
import Parameters

/// What a render worker process (``RenderWorker``) tells the batch that started it, one JSON
/// object a line: a job's progress, and how it ended.
///
/// A rendered job names its temporary file, complete and sealed, for the batch to give the
/// output's name: so an output appears only once the worker has released the plug-in and
/// said so, never when the worker dies on the way.
package enum RenderWorkerMessage: Sendable, Equatable {
    case progress(job: Int, RenderProgress)
    /// `temporary` is nil for a stream (stdout, a device), written in place.
    case rendered(job: Int, RenderedFile, temporary: String?)
    case failed(job: Int, description: String, exitCode: Int32)
    /// Sent after Ctrl-C or SIGTERM: the job was not begun (as a batch in one process begins
    /// no job after them).
    case notStarted(job: Int)

    /// The message as one line of JSON, without its line break.
    package var line: String {
        let value: JSONValue = switch self {
        case .progress(let job, let p):
            .object([JSONMember("job", .number(job)), JSONMember("frames", .number(p.frames)),
                     JSONMember("total", p.totalFrames.map { .number($0) } ?? .null), JSONMember("rate", .number(p.sampleRate))])
        case .rendered(let job, let file, let temporary):
            .object([JSONMember("job", .number(job)), JSONMember("summary", file.summary),
                     JSONMember("warnings", .array(file.warnings.map { .string($0) })),
                     JSONMember("duration", .number(file.duration)), JSONMember("temporary", .string(temporary))])
        case .failed(let job, let description, let exitCode):
            .object([JSONMember("job", .number(job)), JSONMember("error", .string(description)),
                     JSONMember("exitCode", .number(exitCode))])
        case .notStarted(let job):
            .object([JSONMember("job", .number(job)), JSONMember("notStarted", .bool(true))])
        }
        return value.compactText
    }

    /// The message a line holds, or nil for one that is not a message.
    package init?(line: [UInt8]) {
        guard let value = try? JSONParser.parse(line), let job = value.member("job")?.doubleValue.flatMap(Int.init(exactly:))
        else { return nil }
        if let summary = value.member("summary") {
            guard case .array(let items)? = value.member("warnings"), let duration = value.member("duration")?.doubleValue
            else { return nil }
            let warnings = items.compactMap { if case .string(let text) = $0 { text } else { nil } }
            var temporary: String?
            if case .string(let path)? = value.member("temporary") { temporary = path }
            self = .rendered(job: job, RenderedFile(summary: summary, warnings: warnings, duration: duration), temporary: temporary)
        } else if value.member("notStarted") == .bool(true) {
            self = .notStarted(job: job)
        } else if case .string(let description)? = value.member("error") {
            let code = value.member("exitCode")?.doubleValue.flatMap(Int32.init(exactly:)) ?? 70
            self = .failed(job: job, description: description, exitCode: code)
        } else {
            guard let frames = value.member("frames")?.doubleValue.flatMap(Int64.init(exactly:)),
                  let rate = value.member("rate")?.doubleValue.flatMap(Int.init(exactly:)) else { return nil }
            let total = value.member("total")?.doubleValue.flatMap(Int64.init(exactly:))
            self = .progress(job: job, RenderProgress(frames: frames, totalFrames: total, sampleRate: rate))
        }
    }
}
