import Foundation
import Testing
import TestSupport

/// A LADSPA reference by ID or label opens the library the index names instead of every
/// library on the path: the index is written on the first lookup, trusted while a library's
/// file is unchanged, read again for a library that changed, and never in the way (a foreign
/// index is replaced, a missing cache folder only costs time).
@Suite("detent: the LADSPA index")
struct LadspaIndexTests {
    /// A search path of two of swh's libraries, and a cache folder of its own.
    static func setUp() throws -> (folder: TemporaryFolder, environment: [String: String], index: String) {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("lib"), withIntermediateDirectories: true)
        for name in ["butterworth_1902.so", "amp_1181.so"] {
            try FileManager.default.copyItem(atPath: "/usr/lib/ladspa/" + name, toPath: folder.file("lib/" + name))
        }
        return (folder, ["LADSPA_PATH": folder.file("lib"), "XDG_CACHE_HOME": folder.file("cache")],
                folder.file("cache/detent/ladspa-index"))
    }

    static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    @Test("the first lookup by ID writes the index; later ones trust it while the library is unchanged, and read it again once it changed")
    func writtenTrustedAndRefreshed() throws {
        let (folder, environment, index) = try Self.setUp()
        let first = try Detent.run(["params", "--plugin", "ladspa:1903"], in: folder.path, extra: environment)
        #expect(first.status == 0 && first.stdout.contains("cutoff_frequency"), "\(first.stderr)")
        let written = Self.read(index)
        let lines = written.split(separator: "\n").map(String.init)
        #expect(lines.first == "detent-ladspa-index 1")
        #expect(lines.contains { $0.hasPrefix("L\t" + folder.file("lib/butterworth_1902.so") + "\t") })
        #expect(lines.contains { $0.hasPrefix("L\t" + folder.file("lib/amp_1181.so") + "\t") })
        #expect(lines.contains { $0.hasPrefix("P\t") && $0.hasSuffix("\t1903\tbuttlow_iir") })
        #expect(lines.contains { $0.hasPrefix("P\t") && $0.hasSuffix("\t1181\tamp") })

        // An index that says the unchanged library lacks 1903 is believed: the library is not
        // opened to check.
        let edited = lines.filter { !$0.hasSuffix("\t1903\tbuttlow_iir") }.joined(separator: "\n") + "\n"
        try edited.write(toFile: index, atomically: true, encoding: .utf8)
        let trusted = try Detent.run(["params", "--plugin", "ladspa:1903"], in: folder.path, extra: environment)
        #expect(trusted.status != 0 && trusted.stderr.contains("ladspa:1903"), "\(trusted.stdout)")
        // The same library, touched: its modification time no longer matches, so it is read again.
        let later = Date().addingTimeInterval(5)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: folder.file("lib/butterworth_1902.so"))
        let refreshed = try Detent.run(["params", "--plugin", "ladspa:1903"], in: folder.path, extra: environment)
        #expect(refreshed.status == 0 && refreshed.stdout.contains("cutoff_frequency"), "\(refreshed.stderr)")
        #expect(Self.read(index).contains("\t1903\tbuttlow_iir\n"))
    }

    @Test("a library added to the path is read and joins the index; one removed leaves it")
    func libraryAddedAndRemoved() throws {
        let (folder, environment, index) = try Self.setUp()
        #expect(try Detent.run(["params", "--plugin", "ladspa:amp"], in: folder.path, extra: environment).status == 0)
        try FileManager.default.copyItem(atPath: "/usr/lib/ladspa/delay_1898.so", toPath: folder.file("lib/delay_1898.so"))
        try FileManager.default.removeItem(atPath: folder.file("lib/amp_1181.so"))
        let added = try Detent.run(["params", "--plugin", "ladspa:1898"], in: folder.path, extra: environment)
        #expect(added.status == 0, "\(added.stderr)")
        let text = Self.read(index)
        #expect(text.contains(folder.file("lib/delay_1898.so")) && !text.contains(folder.file("lib/amp_1181.so")))
        let gone = try Detent.run(["params", "--plugin", "ladspa:amp"], in: folder.path, extra: environment)
        #expect(gone.status != 0 && gone.stderr.contains("ladspa:amp"))
    }

    @Test("an index of another layout is ignored and replaced; without a cache folder lookups still work")
    func neverInTheWay() throws {
        let (folder, environment, index) = try Self.setUp()
        try FileManager.default.createDirectory(atPath: folder.file("cache/detent"), withIntermediateDirectories: true)
        try "some other program's file\nL\tx\n".write(toFile: index, atomically: true, encoding: .utf8)
        let outcome = try Detent.run(["params", "--plugin", "ladspa:1903"], in: folder.path, extra: environment)
        #expect(outcome.status == 0 && outcome.stdout.contains("cutoff_frequency"), "\(outcome.stderr)")
        #expect(Self.read(index).hasPrefix("detent-ladspa-index 1\n"))

        // A home that is a file: no cache folder can be made there.
        folder.write("home", text: "")
        var homeless = environment
        homeless["XDG_CACHE_HOME"] = ""
        homeless["HOME"] = folder.file("home")
        let without = try Detent.run(["params", "--plugin", "ladspa:1903"], in: folder.path, extra: homeless)
        #expect(without.status == 0 && without.stderr == "" && without.stdout.contains("cutoff_frequency"), "\(without.stderr)")
    }
}
