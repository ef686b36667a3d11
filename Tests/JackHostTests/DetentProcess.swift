import Foundation
import Testing

/// The `detent` executable, run as a user would: arguments, standard input, exit status.
final class DetentProcess: @unchecked Sendable {
    let process = Process()
    let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()

    /// `detent` sits next to the test bundle in the build folder (`swift build` makes both).
    static var executable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("detent")
    }

    /// Starts `detent`; `environment` adds to (or replaces) variables of this process's.
    init(_ arguments: [String], environment extra: [String: String] = [:]) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path),
                     "build the detent executable first (swift build)")
        process.executableURL = Self.executable
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        // User presets in a folder of this test's own, never the real ~/.config/detent.
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = NSTemporaryDirectory() + "detent-live-tests-\(getpid())"
        environment.merge(extra) { $1 }
        process.environment = environment
        try process.run()
    }

    /// Runs to the end with `stdin` as its whole input.
    static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws
        -> (status: Int32, stdout: [String], stderr: [String])
    {
        let p = try DetentProcess(arguments, environment: environment)
        p.send(stdin)
        p.closeInput()
        return p.finish()
    }

    func send(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }
    func closeInput() { try? input.fileHandleForWriting.close() }

    /// Waits for the exit and returns the status and the lines written.
    func finish() -> (status: Int32, stdout: [String], stderr: [String]) {
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        func lines(_ data: Data) -> [String] {
            String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                .dropLast().map(String.init)
        }
        return (process.terminationStatus, lines(out), lines(err))
    }
}
