import Foundation
import Testing
import TestSupport

/// Every project module a target imports is one it declares in Package.swift: a module reached
/// only through another's dependencies builds today and breaks the day that other drops it,
/// and the module graph in docs/architecture.md is then not the one that builds.
@Suite struct DeclaredDependencyTests {
    /// One target of the manifest: its name, folder and the project modules it declares.
    struct Target {
        var name: String
        var folder: String
        var dependencies: Set<String>
    }

    /// The targets of Package.swift, read from its text: each `.target(`, `.testTarget(`,
    /// `.executableTarget(` or `.systemLibrary(` call, its `name:`, its `path:` if any, and the
    /// plain names in its `dependencies: [...]` (products of other packages are not project
    /// modules).
    static func targets(in manifest: String) -> [Target] {
        var targets: [Target] = []
        let kinds = [".target(", ".testTarget(", ".executableTarget(", ".systemLibrary(", ".plugin("]
        var rest = Substring(manifest)
        while let start = kinds.compactMap({ rest.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
            let kind = rest[start]
            // The call's arguments, to its matching parenthesis.
            var depth = 1
            var end = start.upperBound
            while end < rest.endIndex, depth > 0 {
                if rest[end] == "(" { depth += 1 }
                if rest[end] == ")" { depth -= 1 }
                end = rest.index(after: end)
            }
            let call = rest[start.upperBound..<end]
            rest = rest[end...]
            guard let name = Self.string(after: "name:", in: call) else { continue }
            let test = kind.hasPrefix(".testTarget")
            let folder = Self.string(after: "path:", in: call) ?? (test ? "Tests/" : "Sources/") + name
            var dependencies: Set<String> = []
            if let list = call.range(of: "dependencies:") {
                var inner = call[list.upperBound...].drop { $0 != "[" }.dropFirst()
                var depth = 1
                var text = ""
                while let c = inner.first, depth > 0 {
                    if c == "[" || c == "(" { depth += 1 }
                    if c == "]" || c == ")" { depth -= 1 }
                    // Only the list's own strings, not those inside `.product(name: …)`.
                    text.append(depth == 1 ? c : " ")
                    inner = inner.dropFirst()
                }
                for part in text.split(separator: "\"", omittingEmptySubsequences: false).enumerated() where part.offset % 2 == 1 {
                    dependencies.insert(String(part.element))
                }
            }
            targets.append(Target(name: name, folder: folder, dependencies: dependencies))
        }
        return targets
    }

    static func string(after label: String, in text: Substring) -> String? {
        guard let at = text.range(of: label) else { return nil }
        let after = text[at.upperBound...].drop { $0 == " " }
        guard after.first == "\"" else { return nil }
        return String(after.dropFirst().prefix { $0 != "\"" })
    }

    /// The modules a Swift file imports, by name.
    static func imports(in source: String) -> Set<String> {
        var modules: Set<String> = []
        for line in source.split(separator: "\n") {
            var words = line.split(separator: " ").map(String.init)
            while let first = words.first, first.hasPrefix("@") || ["public", "internal", "package"].contains(first) {
                words.removeFirst()
            }
            if words.count >= 2, words[0] == "import" { modules.insert(words[1]) }
        }
        return modules
    }

    @Test("every project module a target imports is a dependency it declares")
    func everyImportIsDeclared() throws {
        let manifest = try String(contentsOfFile: packageRoot + "/Package.swift", encoding: .utf8)
        let targets = Self.targets(in: manifest)
        let names = Set(targets.map(\.name))
        #expect(names.isSuperset(of: ["AudioEngine", "DetentCLI", "KernelMemory", "Live", "DetentCLITests"]), "the manifest was read")
        var undeclared: [String] = []
        for target in targets {
            let folder = packageRoot + "/" + target.folder
            guard let files = FileManager.default.enumerator(atPath: folder) else { continue }
            var imported: Set<String> = []
            for case let file as String in files where file.hasSuffix(".swift") {
                imported.formUnion(Self.imports(in: try String(contentsOfFile: folder + "/" + file, encoding: .utf8)))
            }
            let missing = imported.intersection(names).subtracting(target.dependencies).subtracting([target.name])
            if !missing.isEmpty { undeclared.append("\(target.name) imports \(missing.sorted().joined(separator: ", "))") }
        }
        #expect(undeclared.isEmpty, "\(undeclared.joined(separator: "; "))")
    }
}
