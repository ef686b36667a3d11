import Foundation

/// The products of this package's build that tests run as programs. SwiftPM puts every
/// product of a build in one folder, the one that holds the test bundle now running, so they
/// are found from this process's own executable rather than from the working directory (tests
/// may run from anywhere) or from a fixed build path (debug, release, another triple).
public enum BuiltProducts {
    /// The folder `swift build` writes its products to, beside the running test bundle.
    public static let folder: String = {
        let running = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: running).deletingLastPathComponent().path
    }()

    /// The `detent` executable. `swift build` builds it with the tests, but
    /// `swift build --build-tests --target …` or a build that failed part-way may not: then
    /// this throws, and the test fails saying what to do, instead of failing on "no such file".
    public static var detent: String {
        get throws(Missing) { try executable("detent") }
    }

    /// The executable product `name`, if it has been built.
    public static func executable(_ name: String) throws(Missing) -> String {
        let path = folder + "/" + name
        guard FileManager.default.isExecutableFile(atPath: path) else { throw Missing(name: name, path: path) }
        return path
    }

    /// A product that has not been built.
    public struct Missing: Error, CustomStringConvertible {
        public let name: String
        public let path: String
        public var description: String { "build the \(name) binary first: swift build (no executable at \(path))" }
    }
}
