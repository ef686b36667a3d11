import OfflineRender
import Foundation
import Testing
import TestSupport

/// Every usage error of every command is told the same way: one line on stderr, `detent: …`,
/// naming the problem, nothing on stdout, status 64 (EX_USAGE), nothing written. Help and
/// completion scripts are unchanged.
@Suite("detent: usage errors")
struct UsageErrorTests {
    /// A folder with one good input, so that only the usage error can fail the command.
    static func scene() -> TemporaryFolder {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([Signal.noise(frames: 1_000, seed: 1)]))
        return folder
    }

    /// `live` is pointed at a server that does not exist, so that an invocation which wrongly
    /// passes the checks fails on the server instead of joining a real one.
    static let live = ["live", "--server", "detent-test-absent", "--headless"]

    @Test("one line naming the problem, status 64", arguments: [
        // No or unknown subcommand or option.
        (["frobnicate"], "'frobnicate'"),
        (["--bogus"], "'--bogus'"),
        (["render", "in.wav", "--bogus"], "'--bogus'"),
        // An unknown option with a value is the unknown option, not a second input.
        (["render", "in.wav", "--tempo", "120", "-o", "x.wav"], "'--tempo'"),
        (["params", "--bogus"], "'--bogus'"),
        (["params", "extra"], "'extra'"),
        (["panel", "--bogus"], "'--bogus'"),
        (["panel", "extra"], "'extra'"),
        (["preset", "frobnicate"], "'frobnicate'"),
        (["preset", "list", "--bogus"], "'--bogus'"),
        (live + ["--bogus"], "'--bogus'"),
        // A missing argument or option value.
        (["render"], "no input files"),
        (["render", "in.wav", "--jobs"], "--jobs"),
        (["render", "in.wav", "--format"], "--format"),
        (["panel", "--preset"], "--preset"),
        (["preset", "show"], "'<name>'"),
        (["preset", "save"], "'<name>'"),
        (["preset", "delete"], "'<name>'"),
        (["preset", "import"], "'<file>'"),
        (["preset", "export"], "'<name>'"),
        (live + ["--channels"], "--channels"),
        // A malformed number.
        (["render", "in.wav", "--jobs", "abc"], "'abc'"),
        (["render", "in.wav", "--jobs", "2.5"], "'2.5'"),
        (live + ["--channels", "two"], "'two'"),
        (live + ["--smoothing", "soon"], "'soon'"),
        // A number or name out of range.
        (["render", "in.wav", "--jobs", "0"], "--jobs 0"),
        (["render", "in.wav", "--io-threads", "3"], "--io-threads 3"),
        (["render", "in.wav", "--block-frames", "0"], "--block-frames 0"),
        (["render", "in.wav", "--format", "flacc"], "--format 'flacc'"),
        (["render", "in.wav", "--subtype", "pcm12"], "--subtype 'pcm12'"),
        (live + ["--channels", "0"], "0"),
        (live + ["--midi-channel", "17"], "'17'"),
        (["preset", "save", "X", "--set", "gain"], "'gain'"),
        // Options that contradict each other.
        (["render", "in.wav", "-o", "a.wav", "--out-dir", "."], "--out-dir"),
        (["render", "in.wav", "in.wav", "-o", "a.wav"], "-o"),
        (live + ["--no-midi", "--midi-cc", "gain=7"], "--no-midi"),
        (live + ["--osc", "70000"], "--osc 70000"),
        (live + ["--osc", "9000", "--osc-bind", "localhost"], "--osc-bind 'localhost'"),
    ] as [([String], String)])
    func badInvocation(arguments: [String], names: String) throws {
        let folder = Self.scene()
        let before = folder.names
        let outcome = try Detent.run(arguments, in: folder.path)
        let lines = outcome.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(outcome.status == 64)
        #expect(lines.count == 2 && lines.last == "", "exactly one line: \(outcome.stderr)")
        #expect(lines.first?.hasPrefix("detent: ") == true)
        #expect(lines.first?.contains(names) == true, "names the problem: \(outcome.stderr)")
        #expect(!outcome.stderr.contains("Usage:") && !outcome.stderr.contains("Help:"))
        #expect(outcome.stdout == "")
        #expect(folder.names == before)
    }

    @Test("help still prints on stdout with status 0", arguments: [
        ["--help"], ["-h"], ["help"], ["help", "render"], ["render", "--help"], ["params", "--help"],
        ["panel", "--help"], ["preset", "--help"], ["preset", "save", "--help"], ["preset"],
        live + ["--help"],
    ])
    func help(arguments: [String]) throws {
        let folder = Self.scene()
        let outcome = try Detent.run(arguments, in: folder.path)
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        #expect(outcome.stdout.contains("USAGE: detent"))
    }

    @Test("--version prints the version, status 0")
    func version() throws {
        let folder = Self.scene()
        let outcome = try Detent.run(["--version"], in: folder.path)
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        #expect(outcome.stdout.hasPrefix("0."))
    }

    @Test("--format and --subtype take their names in any case")
    func anyCase() throws {
        let folder = Self.scene()
        let outcome = try Detent.run(["render", "in.wav", "-o", "out.aiff", "--format", "AIFF", "--subtype", "Pcm24"],
                                     in: folder.path)
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        let (_, reader) = try decode(folder.file("out.aiff"))
        #expect(reader.channels == 1)
    }

    @Test("the shell completion scripts list the --format and --subtype names", arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) throws {
        let folder = Self.scene()
        let outcome = try Detent.run(["--generate-completion-script", shell], in: folder.path)
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        let lines = outcome.stdout.split(separator: "\n")
        for names in [Container.allCases.map(\.rawValue), Subtype.allCases.map(\.rawValue)] {
            // The line completing the option's value holds its less common names.
            let line = lines.first { $0.contains(names[1]) && $0.contains(names[2]) }
            #expect(line != nil, "no completion line for \(names) in \(shell)")
            for name in names { #expect(line?.contains(name) == true, "\(name) missing in \(shell)") }
        }
    }

    /// The manual page (Scripts/install-docs, through swift-argument-parser's manual plugin)
    /// is made from this description of every command and option: it must hold them all.
    @Test("the description the manual is made from lists every command and render's options")
    func manualSource() throws {
        let folder = Self.scene()
        let outcome = try Detent.run(["--experimental-dump-help"], in: folder.path)
        #expect(outcome.status == 0)
        let root = try #require(try jsonObject(outcome.stdout)["command"] as? [String: Any])
        let commands = try #require(root["subcommands"] as? [[String: Any]])
        let names = commands.compactMap { $0["commandName"] as? String }
        #expect(Set(names).isSuperset(of: ["params", "plugins", "render", "live", "panel", "preset", "midi"]), "\(names)")
        let render = try #require(commands.first { $0["commandName"] as? String == "render" })
        let options = (render["arguments"] as? [[String: Any]] ?? []).flatMap { argument in
            (argument["names"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        for option in ["output", "format", "subtype", "dither", "quality", "bitrate", "compression", "loudness", "normalize",
                       "no-metadata", "json", "force"] {
            #expect(options.contains(option), "render's --\(option) is missing from the manual's source")
        }
    }

    /// The committed manual page (docs/detent.1, made by Scripts/manual) was made from this
    /// very description: its first line holds the digest of the description it was made from,
    /// so a changed option or help text fails here until the page is made again.
    @Test("docs/detent.1 is made from today's commands and options")
    func manualIsCurrent() throws {
        let folder = Self.scene()
        let outcome = try Detent.run(["--experimental-dump-help"], in: folder.path)
        #expect(outcome.status == 0)
        let hashed = try ChildProcess.run("/usr/bin/sha256sum", stdin: Array(outcome.stdout.utf8))
        let digest = hashed.stdoutText.split(separator: " ").first.map(String.init)
        let page = try String(contentsOfFile: packageRoot + "/docs/detent.1", encoding: .utf8)
        let recorded = page.split(separator: "\n").first.flatMap { $0.split(separator: " ").last.map(String.init) }
        #expect(recorded == digest, "docs/detent.1 is stale: run Scripts/manual")
    }
}
