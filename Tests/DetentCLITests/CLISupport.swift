import Foundation
import AudioFile
import TestSupport

/// Runs the built `detent` binary (``BuiltProducts/detent``).
enum Detent {
    struct Outcome {
        /// The exit status; nil when a signal ended the program.
        var status: Int32?
        var stdout: String
        var stderr: String
    }

    /// Runs `detent` with `arguments` in `folder` and waits for it. A `prefix` runs it through
    /// another program (`setpriv …`); with `direct` the prefix program gets `arguments` alone.
    static func run(_ arguments: [String], in folder: String, prefix: [String] = [], direct: Bool = false) throws -> Outcome {
        let path = try BuiltProducts.detent
        let outcome = try ChildProcess.run(
            prefix.first ?? path, prefix.isEmpty ? arguments : Array(prefix.dropFirst()) + (direct ? [] : [path]) + arguments,
            environment: environment(in: folder), currentDirectory: folder)
        return Outcome(status: outcome.status.exited, stdout: outcome.stdoutText, stderr: outcome.stderrText)
    }

    /// This process's environment with user presets looked up inside `folder`, so a test
    /// never reads or writes the real `~/.config/detent`.
    static func environment(in folder: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = folder + "/.config"
        return environment
    }
}

/// Reads a rendered file back, interleaved, with its format.
func decode(_ path: String) throws -> (samples: [Float], reader: SoundFileReader) {
    let reader = try SoundFileReader(path: path)
    var all: [Float] = []
    var buffer = [Float](repeating: 0, count: 4_096 * reader.channels)
    while true {
        let n = try buffer.withUnsafeMutableBufferPointer { try reader.read(into: $0.baseAddress!, frames: 4_096) }
        if n == 0 { return (all, reader) }
        all += buffer[..<(n * reader.channels)]
    }
}
