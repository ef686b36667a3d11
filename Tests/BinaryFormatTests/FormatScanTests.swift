import BinaryPlugins
import CLAP
import Testing
import TestSupport

/// Binaries are read in a child process: one that crashes or hangs while loading is listed
/// with why, and the listing goes on.
@Suite("Reading binary plug-ins in a child process")
struct FormatScanTests {
    /// A `.clap` built from the tests' broken source with `define` (nil: no entry at all).
    static func broken(_ define: String?, in folder: TemporaryFolder) throws -> String {
        let path = folder.file("\(define ?? "plain").clap")
        let flags = define.map { ["-D\($0)"] } ?? []
        let built = try ChildProcess.run("/usr/bin/cc", ["-O0", "-shared", "-fPIC", "-o", path,
                                                         packageRoot + "/Tests/BinaryFormatTests/Plugins/broken-clap.c"] + flags)
        #expect(built.status.exited == 0, "\(built.stderrText)")
        return path
    }

    @Test("a binary that crashes is listed as failed with its signal; one without an entry says so; a good one beside them is read")
    func crashes() throws {
        let folder = TemporaryFolder()
        let crashing = try Self.broken("CRASH", in: folder), plain = try Self.broken(nil, in: folder)
        let good = "/usr/lib/clap/ZamComp.clap"
        let found = BinaryScan.scan(CLAPBackend(), paths: [crashing, plain, good])
        let crashed = try #require(found[crashing]?.first)
        #expect(crashed.problem?.contains("crashed while loading") == true, "\(crashed.problem ?? "none")")
        #expect(crashed.problem?.contains("Segmentation fault") == true, "\(crashed.problem ?? "none")")
        #expect(found[plain]?.first?.problem == "cannot be loaded: it has no clap_entry")
        let zam = try #require(found[good]?.first)
        #expect(zam.problem == nil && zam.name == "ZamComp" && zam.identifier == "clap:com.zamaudio.ZamComp")
        #expect(zam.parameters.map(\.name).prefix(3) == ["Attack", "Release", "Knee"])
    }

    @Test("a binary that hangs while loading is stopped at the deadline and listed with why", .timeLimit(.minutes(1)))
    func hangs() throws {
        let folder = TemporaryFolder()
        let hanging = try Self.broken("HANG", in: folder)
        let start = ContinuousClock.now
        let found = BinaryScan.scan(CLAPBackend(), paths: [hanging])
        #expect(found[hanging]?.first?.problem == "did not finish loading within 10 s")
        #expect(ContinuousClock.now - start < BinaryScan.deadline + .seconds(5))
    }

    @Test("a plug-in read in the child comes back as it was read here")
    func roundTrip() throws {
        let here = CLAPBackend().scan("/usr/lib/clap/ZaMultiCompX2.clap")
        let there = BinaryScan.scan(CLAPBackend(), paths: ["/usr/lib/clap/ZaMultiCompX2.clap"])["/usr/lib/clap/ZaMultiCompX2.clap"]
        #expect(!here.isEmpty && here == there)
    }
}
