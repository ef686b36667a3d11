import TextFormats
import Parameters

/// What the audit's child wrote, read: the unsafe calls the RealtimeSanitizer runtime
/// reported, grouped by kind, and how much audio the child ran.
///
/// The runtime reports each distinct call stack once (`suppress_equal_stacks`), so a call the
/// plug-in makes in every `run()` costs one report, not thousands; its exit statistics give
/// the count of every unsafe call.
struct RealtimeAuditReport {
    /// What kind of real-time hazard a call is.
    enum Kind: String, CaseIterable, Comparable {
        /// Takes or gives back memory: the allocator may lock, and a fresh page faults.
        case allocation
        /// Waits for, or wakes, another thread: a mutex, a read-write or spin lock, a
        /// condition variable.
        case lock
        /// Anything else the runtime intercepts: file and socket I/O, sleeping, threads,
        /// other system calls.
        case blockingCall = "blocking call"

        static func < (a: Kind, b: Kind) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }

        /// The kind of the intercepted function `name`.
        init(function name: String) {
            if Self.allocating.contains(name) {
                self = .allocation
            } else if name.hasPrefix("pthread_mutex_") || name.hasPrefix("pthread_rwlock_")
                        || name.hasPrefix("pthread_spin_") || name.hasPrefix("pthread_cond_") {
                self = .lock
            } else {
                self = .blockingCall
            }
        }

        private static let allocating: Set<String> = [
            "malloc", "calloc", "realloc", "reallocf", "free", "free_sized", "free_aligned_sized",
            "posix_memalign", "aligned_alloc", "memalign", "valloc", "pvalloc",
            "mmap", "mmap64", "munmap", "mremap",
        ]
    }

    /// One intercepted function and when it was seen.
    struct Finding: Equatable {
        var function: String
        var kind: Kind
        var inFirstBlock = false
        var afterFirstBlock = false
        /// Distinct call stacks that reached it.
        var stacks = 0
        /// The first of them, as the runtime printed it (``RealtimeAuditStacks`` names it).
        var stack: [RealtimeAuditStacks.Frame] = []
    }

    /// In order of first report.
    private(set) var findings: [Finding] = []
    /// Blocks and frames the child ran, when it finished.
    private(set) var blocks: Int?
    private(set) var frames = 0
    private(set) var playedNotes = false
    /// The time limit, in seconds, that stopped the run before all its audio (0: none did).
    private(set) var stoppedAt = 0
    /// Every unsafe call, from the runtime's exit statistics (0 when it printed none).
    private(set) var unsafeCalls = 0
    /// The child's own error line (`detent: …`), if it wrote one.
    private(set) var errorLine: String?
    /// The last lines of other output (the plug-in's own messages), for a crash report.
    private(set) var otherLines: [String] = []

    var finished: Bool { blocks != nil }
    var isSafe: Bool { findings.isEmpty && unsafeCalls == 0 }

    init(output: String) {
        var later = false
        // The finding whose first stack the next frame lines are.
        var collecting: Int?
        for raw in output.split(whereSeparator: \.isNewline) {
            let line = String(raw)
            if let c = collecting, let frame = RealtimeAuditStacks.frame(in: line) {
                findings[c].stack.append(frame)
                continue
            }
            collecting = nil
            if let name = Self.interceptedFunction(in: line) {
                if let i = findings.firstIndex(where: { $0.function == name }) {
                    findings[i].stacks += 1
                    if later { findings[i].afterFirstBlock = true } else { findings[i].inFirstBlock = true }
                } else {
                    findings.append(Finding(function: name, kind: Kind(function: name), inFirstBlock: !later,
                                            afterFirstBlock: later, stacks: 1))
                    collecting = findings.count - 1
                }
            } else if line == RealtimeAuditRun.Marker.laterBlocks {
                later = true
            } else if line.hasPrefix(RealtimeAuditRun.Marker.done) {
                for field in line.split(separator: " ") {
                    let pair = field.split(separator: "=", maxSplits: 1)
                    guard pair.count == 2, let value = Int(pair[1]) else { continue }
                    switch pair[0] {
                    case "blocks": blocks = value
                    case "frames": frames = value
                    case "notes": playedNotes = value != 0
                    case "stopped": stoppedAt = value
                    default: break
                    }
                }
            } else if let range = line.firstRange(of: "Total error count: ") {
                unsafeCalls = max(unsafeCalls, Int(line[range.upperBound...].trimmingPrefix(" ")) ?? 0)
            } else if line.hasPrefix("detent: ") {
                errorLine = errorLine ?? String(line.dropFirst("detent: ".count))
            } else if !Self.isRuntimeLine(line) {
                otherLines.append(line)
                if otherLines.count > 3 { otherLines.removeFirst() }
            }
        }
    }

    /// The function named in a report's headline: "Intercepted call to real-time unsafe
    /// function `malloc` in real-time context!", or "Call to blocking function `f` …" for a
    /// function its library marks blocking.
    static func interceptedFunction(in line: String) -> String? {
        guard line.contains("real-time context"),
              let open = line.firstIndex(of: "`") else { return nil }
        let rest = line[line.index(after: open)...]
        guard let close = rest.firstIndex(of: "`") else { return nil }
        let name = String(rest[..<close])
        return name.isEmpty ? nil : name
    }

    /// The rest of a report: its header, stack frames, summary and statistics.
    private static func isRuntimeLine(_ line: String) -> Bool {
        line.isEmpty || line.hasPrefix("==") || line.hasPrefix("    ") || line.hasPrefix("SUMMARY: ")
            || line.hasPrefix("RealtimeSanitizer") || line.hasPrefix("WARNING: ")
    }

    /// The findings of each kind, kinds in order, functions in order of first report.
    var byKind: [(kind: Kind, findings: [Finding])] {
        Kind.allCases.compactMap { kind in
            let found = findings.filter { $0.kind == kind }
            return found.isEmpty ? nil : (kind, found)
        }
    }

    /// One line per kind: `allocation: malloc, free (first block and after)`.
    var kindLines: [String] {
        byKind.map { kind, found in
            let first = found.contains(where: \.inFirstBlock), after = found.contains(where: \.afterFirstBlock)
            let when = first && after ? "first block and after" : first ? "first block only" : "after the first block"
            return "\(kind.rawValue): \(found.map(\.function).joined(separator: ", ")) (\(when))"
        }
    }

    /// ``kindLines``, each followed by the first stack of each of its functions, named
    /// (`stacks[f]`: the lines of the function `f`'s stack, innermost first):
    /// `  malloc: run_allocates (audit-plugins.so) ← detent_lv2_run (PluginKernel.c:430)`.
    func kindLines(stacks: [String: [String]]) -> [String] {
        zip(kindLines, byKind).flatMap { line, group in
            [line] + group.findings.compactMap { finding in
                stacks[finding.function].flatMap { $0.isEmpty ? nil : "  \(finding.function): " + $0.joined(separator: " ← ") }
            }
        }
    }

    /// The run's extent: `750 blocks of 256 frames, 4 s of audio at 48 kHz, controls moving`;
    /// a plug-in too slow for the time limit ran less audio, and the extent says so.
    var extent: String {
        let seconds = Double(frames) / RealtimeAuditRun.sampleRate
        return "\(blocks ?? 0) blocks of \(RealtimeAuditRun.blockFrames) frames, "
            + "\(Self.format(seconds)) s of audio at \(Self.format(RealtimeAuditRun.sampleRate / 1000)) kHz"
            + (stoppedAt > 0 ? " before the \(stoppedAt) s time limit" : "") + ", controls moving"
            + (playedNotes ? ", notes playing" : "")
    }

    /// A number with at most two decimals and no trailing zeros.
    static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// The whole result as one JSON object.
    func json(uri: String, name: String, stacks: [String: [String]] = [:]) -> JSONValue {
        .object([
            JSONMember("plugin", .string(uri)),
            JSONMember("name", .string(name)),
            JSONMember("safe", .bool(isSafe)),
            JSONMember("blocks", .number(blocks ?? 0)),
            JSONMember("blockFrames", .number(RealtimeAuditRun.blockFrames)),
            JSONMember("seconds", .number(Double(frames) / RealtimeAuditRun.sampleRate, places: 3)),
            JSONMember("notes", .bool(playedNotes)),
            JSONMember("stoppedAtTimeLimit", .bool(stoppedAt > 0)),
            JSONMember("unsafeCalls", .number(unsafeCalls)),
            JSONMember("findings", .array(findings.map { finding in
                .object([
                    JSONMember("kind", .string(finding.kind.rawValue)),
                    JSONMember("function", .string(finding.function)),
                    JSONMember("firstBlock", .bool(finding.inFirstBlock)),
                    JSONMember("afterFirstBlock", .bool(finding.afterFirstBlock)),
                    JSONMember("stacks", .number(finding.stacks)),
                    JSONMember("stack", .array((stacks[finding.function] ?? []).map { .string($0) })),
                ])
            })),
        ])
    }
}
