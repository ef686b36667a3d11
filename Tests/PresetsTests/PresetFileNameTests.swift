import TestSupport
import Testing
@testable import Presets

@Suite("Safe file names from free-text preset names")
struct PresetFileNameTests {
    @Test("letters, digits, spaces and harmless punctuation are kept", arguments: [
        ("Dark", "Dark.json"), ("Café Lowpass", "Café Lowpass.json"), ("Tape (slow) + hiss, 2", "Tape (slow) + hiss, 2.json"),
        ("Öl_и_水-3", "Öl_и_水-3.json"),
    ])
    func kept(name: String, fileName: String) throws {
        #expect(try PresetFileName.fileName(for: name) == fileName)
    }

    // Expected names follow the rule by hand: each other character becomes % and its UTF-8
    // bytes in hex ('.' = 2E, '/' = 2F, '\' = 5C, '%' = 25, ':' = 3A, '∕' U+2215 = E2 88 95).
    @Test("separators, dots, percent signs and look-alikes are percent-encoded", arguments: [
        ("../../etc/passwd", "%2E%2E%2F%2E%2E%2Fetc%2Fpasswd.json"),
        ("Lo/Fi", "Lo%2FFi.json"),
        ("a\\b", "a%5Cb.json"),
        ("100%", "100%25.json"),
        (".hidden", "%2Ehidden.json"),
        ("..", "%2E%2E.json"),
        ("C: drive", "C%3A drive.json"),
        ("half∕slash", "half%E2%88%95slash.json"),
    ])
    func encoded(name: String, fileName: String) throws {
        #expect(try PresetFileName.fileName(for: name) == fileName)
        #expect(PresetFileName.name(fromFileName: fileName) == name)
    }

    @Test("unsafe names are refused with the reason", arguments: [
        ("", "a name must not be empty"),
        (" Dark", "a name must not start or end with white space"),
        ("Dark\u{3000}", "a name must not start or end with white space"),
        ("a\nb", "a name must not contain control characters"),
        ("a\u{7F}b", "a name must not contain control characters"),
        ("a\u{1B}[2Jb", "a name must not contain control characters"),
        ("Dark\u{202E}kraD", "a name must not contain bidirectional-text controls"),
        ("a\u{2066}b\u{2069}", "a name must not contain bidirectional-text controls"),
        (String(repeating: "x", count: PresetName.maximumLength + 1), "a name must be at most \(PresetName.maximumLength) characters"),
        (String(repeating: "/", count: 90), "its file name would be longer than 255 bytes"),
    ])
    func refused(name: String, reason: String) {
        #expect(throws: PresetError(.invalidName(name: name, reason: reason))) {
            _ = try PresetFileName.fileName(for: name)
        }
        #expect(PresetError(.invalidName(name: name, reason: reason)).category == .usage)
    }

    @Test("every derived file name is safe and decodes back to its name")
    func property() throws {
        var random = SplitMix64(seed: 0x5EED)
        let alphabet: [Unicode.Scalar] = ["a", "Z", "0", " ", ".", "/", "\\", "%", ":", "*", "?", "\"", "<", "|", "~", "-",
                                          "é", "ß", "水", "\u{2215}", "\u{FF0F}", "\u{301}", "🎹", "\u{200B}", "'"]
        for _ in 0..<2_000 {
            let length = Int(random.next() % 30) + 1
            var name = String(String.UnicodeScalarView((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }))
            name = "n" + name + "n"  // no white space at the ends
            let fileName = try PresetFileName.fileName(for: name)
            #expect(!fileName.contains("/") && !fileName.contains("\\") && !fileName.hasPrefix(".") && !fileName.contains(".."))
            #expect(fileName.hasSuffix(".json") && fileName.dropLast(5).allSatisfy { $0 != "." })
            #expect(fileName.utf8.count <= 255)
            #expect(PresetFileName.name(fromFileName: fileName) == name)
        }
    }

    @Test("a file named by hand is listed under its bare name", arguments: [
        ("My.Preset.json", "My.Preset"), ("100%zz.json", "100%zz"), ("bad%FF.json", "bad%FF"), ("%41.json", "A"),
    ])
    func handNamed(fileName: String, name: String) {
        #expect(PresetFileName.name(fromFileName: fileName) == name)
    }

    @Test("an unsafe name saved to the store stays inside the store folder")
    func noTraversal() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let path = try store.save(Preset(name: "../../escape"), replacing: false)
        #expect(path == store.userDirectory + "/%2E%2E%2F%2E%2E%2Fescape.json")
        #expect(try folderContents(store.userDirectory) == ["%2E%2E%2F%2E%2E%2Fescape.json"])
        #expect(try folderContents(root.path) == ["detent"])
        #expect(try store.load(named: "../../escape").preset.name == "../../escape")
    }
}
