import Foundation
import Testing
import TestSupport

/// `detent plugins --check`: a plug-in's `run()` audited under RealtimeSanitizer, with plug-ins
/// built for the purpose (`AuditPlugins/audit-plugins.c`: one that only copies, one that
/// allocates in every `run()`, one that allocates in its first `run()` only, one that crashes)
/// and a real installed one.
@Suite("detent: the real-time audit of plug-ins")
struct PluginCheckTests {
    struct BuildFailed: Error, CustomStringConvertible { let description: String }

    /// The test plug-ins as an LV2 bundle in their own folder, built once for every test.
    nonisolated(unsafe) static let pluginFolder = TemporaryFolder()

    static let plugins: Result<String, BuildFailed> = {
        let bundle = pluginFolder.file("detent-audit.lv2")
        do {
            try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
            if let problem = try PluginCompiler.compile("Tests/DetentCLITests/AuditPlugins/audit-plugins.c",
                                                        into: bundle + "/audit-plugins.so") {
                return .failure(BuildFailed(description: problem))
            }
            let names = ["copies": "Audit Copies", "allocates": "Audit Allocates",
                         "allocates-once": "Audit Allocates Once", "crashes": "Audit Crashes", "absurd": "Audit Absurd"]
            var manifest = "@prefix lv2: <http://lv2plug.in/ns/lv2core#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
            var description = """
                @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
                @prefix doap: <http://usefulinc.com/ns/doap#> .

                """
            for (suffix, name) in names.sorted(by: { $0.key < $1.key }) {
                manifest += "<urn:detent:test:\(suffix)> a lv2:Plugin ; lv2:binary <audit-plugins.so> ; rdfs:seeAlso <plugins.ttl> .\n"
                description += """
                    <urn:detent:test:\(suffix)> a lv2:Plugin ;
                        doap:name "\(name)" ;
                        lv2:port [ a lv2:AudioPort, lv2:InputPort ; lv2:index 0 ; lv2:symbol "in" ; lv2:name "In" ] ,
                                 [ a lv2:AudioPort, lv2:OutputPort ; lv2:index 1 ; lv2:symbol "out" ; lv2:name "Out" ] ,
                                 [ a lv2:ControlPort, lv2:InputPort ; lv2:index 2 ; lv2:symbol "gain" ; lv2:name "Gain" ;
                                   lv2:default 0.5 ; lv2:minimum 0 ; lv2:maximum 1 ] .

                    """
            }
            try manifest.write(toFile: bundle + "/manifest.ttl", atomically: true, encoding: .utf8)
            try description.write(toFile: bundle + "/plugins.ttl", atomically: true, encoding: .utf8)
            return .success(pluginFolder.path)
        } catch {
            return .failure(BuildFailed(description: "\(error)"))
        }
    }()

    /// Runs `detent plugins --check` with the test plug-ins (only them) on `LV2_PATH`, and the
    /// sanitizer runtime built into the test's own cache folder.
    static func check(_ arguments: [String], in folder: TemporaryFolder, installed: Bool = false) throws -> Detent.Outcome {
        var environment = Detent.environment(in: folder.path)
        if !installed { environment["LV2_PATH"] = try plugins.get() }
        environment.removeValue(forKey: "DETENT_RTSAN_RUNTIME")
        let outcome = try ChildProcess.run(try BuiltProducts.detent, ["plugins", "--check"] + arguments,
                                           environment: environment, currentDirectory: folder.path)
        return Detent.Outcome(status: outcome.status.exited, stdout: outcome.stdoutText, stderr: outcome.stderrText)
    }

    /// Not an audit: the test plug-ins' bundle serves here for a plug-in whose output is absurd
    /// on purpose (cmt's bf2cube does it at times, from memory it never initialises).
    @Test("a plug-in's absurd samples (6e32) make its slot pass its input on, named and counted; the JSON peak is a number")
    func absurdOutputIsSilenced() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([Signal.sine(frequency: 440, frames: 48_000)]))
        var environment = Detent.environment(in: folder.path)
        environment["LV2_PATH"] = try Self.plugins.get()
        let outcome = try ChildProcess.run(try BuiltProducts.detent, ["render", "in.wav", "--plugin", "urn:detent:test:absurd",
                                                                      "-o", "out.wav", "--json"],
                                           environment: environment, currentDirectory: folder.path)
        #expect(outcome.status.exited == 0, "\(outcome.stderrText)")
        let summary = try jsonObject(outcome.stdoutText)
        #expect((summary["sanitizedOutputSamples"] as? Int ?? 0) >= 480, "one sample in a hundred, at least")
        #expect(summary["peak"] as? Double != nil, "a number, not null")
        #expect(outcome.stderrText.contains("put out NaN, infinity or samples beyond ±1e6 in "), "\(outcome.stderrText)")
        #expect(outcome.stderrText.contains("; it passed its input through for them"), "\(outcome.stderrText)")
        let (samples, _) = try decode(folder.file("out.wav"))
        #expect(samples.allSatisfy { abs($0) <= 1 })
        #expect(samples.contains { abs($0) > 0.4 }, "the input's sine (0.5) passed on, not silence")
    }

    @Test("a plug-in that allocates in every run() is flagged with an allocation line naming malloc")
    func allocatingIsFlagged() throws {
        let folder = TemporaryFolder()
        let outcome = try Self.check(["urn:detent:test:allocates", "--seconds", "1"], in: folder)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "allocation: malloc, free (first block and after)", "\(outcome.stdout)")
        // Each function's first stack, named: the plug-in's run, then Detent's kernel that called it.
        #expect(lines.count == 4, "\(outcome.stdout)")
        for (line, function) in zip(lines.dropFirst(), ["malloc", "free"]) {
            #expect(line.hasPrefix("  \(function): run_allocates (audit-plugins.so) ← "), "\(line)")
            #expect(line.hasSuffix(")") && line.contains(" ← detent_lv2_run (PluginKernel.c:"), "\(line)")
        }
        #expect(lines.last?.hasPrefix("Audit Allocates: not real-time safe: ") == true)
        #expect(outcome.stderr == "")
    }

    @Test("a plug-in that only copies is real-time safe in this run")
    func copyingPasses() throws {
        let folder = TemporaryFolder()
        let outcome = try Self.check(["Audit Copies"], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == "Audit Copies: real-time safe in this run "
                    + "(750 blocks of 256 frames, 4 s of audio at 48 kHz, controls moving)\n")
        #expect(outcome.stderr == "")
    }

    @Test("an allocation in the first run() only is found, and told apart from one in every run()")
    func firstRunOnly() throws {
        let folder = TemporaryFolder()
        let outcome = try Self.check(["urn:detent:test:allocates-once", "--seconds", "0.5", "--json"], in: folder)
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let object = try jsonObject(Substring(outcome.stdout.trimmingCharacters(in: .newlines)))
        #expect(object["safe"] as? Bool == false)
        #expect(object["plugin"] as? String == "urn:detent:test:allocates-once")
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.count == 1)
        #expect(findings.first?["function"] as? String == "malloc")
        #expect(findings.first?["kind"] as? String == "allocation")
        #expect(findings.first?["firstBlock"] as? Bool == true)
        #expect(findings.first?["afterFirstBlock"] as? Bool == false)
        let stack = try #require(findings.first?["stack"] as? [String])
        #expect(stack.first == "run_allocates_once (audit-plugins.so)", "\(stack)")
    }

    @Test("a plug-in that crashes ends the audit with one line and status 70")
    func crashIsOneLine() throws {
        let folder = TemporaryFolder()
        let outcome = try Self.check(["urn:detent:test:crashes", "--seconds", "1"], in: folder)
        #expect(outcome.status == 70)
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(outcome.stderr)")
        #expect(lines.first?.hasPrefix("detent: Audit Crashes crashed during the audit (") == true, "\(outcome.stderr)")
        #expect(lines.first?.contains("signal 11") == true)
        // Nothing the crash itself did (a backtrace written) counts as the plug-in's.
        #expect(outcome.stdout == "")
    }

    @Test("an installed plug-in (MDA Overdrive) runs to the end, with a verdict in the usual shape")
    func installedPlugin() throws {
        let folder = TemporaryFolder()
        let outcome = try Self.check(["http://drobilla.net/plugins/mda/Overdrive", "--seconds", "1"], in: folder, installed: true)
        #expect(outcome.status == 0 || outcome.status == 1, "\(outcome.stderr)")
        let last = try #require(outcome.stdout.split(separator: "\n").last.map(String.init))
        #expect(last.hasPrefix("MDA Overdrive: real-time safe in this run (") || last.hasPrefix("MDA Overdrive: not real-time safe: "))
        #expect(last.hasSuffix("188 blocks of 256 frames, 1 s of audio at 48 kHz, controls moving)"))
        for line in outcome.stdout.split(separator: "\n").dropLast() {
            #expect(["allocation: ", "lock: ", "blocking call: "].contains { line.hasPrefix($0) }, "\(line)")
        }
    }

    /// A LADSPA effect and a DSSI instrument (its notes through `run_synth`) are audited the
    /// same way, named by their identifiers.
    @Test("installed LADSPA and DSSI plug-ins run to the end, with a verdict in the usual shape", arguments: [
        ("ladspa:1067:amp_mono", "Amplifier (Mono)"), ("dssi:2181:Xsynth", "Xsynth DSSI plugin"),
    ])
    func ladspaAndDSSI(identifier: String, name: String) throws {
        let folder = TemporaryFolder()
        let outcome = try Self.check([identifier, "--seconds", "1", "--json"], in: folder, installed: true)
        #expect(outcome.status == 0 || outcome.status == 1, "\(outcome.stderr)")
        let object = try jsonObject(Substring(outcome.stdout.trimmingCharacters(in: .newlines)))
        #expect(object["plugin"] as? String == identifier)
        #expect(object["name"] as? String == name)
        #expect(object["safe"] is Bool)
    }

    @Test("an unknown plug-in, a filter with --check and a bad --seconds are one line and status 64", arguments: [
        ["no-such-plugin-anywhere"],
        ["urn:detent:test:copies", "--seconds", "0"],
        ["urn:detent:test:copies", "reverb"],
    ])
    func badInput(arguments: [String]) throws {
        let folder = TemporaryFolder()
        let outcome = try Self.check(arguments, in: folder)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.split(separator: "\n").count == 1 && outcome.stderr.hasPrefix("detent: "), "\(outcome.stderr)")
        #expect(outcome.stdout == "")
    }

    @Test("no sanitizer runtime to be had is one line and status 69")
    func noRuntime() throws {
        let folder = TemporaryFolder()
        var environment = Detent.environment(in: folder.path)
        environment["LV2_PATH"] = try Self.plugins.get()
        environment["DETENT_RTSAN_RUNTIME"] = folder.file("missing.so")
        let outcome = try ChildProcess.run(try BuiltProducts.detent, ["plugins", "--check", "urn:detent:test:copies"],
                                           environment: environment, currentDirectory: folder.path)
        #expect(outcome.status.exited == 69)
        #expect(outcome.stderrText == "detent: DETENT_RTSAN_RUNTIME names '\(folder.file("missing.so"))', which cannot be read\n")
    }
}
