import Foundation
import Testing
import TestSupport

/// Every VST2, VST3 and CLAP plug-in Scripts/setup installs: the listing names each one as it
/// did when the fixture was made (a change to any is a failure to look at), and each one
/// that is hostable renders a second of noise in a `detent render` of its own, so one that
/// crashes costs its own process and is named.
@Suite("Every installed VST2, VST3 and CLAP plug-in")
struct CatalogueTests {
    static let fixture = packageRoot + "/Tests/BinaryFormatTests/Fixtures/binary-plugins.tsv"
    static let cache = packageRoot + "/.build/test-cache"

    static func detent(_ arguments: [String]) throws -> ChildProcess.Outcome {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = cache
        return try ChildProcess.run(try BuiltProducts.executable("detent"), arguments, environment: environment)
    }

    /// One line per plug-in: format, identifier, name, audio in and out, parameters, and
    /// `yes` or why it cannot be hosted.
    static func listing() throws -> [String] {
        var lines: [String] = []
        for format in ["clap", "vst3", "vst2"] {
            let outcome = try detent(["plugins", "--json", "--format", format])
            #expect(outcome.status.exited == 0, "\(outcome.stderrText)")
            for line in outcome.stdoutText.split(separator: "\n") {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let fields: [Any] = [object["format"]!, object["identifier"]!, object["name"]!, object["audioInputs"]!,
                                     object["audioOutputs"]!, object["parameters"]!,
                                     (object["hostable"] as? Bool) == true ? "yes" : (object["reason"] as? String ?? "no")]
                lines.append(fields.map { "\($0)" }.joined(separator: "\t"))
            }
        }
        return lines
    }

    @Test("the listing names every installed plug-in as the fixture does")
    func listingIsTheFixture() throws {
        let now = try Self.listing()
        let recorded = try String(contentsOfFile: Self.fixture, encoding: .utf8).split(separator: "\n").map(String.init)
        let gone = Set(recorded).subtracting(now), new = Set(now).subtracting(recorded)
        #expect(gone.isEmpty && new.isEmpty,
                "changed since the fixture (write it again with DETENT_WRITE_FIXTURE=1 once the change is understood): gone \(gone.sorted()), new \(new.sorted())")
        if ProcessInfo.processInfo.environment["DETENT_WRITE_FIXTURE"] == "1" {
            try (now.joined(separator: "\n") + "\n").write(toFile: Self.fixture, atomically: true, encoding: .utf8)
        }
        #expect(now.count >= 230, "\(now.count) plug-ins")
    }

    @Test("every hostable plug-in renders a second of noise in a process of its own", .timeLimit(.minutes(15)))
    func everyOneRenders() throws {
        let folder = TemporaryFolder()
        folder.write("mono.wav", WAV.float([Signal.noise(frames: 48_000, seed: 3, amplitude: 0.3)]))
        folder.write("stereo.wav", WAV.float([Signal.noise(frames: 48_000, seed: 4, amplitude: 0.3),
                                              Signal.noise(frames: 48_000, seed: 5, amplitude: 0.3)]))
        let plugins = try Self.listing().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            .filter { $0[6] == "yes" }
        let failures = Failures(), base = folder.path
        DispatchQueue.concurrentPerform(iterations: plugins.count) { i in
            let fields = plugins[i]
            let input = base + (fields[3] == "1" ? "/mono.wav" : "/stereo.wav")
            let output = base + "/out-\(i).wav"
            guard let outcome = try? Self.detent(["render", input, "-o", output, "--quiet", "--plugin", fields[1]]) else {
                failures.add("\(fields[1]): did not start")
                return
            }
            if outcome.status.exited != 0 {
                failures.add("\(fields[0]) \(fields[2]) (\(fields[1])): \(outcome.status) \(outcome.stderrText.prefix(200))")
            }
            try? FileManager.default.removeItem(atPath: output)
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        #expect(plugins.count >= 230)
    }
}

/// Failures gathered from renders run side by side.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
}
