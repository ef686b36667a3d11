import TextFormats
import Parameters
import AudioEngine
import OfflineRender
import Platform
import Synchronization

/// What the render command tells the user while and after files render: a progress line on
/// a terminal, then per file its warnings or its error (stderr) and its `--json` summary
/// (stdout), and for a batch (`--manifest`, `--variants`, `--shard`, `--skip-existing`) one
/// final count line.
///
/// Workers finish in any order; results are printed in the order of the jobs, each as soon
/// as every earlier job is done, so the output of a batch is the same from run to run.
/// One lock guards the state and both streams, so lines never interleave.
package final class RenderReport: Sendable {
    package struct Options {
        package var progress: Bool
        package var json: Bool
        /// Print the final count line.
        package var counts: Bool = false
        /// Where each file's JSON object goes (`--json`): stdout, or a caller's list.
        package var lines: @Sendable (String) -> Void = { Console.out($0) }
        /// Failures and warnings said on stderr too (a caller that collects the objects
        /// may have its own way of telling them).
        package var tells: Bool = true
    }

    private struct State {
        var outcomes: [RenderOutcome?]
        var nextToPrint = 0
        /// Done part of each file; nil while a stream of unknown length renders.
        var fractions: [Double?]
        var audioSeconds: [Double]
        var lastDraw: ContinuousClock.Instant?
        var lineShown = false
        var rendered = 0
        var failed = 0
        var skipped = 0
        /// Of those, the ones another run was rendering.
        var skippedElsewhere = 0
        /// Seconds of audio in the files rendered.
        var renderedAudio = 0.0
    }

    private let entries: [BatchEntry]
    /// The entries that render, for the progress line (skipped and failed ones take no time).
    private let renders: Int
    private let options: Options
    private let started = ContinuousClock.now
    private let state: Mutex<State>

    package init(entries: [BatchEntry], options: Options) {
        self.entries = entries
        self.options = options
        renders = entries.filter { if case .render = $0.action { true } else { false } }.count
        state = Mutex(State(
            outcomes: Array(repeating: nil, count: entries.count),
            fractions: entries.map { if case .render = $0.action { 0 } else { 1 } },
            audioSeconds: Array(repeating: 0, count: entries.count)))
    }

    /// A block of job `index` is done; redraws the progress line at most ten times a second.
    package func progress(_ index: Int, _ p: RenderProgress) {
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

    /// Job `index` finished, failed or was skipped; prints every result now in order.
    package func finished(_ index: Int, _ outcome: RenderOutcome) {
        state.withLock { s in
            s.outcomes[index] = outcome
            s.fractions[index] = 1
            switch outcome {
            case .rendered(let file):
                s.rendered += 1
                s.renderedAudio += file.duration
            case .failed: s.failed += 1
            case .skipped(let reason):
                s.skipped += 1
                if case .renderingElsewhere = reason { s.skippedElsewhere += 1 }
            }
            erase(&s)
            while s.nextToPrint < entries.count, let r = s.outcomes[s.nextToPrint] {
                emit(r, entry: entries[s.nextToPrint])
                s.nextToPrint += 1
            }
            if s.nextToPrint < entries.count && options.progress && renders > 0 { draw(&s, now: ContinuousClock.now) }
        }
    }

    /// Clears the progress line for good, and counts the batch's jobs (``Options/counts``).
    package func close() {
        state.withLock { s in
            erase(&s)
            guard options.counts else { return }
            let elapsed = (ContinuousClock.now - started).seconds
            let audio = s.renderedAudio
            var text = "\(entries.count) \(entries.count == 1 ? "file" : "files"): \(s.rendered) rendered"
            if s.skipped > s.skippedElsewhere { text += ", \(s.skipped - s.skippedElsewhere) skipped (output exists)" }
            if s.skippedElsewhere > 0 { text += ", \(s.skippedElsewhere) skipped (another run is rendering it)" }
            if s.failed > 0 { text += ", \(s.failed) failed" }
            let missing = entries.count - s.rendered - s.skipped - s.failed
            if missing > 0 { text += ", \(missing) not started" }
            text += " in \(Self.clock(elapsed))"
            if s.rendered > 0 && audio > 0 { text += ", \(Self.oneDecimal(audio / max(elapsed, 1e-6)))× real time" }
            Console.error(text)
        }
    }

    private func emit(_ outcome: RenderOutcome, entry: BatchEntry) {
        switch outcome {
        case .rendered(let file):
            if options.tells { for line in file.warnings { Console.warning(line) } }
            if options.json { options.lines(json(file.summary, entry: entry).compactText) }
        case .failed(let failure):
            if options.tells { Console.error(failure.description) }
            if options.json {
                options.lines(JSONValue.object(place(entry) + [
                    JSONMember("error", .string(failure.description)), JSONMember("exitCode", .number(failure.exitCode)),
                ]).compactText)
            }
        case .skipped(let reason):
            let elsewhere: [JSONMember] = if case .renderingElsewhere = reason { [JSONMember("renderingElsewhere", .bool(true))] } else { [] }
            if options.json { options.lines(JSONValue.object(place(entry) + [JSONMember("skipped", .bool(true))] + elsewhere).compactText) }
        }
    }

    /// A rendered file's summary, with the variant it is and the values drawn for it.
    private func json(_ summary: JSONValue, entry: BatchEntry) -> JSONValue {
        guard case .object(var members) = summary else { return summary }
        if let line = entry.line { members.append(JSONMember("line", .number(line.number))) }
        if let variant = entry.variant {
            members.append(JSONMember("variant", .number(variant.number)))
            members.append(JSONMember("values", .object(variant.values.map { JSONMember($0.id, .number($0.value)) })))
        }
        return .object(members)
    }

    /// Which job a line of `--json` is about: its files, and its manifest line.
    private func place(_ entry: BatchEntry) -> [JSONMember] {
        var members: [JSONMember] = []
        if let job = entry.job { members += [JSONMember("input", .string(job.input)), JSONMember("output", .string(job.output))] }
        if let line = entry.line { members += [JSONMember("manifest", .string(line.manifest)), JSONMember("line", .number(line.number))] }
        if let variant = entry.variant { members.append(JSONMember("variant", .number(variant.number))) }
        return members
    }

    private func draw(_ s: inout State, now: ContinuousClock.Instant) {
        let elapsed = max((now - started).seconds, 1e-6)
        let audio = s.audioSeconds.reduce(0, +)
        let speed = audio / elapsed
        let single = entries.count == 1 ? entries[0].job : nil
        var text = single.map { TerminalText.printable(PathString.name(of: $0.input)) }
            ?? "\(s.rendered + s.failed + s.skipped)/\(entries.count) files"
        if s.failed > 0 { text += ", \(s.failed) failed" }
        if single != nil && s.fractions[0] == nil {
            // A stream of unknown length: how much is done, not how much is left.
            text += "  \(Self.clock(audio)) rendered  \(Self.oneDecimal(speed))× real time"
        } else {
            // Skipped and failed jobs take no time: what is left is the rendering jobs' part.
            let done = s.fractions.indices.reduce(0.0) { sum, i in
                if case .render = entries[i].action { sum + (s.fractions[i] ?? 0) } else { sum }
            }
            let fraction = renders > 0 ? done / Double(renders) : 1
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

    package static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        let sec = s % 60
        return "\(s / 60):" + (sec < 10 ? "0" : "") + "\(sec)"
    }

    package static func oneDecimal(_ x: Double) -> String {
        guard x.isFinite else { return "–" }
        let tenths = Int((x * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
