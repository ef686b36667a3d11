import Foundation
import TestSupport
import Testing

/// Tab completes what only Detent knows — plug-ins, preset names, parameter ids — through the
/// completion script `detent` writes, run by bash as it runs it when Tab is pressed.
@Suite("detent: shell completion")
struct CompletionTests {
    static let overdrive = "http://drobilla.net/plugins/mda/Overdrive"

    /// What bash offers for the last word of `words` (the word being typed), with the
    /// script `detent --generate-completion-script bash` wrote.
    static func complete(_ words: [String]) throws -> [String] {
        let folder = TemporaryFolder()
        let script = try Detent.run(["--generate-completion-script", "bash"], in: folder.path)
        #expect(script.status == 0)
        folder.write("detent.bash", Array(script.stdout.utf8))
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let program = """
            source detent.bash
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _detent detent "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let folderOfDetent = (try BuiltProducts.detent as NSString).deletingLastPathComponent
        var environment = Detent.environment(in: folder.path)
        environment["PATH"] = folderOfDetent + ":/usr/bin:/bin"
        let outcome = try ChildProcess.run("/bin/bash", ["-c", program], environment: environment, currentDirectory: folder.path)
        #expect(outcome.status.exited == 0, "\(outcome.stderrText)")
        return outcome.stdoutText.split(separator: "\n").map(String.init)
    }

    @Test("--set offers the ids of the plug-in named before it, and of the built-in without one")
    func parameterIDs() throws {
        #expect(try Self.complete(["detent", "render", "--plugin", Self.overdrive, "--set", ""]) == ["drive=", "muffle=", "output="])
        #expect(try Self.complete(["detent", "render", "--plugin", Self.overdrive, "--set", "m"]) == ["muffle="])
        #expect(try Self.complete(["detent", "live", "--set", "c"]) == ["cutoff="])
    }

    @Test("--preset and preset names offer the processor's presets")
    func presetNames() throws {
        let offered = try Self.complete(["detent", "render", "--preset", ""])
        #expect(Set(offered).isSuperset(of: ["Default", "Dark", "Telephone"]), "\(offered)")
        #expect(try Self.complete(["detent", "preset", "show", "Te"]) == ["Telephone"])
    }

    @Test("--plugin offers builtin and the installed plug-ins' identifiers")
    func plugins() throws {
        let offered = try Self.complete(["detent", "params", "--plugin", ""])
        #expect(offered.contains("builtin") && offered.contains(Self.overdrive), "\(offered.count) offered")
        #expect(offered.contains { $0.hasPrefix("ladspa:") })
    }
}
