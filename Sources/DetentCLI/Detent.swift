import ArgumentParser
import Platform
import RenderJobs

/// The `detent` command: a real-time-safe audio parameter host. The commands live in this
/// library so that tests can reach them in process; the `detent` executable only calls
/// ``main()``.
package struct Detent: ParsableCommand {
    static let version = DetentRelease.version

    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "detent",
        abstract: "A real-time-safe audio parameter host: its own lowpass and gain, LV2, LADSPA, DSSI, CLAP, VST3 and VST2 plug-ins and chains of them, driven like knobs on a synth.",
        discussion: """
            Detent runs one engine — the built-in resonant lowpass and gain, an installed LV2, \
            LADSPA or DSSI plug-in, or several in series (--plugin repeated) — with every \
            parameter smoothed, live through JACK or offline over audio files, sample for \
            sample the same. `man detent` (or `man -l docs/detent.1` in the source tree) has \
            every command and option on one page.
            """,
        version: version,
        subcommands: [ParamsCommand.self, PluginsCommand.self, RenderCommand.self, LiveCommand.self, PanelCommand.self, PresetCommand.self, MIDICommand.self,
                      SlotCommand.self, ScanCommand.self, WordsCommand.self]
    )

    /// Parses the command line and runs the command. Help, `--version` and completion scripts
    /// print as ArgumentParser writes them (status 0). Every other failure is at most one line
    /// on stderr, `detent: …`, the way commands report their own problems: a usage error
    /// (an unknown option or subcommand, a missing or malformed value, a failed `validate()`)
    /// exits 64 without ArgumentParser's usage block; an `ExitCode` thrown by a command has
    /// already said why, and exits with its status. A command's own failures
    /// (``ExitStatusError``) are said here, once, and exit with their status.
    ///
    /// A plain `render` line is read without ArgumentParser (``PlainRenderArguments``): a
    /// script calling Detent once per file pays for no reflection.
    package static func main() {
        do {
            if let options = PlainRenderArguments.options(from: Array(CommandLine.arguments.dropFirst())) {
                return try RenderCommand.render(options)
            }
            var command = try parseAsRoot(spellingOut(Array(CommandLine.arguments.dropFirst())))
            try command.run()
        } catch {
            let (line, status) = report(error)
            if status == .success { exit(withError: error) }
            if !line.isEmpty { Console.error(line) }
            exit(withError: status)
        }
    }

    /// `arguments` with `--isolate=MODE` spelled out as the flag and its plan (`--isolate
    /// --isolate-plan MODE`): a flag that may take a value, which the argument parser has no
    /// kind for. Words after `--` are left as they are.
    static func spellingOut(_ arguments: [String]) -> [String] {
        var words: [String] = []
        for (i, word) in arguments.enumerated() {
            if word == "--" { return words + arguments[i...] }
            if word.hasPrefix("--isolate=") {
                words += ["--isolate", "--isolate-plan", String(word.dropFirst("--isolate=".count))]
            } else {
                words.append(word)
            }
        }
        return words
    }

    /// The line `main` prints for `error` (empty when it has been said) and the status it
    /// exits with.
    static func report(_ error: any Error) -> (line: String, status: ExitCode) {
        if let failure = error as? any ExitStatusError { return (errorLine(failure.description), ExitCode(failure.exitCode)) }
        // A status a command chose has been said; ArgumentParser would build its help to learn so.
        if let code = error as? ExitCode { return ("", code) }
        return (errorLine(message(for: error)), exitCode(for: error))
    }

    /// A message as one line: ArgumentParser's are one line today, but a line break must not
    /// split the one error line.
    static func errorLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline)
            .map { $0.drop(while: \.isWhitespace) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
    }
}
