import Foundation
import Testing
import TestSupport

/// The `detent` executable, run as a user would: arguments, standard input, exit status.
final class DetentProcess: Sendable {
    let child: ChildProcess

    /// Starts the built `detent` (``BuiltProducts/detent``); `environment` adds to (or
    /// replaces) variables of this process's.
    init(_ arguments: [String], environment extra: [String: String] = [:]) throws {
        let executable = try BuiltProducts.detent
        // User presets in a folder of this test's own, never the real ~/.config/detent.
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = NSTemporaryDirectory() + "detent-live-tests-\(getpid())"
        environment.merge(extra) { $1 }
        child = try ChildProcess(executable, arguments, environment: environment,
                                 stdin: .pipe, stdout: .pipe, stderr: .pipe)
    }

    /// Runs to the end with `stdin` as its whole input.
    static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws
        -> (status: Int32?, stdout: [String], stderr: [String])
    {
        let p = try DetentProcess(arguments, environment: environment)
        p.send(stdin)
        p.closeInput()
        return p.finish()
    }

    func send(_ text: String) { child.write(Array(text.utf8)) }
    func closeInput() { child.closeInput() }

    /// Waits for the exit and returns the exit status (nil when a signal ended it) and the
    /// lines written. The standard error lines leave out the server's xruns
    /// (``serverXrunWarning``): tests count Detent's own lines.
    func finish() -> (status: Int32?, stdout: [String], stderr: [String]) {
        let outcome = child.finish()
        func lines(_ text: String) -> [String] {
            text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
        return (outcome.status.exited, lines(outcome.stdoutText),
                lines(outcome.stderrText).filter { !$0.hasPrefix(serverXrunWarning) })
    }
}
