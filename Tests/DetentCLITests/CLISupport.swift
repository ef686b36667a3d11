import Foundation
import Testing
import OfflineRender
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
    /// `extra` adds to (or replaces in) the environment.
    static func run(_ arguments: [String], in folder: String, prefix: [String] = [], direct: Bool = false,
                    extra: [String: String] = [:]) throws -> Outcome {
        let path = try BuiltProducts.detent
        let outcome = try ChildProcess.run(
            prefix.first ?? path, prefix.isEmpty ? arguments : Array(prefix.dropFirst()) + (direct ? [] : [path]) + arguments,
            environment: environment(in: folder).merging(extra) { $1 }, currentDirectory: folder)
        return Outcome(status: outcome.status.exited, stdout: outcome.stdoutText, stderr: outcome.stderrText)
    }

    /// This process's environment with user presets looked up inside `folder` and cached
    /// files in ``sharedCache``, so a test never reads or writes the real `~/.config/detent` or
    /// `~/.cache/detent`.
    static func environment(in folder: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = folder + "/.config"
        environment["XDG_CACHE_HOME"] = sharedCache
        return environment
    }

    /// The cache folder every command the tests run shares (`.build/test-cache`, which
    /// Scripts/test fills before the tests start): the VST2, VST3 and CLAP binaries are read in
    /// child processes once per run and indexed, not once per command. Tests of the indexes
    /// themselves give a folder of their own.
    static let sharedCache = packageRoot + "/.build/test-cache"
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

/// Runs a program the tests compare with (sox, ffmpeg, flac; installed by `Scripts/setup`)
/// in `folder`, and returns its outcome. A program that fails fails the test unless `check`
/// is false.
@discardableResult
func tool(_ name: String, _ arguments: [String], in folder: TemporaryFolder, stdin: [UInt8]? = nil,
          check: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws -> ChildProcess.Outcome {
    let outcome = try ChildProcess.run("/usr/bin/" + name, arguments, currentDirectory: folder.path, stdin: stdin)
    if check && outcome.status.exited != 0 {
        Issue.record("\(name) \(arguments.joined(separator: " ")): \(outcome.status): \(outcome.stderrText)",
                     sourceLocation: sourceLocation)
    }
    return outcome
}

/// Little-endian integers at byte offsets of a file's header.
extension Array where Element == UInt8 {
    func le16(at offset: Int) -> Int { Int(self[offset]) | Int(self[offset + 1]) << 8 }
    func le32(at offset: Int) -> Int { le16(at: offset) | le16(at: offset + 2) << 16 }
    func text(at offset: Int, count: Int = 4) -> String { String(decoding: self[offset..<offset + count], as: UTF8.self) }

    /// The offset of the body of the first RIFF chunk called `id` (after its 8-byte head).
    func chunk(_ id: String) -> Int? {
        var offset = 12
        while offset + 8 <= count {
            if text(at: offset) == id { return offset + 8 }
            offset += 8 + le32(at: offset + 4) + (le32(at: offset + 4) & 1)
        }
        return nil
    }
}
