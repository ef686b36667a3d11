import Foundation
import Testing
import TestSupport

/// A plug-in named by its name, and `detent plugins`, read the LV2 index instead of every
/// plug-in's description: the index is written on the first listing, trusted while the files a
/// plug-in is described in are unchanged, read again for a plug-in whose files changed, and
/// never in the way (a foreign index is replaced; without a cache folder, lookups still work).
@Suite("detent: the LV2 index")
struct LV2IndexTests {
    static let ampURI = "http://plugin.org.uk/swh-plugins/amp"

    /// A search path of copies of two of swh's bundles, no LADSPA path, and a cache folder of its own.
    static func setUp(bundles: [String] = ["amp-swh.lv2", "delay-swh.lv2"]) throws
        -> (folder: TemporaryFolder, environment: [String: String], index: String) {
        let folder = TemporaryFolder()
        for path in ["lv2", "ladspa"] {
            try FileManager.default.createDirectory(atPath: folder.file(path), withIntermediateDirectories: true)
        }
        for bundle in bundles {
            try FileManager.default.copyItem(atPath: "/usr/lib/lv2/" + bundle, toPath: folder.file("lv2/" + bundle))
        }
        return (folder, ["LV2_PATH": folder.file("lv2"), "LADSPA_PATH": folder.file("ladspa"), "DSSI_PATH": folder.file("ladspa"),
                         "XDG_CACHE_HOME": folder.file("cache")],
                folder.file("cache/detent/lv2-index"))
    }

    static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    @Test("a lookup by name writes the index; later ones trust it while the plug-in's files are unchanged, and read it again once they changed")
    func writtenTrustedAndRefreshed() throws {
        let (folder, environment, index) = try Self.setUp()
        let first = try Detent.run(["params", "--plugin", "Simple amplifier"], in: folder.path, extra: environment)
        #expect(first.status == 0 && first.stdout.contains("gain"), "\(first.stderr)")
        let lines = Self.read(index).split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("detent-lv2-index 2 ") == true)
        let amp = try #require(lines.first { $0.hasPrefix(Self.ampURI + "\t") })
        #expect(amp.split(separator: "\t", omittingEmptySubsequences: false)[2] == "Simple amplifier")
        #expect(lines.filter { $0.hasPrefix("http://plugin.org.uk/swh-plugins/delay") }.count == 3)

        // An index that gives the unchanged plug-in another name is believed: its description
        // is not read to check.
        let edited = lines.map { $0.replacingOccurrences(of: "\tSimple amplifier\t", with: "\tTrusted amplifier\t") }
        try (edited.joined(separator: "\n") + "\n").write(toFile: index, atomically: true, encoding: .utf8)
        let trusted = try Detent.run(["params", "--plugin", "Trusted amplifier"], in: folder.path, extra: environment)
        #expect(trusted.status == 0 && trusted.stdout.contains("gain"), "\(trusted.stderr)")

        // The description rewritten: its size and modification time no longer match, so it is read again.
        let ttl = folder.file("lv2/amp-swh.lv2/plugin.ttl")
        try Self.read(ttl).replacingOccurrences(of: "\"Simple amplifier\"", with: "\"Renamed amplifier\"")
            .write(toFile: ttl, atomically: false, encoding: .utf8)
        let listed = try Detent.run(["plugins"], in: folder.path, extra: environment)
        #expect(listed.status == 0 && listed.stdout.contains("Renamed amplifier") && !listed.stdout.contains("Trusted amplifier"))
        #expect(Self.read(index).contains("\tRenamed amplifier\t"))
        let gone = try Detent.run(["params", "--plugin", "Trusted amplifier"], in: folder.path, extra: environment)
        #expect(gone.status != 0 && gone.stderr.contains("Trusted amplifier"))
    }

    @Test("a bundle added to the path is read and joins the index; one removed leaves it")
    func bundleAddedAndRemoved() throws {
        let (folder, environment, index) = try Self.setUp(bundles: ["amp-swh.lv2"])
        #expect(try Detent.run(["plugins"], in: folder.path, extra: environment).status == 0)
        #expect(!Self.read(index).contains("swh-plugins/delay"))
        try FileManager.default.copyItem(atPath: "/usr/lib/lv2/delay-swh.lv2", toPath: folder.file("lv2/delay-swh.lv2"))
        try FileManager.default.removeItem(atPath: folder.file("lv2/amp-swh.lv2"))
        let added = try Detent.run(["params", "--plugin", "Simple delay line, noninterpolating"], in: folder.path, extra: environment)
        #expect(added.status == 0, "\(added.stderr)")
        let text = Self.read(index)
        #expect(text.contains("swh-plugins/delay") && !text.contains(Self.ampURI + "\t"))
        let removed = try Detent.run(["params", "--plugin", "Simple amplifier"], in: folder.path, extra: environment)
        #expect(removed.status != 0 && removed.stderr.contains("Simple amplifier"))
    }

    @Test("every installed plug-in lists alike read whole, from the index, and without a cache folder")
    func listingFromTheIndexEqualsReadingEveryDescription() throws {
        let folder = TemporaryFolder()
        let cached = ["XDG_CACHE_HOME": folder.file("cache")]
        let writing = try Detent.run(["plugins", "--json"], in: folder.path, extra: cached)
        #expect(writing.status == 0 && FileManager.default.fileExists(atPath: folder.file("cache/detent/lv2-index")))
        let reading = try Detent.run(["plugins", "--json"], in: folder.path, extra: cached)
        folder.write("home", text: "")
        // HOME is a file, so there is no cache folder; amsynth's LV2 bundle (a dynamic manifest,
        // loaded as the world is read) wants a data folder of its own, given apart.
        try FileManager.default.createDirectory(atPath: folder.file("data"), withIntermediateDirectories: true)
        let uncached = try Detent.run(["plugins", "--json"], in: folder.path,
                                      extra: ["XDG_CACHE_HOME": "", "HOME": folder.file("home"), "XDG_DATA_HOME": folder.file("data")])
        #expect(writing.stdout.split(separator: "\n").count > 300)
        #expect(reading.stdout == writing.stdout)
        #expect(uncached.stdout == writing.stdout && uncached.stderr == "", "\(uncached.stderr)")
    }

    @Test("an index of another layout or of other features is ignored and replaced")
    func neverInTheWay() throws {
        let (folder, environment, index) = try Self.setUp()
        try FileManager.default.createDirectory(atPath: folder.file("cache/detent"), withIntermediateDirectories: true)
        for foreign in ["some other program's file\nx\n",
                        "detent-lv2-index 1 0\n\(Self.ampURI)\tstamp\tOld amplifier\tPlugin\t1\t1\t1\t\t\t\n"] {
            try foreign.write(toFile: index, atomically: true, encoding: .utf8)
            let outcome = try Detent.run(["params", "--plugin", "Simple amplifier"], in: folder.path, extra: environment)
            #expect(outcome.status == 0 && outcome.stdout.contains("gain"), "\(outcome.stderr)")
            let text = Self.read(index)
            #expect(text.hasPrefix("detent-lv2-index 2 ") && text.contains("\tSimple amplifier\t") && !text.contains("Old amplifier"))
        }
    }
}
