import Foundation
import Testing
import TestSupport

/// JACK, lilv, liblo and libebur128 are opened when a command first needs them, not when
/// Detent starts: a render pays for none of them, and a machine without one still renders.
/// The dynamic loader's own account (`LD_DEBUG=files`) says what was mapped; a folder of
/// broken stand-ins early on `LD_LIBRARY_PATH` makes each library fail to load.
@Suite("Libraries opened on first use")
struct LibraryLoadingTests {
    static let optional = ["libjack.so.0", "liblilv-0.so.0", "liblo.so.7", "libebur128.so.1"]

    /// The libraries the loader mapped while `detent arguments` ran, by soname.
    static func mapped(_ arguments: [String], in folder: TemporaryFolder) throws -> Set<String> {
        let outcome = try Detent.run(arguments, in: folder.path, extra: ["LD_DEBUG": "files"])
        #expect(outcome.status == 0, "\(arguments): \(outcome.stderr.suffix(300))")
        var names: Set<String> = []
        for line in outcome.stderr.split(separator: "\n") {
            guard let start = line.range(of: "file=")?.upperBound, let end = line[start...].firstIndex(of: " ") else { continue }
            names.insert(String(line[start..<end]))
        }
        return names
    }

    @Test("a render maps libsndfile and none of the others; --loudness maps libebur128, --plugin lilv")
    func renderMapsOnlyWhatItUses() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([Signal.noise(frames: 4_800, seed: 1)]))
        let plain = try Self.mapped(["render", "in.wav", "-o", "a.wav", "--quiet"], in: folder)
        #expect(plain.contains("libsndfile.so.1"), "the loader's account was read: \(plain.sorted())")
        #expect(plain.isDisjoint(with: Self.optional), "\(plain.intersection(Self.optional).sorted())")
        let measured = try Self.mapped(["render", "in.wav", "-o", "b.wav", "--quiet", "--loudness"], in: folder)
        #expect(measured.intersection(Self.optional) == ["libebur128.so.1"])
        let hosted = try Self.mapped(["render", "in.wav", "-o", "c.wav", "--quiet", "--plugin",
                                      "http://plugin.org.uk/swh-plugins/amp"], in: folder)
        #expect(hosted.intersection(Self.optional) == ["liblilv-0.so.0"])
    }

    @Test("a library that cannot be loaded is one line naming it and an exit status; nothing is written")
    func missingLibraries() throws {
        let folder = TemporaryFolder()
        folder.write("in.wav", WAV.float([Signal.noise(frames: 4_800, seed: 2)]))
        let stubs = folder.file("lib")
        try FileManager.default.createDirectory(atPath: stubs, withIntermediateDirectories: true)
        for name in Self.optional { folder.write("lib/" + name, text: "not a library\n") }
        let broken = ["LD_LIBRARY_PATH": stubs]

        // Without any of them, a plain render still works.
        let plain = try Detent.run(["render", "in.wav", "-o", "plain.wav", "--quiet"], in: folder.path, extra: broken)
        #expect(plain.status == 0 && plain.stderr.isEmpty, "\(plain.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.file("plain.wav")))

        let cases: [(arguments: [String], status: Int32, names: String)] = [
            (["render", "in.wav", "-o", "loud.wav", "--loudness"], 69, "libebur128"),
            (["render", "in.wav", "-o", "norm.wav", "--normalize", "-23"], 69, "libebur128"),
            (["render", "in.wav", "-o", "amp.wav", "--plugin", "http://plugin.org.uk/swh-plugins/amp"], 69, "lilv"),
            (["plugins"], 69, "lilv"),
            (["live", "--service"], 1, "JACK"),
            (["midi", "monitor"], 1, "JACK"),
        ]
        for (arguments, status, name) in cases {
            let outcome = try Detent.run(arguments, in: folder.path, extra: broken)
            #expect(outcome.status == status, "\(arguments)")
            let lines = outcome.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("detent: ") && lines[0].contains(name)
                    && lines[0].contains("cannot be loaded") && lines[0].contains(stubs), "\(arguments): \(outcome.stderr)")
            #expect(outcome.stdout.isEmpty)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "lib" }.sorted()
        #expect(left == ["in.wav", "plain.wav"], "no output, finished or not, for a failed command")
    }
}
