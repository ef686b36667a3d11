import Foundation
import Testing
import TestSupport

/// What docs/architecture.md and Package.swift say of the code, checked against it: the
/// modules drawn, what is `public`, and the real-time exceptions counted.
@Suite struct ArchitectureDocTests {
    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: packageRoot + "/" + path, encoding: .utf8)
    }

    /// The Swift files under `folder` (relative to the package), with their text.
    static func swiftFiles(under folder: String) throws -> [(path: String, text: String)] {
        guard let files = FileManager.default.enumerator(atPath: packageRoot + "/" + folder) else { return [] }
        var found: [(String, String)] = []
        for case let file as String in files where file.hasSuffix(".swift") {
            found.append((folder + "/" + file, try read(folder + "/" + file)))
        }
        return found.sorted { $0.0 < $1.0 }
    }

    /// The source lines of `text` that are not comments.
    static func codeLines(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { !$0.drop { $0 == " " }.hasPrefix("//") }
    }

    @Test("every module of the package is drawn in docs/architecture.md's module graph")
    func everyModuleIsDrawn() throws {
        let targets = DeclaredDependencyTests.targets(in: try Self.read("Package.swift"))
            .filter { $0.folder.hasPrefix("Sources/") }
        #expect(targets.count > 20, "the manifest was read")
        let doc = try Self.read("docs/architecture.md")
        let graph = try #require(doc.range(of: "## Modules").map { doc[$0.upperBound...] })
        let missing = targets.map(\.name).filter { name in
            !graph.contains(try! Regex("(^|[^A-Za-z])" + name + "([^A-Za-z]|$)").anchorsMatchLineEndings())
        }
        #expect(missing.isEmpty, "not in the module graph: \(missing.joined(separator: ", "))")
    }

    @Test("only library products declare public items; the other modules share theirs as package")
    func publicOnlyInProducts() throws {
        let manifest = try Self.read("Package.swift")
        let products = Set(manifest.split(separator: "\n").compactMap { line -> String? in
            guard line.contains(".library(name:") else { return nil }
            return DeclaredDependencyTests.string(after: "name:", in: line[...])
        })
        #expect(products.contains("AudioEngine") && products.contains("DetentC"), "the products were read")
        let targets = DeclaredDependencyTests.targets(in: manifest).filter { $0.folder.hasPrefix("Sources/") }
        var offenders: [String] = []
        for target in targets where !products.contains(target.name) {
            for (path, text) in try Self.swiftFiles(under: target.folder) {
                for line in Self.codeLines(text) where line.contains("public ") {
                    // A conformance of another module's public type to another module's public
                    // protocol must name its witnesses public (an option type the argument
                    // parser reads).
                    if line.contains("init?(argument: String)") { continue }
                    offenders.append("\(path): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(offenders.isEmpty, "\(offenders.prefix(10).joined(separator: "\n"))")
    }

    @Test("the real-time exceptions docs/architecture.md counts are the ones in the code")
    func unsafePerformanceCounts() throws {
        let doc = try Self.read("docs/architecture.md")
        let line = try #require(doc.split(separator: "\n").first { $0.contains("each wrapped in `_unsafePerformance`") })
        // "13 in `JackHost/JackCallbacks.swift`", "2 in `MIDIMonitor.swift`": a count and a file.
        let claims = try #require(try Regex(#"(\d+) in `([A-Za-z/]+\.swift)`"#)).self
        var checked = 0
        for match in line.matches(of: claims) {
            let count = Int(match.output[1].substring!)!
            let name = String(match.output[2].substring!)
            let files = try Self.swiftFiles(under: "Sources").filter { $0.path.hasSuffix("/" + name) }
            #expect(files.count == 1, "\(name): one file of that name")
            guard let file = files.first else { continue }
            let uses = Self.codeLines(file.text).map { $0.components(separatedBy: "_unsafePerformance").count - 1 }.reduce(0, +)
            #expect(uses == count, "\(name): the doc says \(count), the code has \(uses)")
            checked += 1
        }
        #expect(checked >= 4, "the doc's counts were read")
    }
}
