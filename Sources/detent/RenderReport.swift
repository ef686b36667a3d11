import Parameters
import DSP
import AudioFile
import Synchronization

/// What the render command tells the user while and after files render: a progress line on
/// a terminal, then per file its warnings or its error (stderr) and its `--json` summary
/// (stdout).
///
/// Workers finish in any order; results are printed in the order of the inputs, each as soon
/// as every earlier input is done, so the output of a batch is the same from run to run.
/// One lock guards the state and both streams, so lines never interleave.
final class RenderReport: Sendable {
    struct Options {
        var progress: Bool
        var json: Bool
    }

    private struct State {
        var results: [Result<RenderSummary, AudioFileError>?]
        var nextToPrint = 0
        /// Done part of each file; nil while a stream of unknown length renders.
        var fractions: [Double?]
        var audioSeconds: [Double]
        var lastDraw: ContinuousClock.Instant?
        var lineShown = false
    }

    private let jobs: [RenderJob]
    private let options: Options
    private let started = ContinuousClock.now
    private let state: Mutex<State>

    init(jobs: [RenderJob], options: Options) {
        self.jobs = jobs
        self.options = options
        state = Mutex(State(
            results: Array(repeating: nil, count: jobs.count),
            fractions: Array(repeating: 0, count: jobs.count),
            audioSeconds: Array(repeating: 0, count: jobs.count)))
    }

    /// A block of file `index` is done; redraws the progress line at most ten times a second.
    func progress(_ index: Int, _ p: RenderProgress) {
        guard options.progress else { return }
        state.withLock { s in
            s.fractions[index] = p.totalFrames.map { $0 > 0 ? Double(p.frames) / Double($0) : 1 }
            s.audioSeconds[index] = Double(p.frames) / Double(p.sampleRate)
            let now = ContinuousClock.now
            if s.lastDraw.map({ now - $0 >= .milliseconds(100) }) ?? true {
                s.lastDraw = now
                draw(&s, now: now)
            }
        }
    }

    /// File `index` finished (or failed); prints every result now in order.
    func finished(_ index: Int, _ result: Result<RenderSummary, AudioFileError>) {
        state.withLock { s in
            s.results[index] = result
            s.fractions[index] = 1
            erase(&s)
            while s.nextToPrint < jobs.count, let r = s.results[s.nextToPrint] {
                emit(r, job: jobs[s.nextToPrint])
                s.nextToPrint += 1
            }
            if s.nextToPrint < jobs.count && options.progress { draw(&s, now: ContinuousClock.now) }
        }
    }

    /// Clears the progress line for good.
    func close() {
        state.withLock { s in erase(&s) }
    }

    private func emit(_ result: Result<RenderSummary, AudioFileError>, job: RenderJob) {
        switch result {
        case .success(let summary):
            for line in summary.warnings { Console.warning(line) }
            if options.json { Console.out(summary.jsonLine) }
        case .failure(let error):
            Console.error(error.description)
            if options.json {
                Console.out(JSONValue.object([
                    JSONMember("input", .string(job.input)), JSONMember("output", .string(job.output)),
                    JSONMember("error", .string(error.description)), JSONMember("exitCode", .number(error.exitCode)),
                ]).compactText)
            }
        }
    }

    private func draw(_ s: inout State, now: ContinuousClock.Instant) {
        let elapsed = max((now - started).seconds, 1e-6)
        let audio = s.audioSeconds.reduce(0, +)
        let speed = audio / elapsed
        var text = jobs.count == 1 ? TerminalText.printable(PathString.name(of: jobs[0].input))
            : "\(s.results.lazy.filter { $0 != nil }.count)/\(jobs.count) files"
        if jobs.count == 1 && s.fractions[0] == nil {
            // A stream of unknown length: how much is done, not how much is left.
            text += "  \(Self.clock(audio)) rendered  \(Self.oneDecimal(speed))× real time"
        } else {
            let fraction = s.fractions.reduce(0) { $0 + ($1 ?? 0) } / Double(jobs.count)
            text += "  \(Int(fraction * 100))%  \(Self.oneDecimal(speed))× real time"
            if fraction > 0.001 { text += "  " + Self.clock(elapsed * (1 - fraction) / fraction) + " left" }
        }
        Console.raw("\r\u{1B}[K" + text)
        s.lineShown = true
    }

    private func erase(_ s: inout State) {
        if s.lineShown { Console.raw("\r\u{1B}[K") }
        s.lineShown = false
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        let sec = s % 60
        return "\(s / 60):" + (sec < 10 ? "0" : "") + "\(sec)"
    }

    static func oneDecimal(_ x: Double) -> String {
        guard x.isFinite else { return "–" }
        let tenths = Int((x * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
