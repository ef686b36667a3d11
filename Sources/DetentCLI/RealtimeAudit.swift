import RenderJobs
import ArgumentParser
import AudioEngine
import Platform
import LV2
import Rig

/// `detent plugins --check URI|NAME`: runs a plug-in's `run()` (LV2, LADSPA or DSSI) under clang's
/// RealtimeSanitizer and says whether it allocated, locked or made a blocking call.
///
/// Detent's own render path is proven free of those by the compiler; a plug-in's `run()` is
/// the one call it cannot see into. The audit runs Detent itself again as a child
/// (``RealtimeAuditRun``) with the sanitizer runtime preloaded (``SanitizerRuntime``), reads
/// the reports it writes (``RealtimeAuditReport``), and prints one line per kind of hazard, or
/// that the plug-in was real-time safe in this run. A child keeps a plug-in that crashes or
/// hangs from taking the audit down with it.
///
/// Exit status: 0 safe in this run, 1 unsafe calls found, 70 the plug-in crashed or hung,
/// 69 no sanitizer runtime, 64/65 a plug-in that cannot be found or hosted.
enum RealtimeAudit {
    /// The runtime's settings: keep going after a report, report each call stack once, count
    /// every call, print no symbols (the function a report names needs none, and finding
    /// them costs time), and let a crash end the child by its signal — with Swift's crash
    /// backtracer off too, whose work on the audio thread would be reported as the plug-in's.
    static let sanitizerOptions = [
        "halt_on_error=false", "suppress_equal_stacks=true", "print_stats_on_exit=true", "symbolize=false",
        "color=never", "handle_segv=0", "handle_sigbus=0", "handle_abort=0", "handle_sigfpe=0", "handle_sigill=0",
    ].joined(separator: ":")

    static func check(_ text: String, seconds: Double, json: Bool) throws {
        // Any format: an LV2 URI, `ladspa:ID:LABEL`, `dssi:ID:LABEL`, a name.
        let plugin = try InstalledPlugins.catalogue.find(text)
        _ = try plugin.processor()
        let runtime: String
        do {
            runtime = try SanitizerRuntime.path()
        } catch {
            throw CommandFailure(error.description, exitCode: 69)
        }
        guard let detent = PathString.resolved("/proc/self/exe") else {
            throw CommandFailure("cannot find Detent's own executable (/proc/self/exe)", exitCode: 70)
        }
        // The child stops itself after `wallLimit` (a plug-in slower than the sanitizer can
        // keep up with); this process kills it a while after that (a plug-in that hangs).
        let wallLimit = 10 + 2 * seconds
        let outcome: ChildProgram.Outcome
        do {
            outcome = try ChildProgram.run(
                detent, ["plugins", "--audit-child", plugin.identifier, "--seconds", "\(seconds)", "--wall-limit", "\(wallLimit)"],
                environment: ["LD_PRELOAD": runtime, "RTSAN_OPTIONS": sanitizerOptions, "SWIFT_BACKTRACE": "enable=no"],
                timeLimit: .seconds(wallLimit + 20))
        } catch {
            throw CommandFailure("cannot start the audit of \(plugin.name): \(error)", exitCode: 70)
        }
        let report = RealtimeAuditReport(output: outcome.text)
        let named = RealtimeAuditStacks.named(report.findings.map(\.stack))
        let stacks = Dictionary(uniqueKeysWithValues: zip(report.findings.map(\.function), named))
        if outcome.status == .exited(0) && report.finished {
            if json {
                Console.out(report.json(uri: plugin.identifier, name: plugin.name, stacks: stacks).compactText)
            } else if report.isSafe {
                Console.out("\(plugin.name): real-time safe in this run (\(report.extent))")
            } else {
                for line in report.kindLines(stacks: stacks) { Console.out(line) }
                let calls = max(report.unsafeCalls, report.findings.count)
                Console.out("\(plugin.name): not real-time safe: \(calls) unsafe \(calls == 1 ? "call" : "calls") "
                            + "in this run (\(report.extent))")
            }
            if !report.isSafe { throw ExitCode(1) }
            return
        }
        // The child did not finish: say why in one line, after what it had found by then.
        if !json { for line in report.kindLines(stacks: stacks) { Console.out(line) } }
        if outcome.timedOut {
            throw CommandFailure("\(plugin.name) did not finish \(RealtimeAuditReport.format(seconds)) s of audio within "
                                 + "\(RealtimeAuditReport.format(wallLimit + 20)) s: it hung, in run() or around it", exitCode: 70)
        }
        switch outcome.status {
        case .signaled(let signal):
            let name = Signals.name(of: signal)
            throw CommandFailure("\(plugin.name) crashed during the audit (\(name), signal \(signal))"
                                 + (report.otherLines.last.map { "; its last message: \($0)" } ?? ""), exitCode: 70)
        case .exited(let status):
            if let line = report.errorLine { throw CommandFailure(line, exitCode: status == 0 ? 70 : status) }
            throw CommandFailure("the audit of \(plugin.name) ended early (exit status \(status))"
                                 + (report.otherLines.last.map { "; its last message: \($0)" } ?? ""), exitCode: 70)
        }
    }
}
