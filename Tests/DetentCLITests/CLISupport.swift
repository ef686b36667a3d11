import Foundation
import Testing
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

/// WAV files byte by byte, so a test controls (and can break) every header field.
enum WAV {
    static func bytes(formatTag: UInt16 = 3, channels: UInt16, sampleRate: UInt32 = 48_000, bits: UInt16 = 32,
                      data: [UInt8], declaredDataBytes: UInt32? = nil) -> [UInt8] {
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        let align = channels * (bits / 8)
        let size = declaredDataBytes ?? UInt32(data.count)
        return Array("RIFF".utf8) + le32(36 &+ size) + Array("WAVEfmt ".utf8) + le32(16) + le16(formatTag) + le16(channels)
            + le32(sampleRate) + le32(sampleRate &* UInt32(align)) + le16(align) + le16(bits) + Array("data".utf8) + le32(size) + data
    }

    /// 32-bit float WAV of the given channels.
    static func float(_ channels: [[Float]], sampleRate: UInt32 = 48_000) -> [UInt8] {
        var data: [UInt8] = []
        for i in channels[0].indices {
            for c in channels.indices { withUnsafeBytes(of: channels[c][i].bitPattern.littleEndian) { data += $0 } }
        }
        return bytes(channels: UInt16(channels.count), sampleRate: sampleRate, data: data)
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
