import Foundation
import Testing
@testable import AudioFile
import DSP
import TestSupport

/// WAV files built byte by byte, so tests control every header field (and can break them).
enum WAV {
    /// A canonical RIFF/WAVE file. `declaredDataBytes` overrides the `data` chunk's size.
    static func bytes(formatTag: UInt16, channels: UInt16, sampleRate: UInt32, bitsPerSample: UInt16,
                      data: [UInt8], declaredDataBytes: UInt32? = nil) -> [UInt8] {
        let blockAlign = channels * (bitsPerSample / 8)
        let dataSize = declaredDataBytes ?? UInt32(data.count)
        var out: [UInt8] = Array("RIFF".utf8) + le32(36 &+ dataSize) + Array("WAVE".utf8)
        out += Array("fmt ".utf8) + le32(16) + le16(formatTag) + le16(channels) + le32(sampleRate)
        out += le32(sampleRate * UInt32(blockAlign)) + le16(blockAlign) + le16(bitsPerSample)
        out += Array("data".utf8) + le32(dataSize) + data
        return out
    }

    /// 32-bit float WAV of interleaved `channels`.
    static func float(_ channels: [[Float]], sampleRate: UInt32 = 48_000) -> [UInt8] {
        var data: [UInt8] = []
        data.reserveCapacity(channels[0].count * channels.count * 4)
        for i in channels[0].indices {
            for c in channels.indices { data += le32(channels[c][i].bitPattern) }
        }
        return bytes(formatTag: 3, channels: UInt16(channels.count), sampleRate: sampleRate, bitsPerSample: 32, data: data)
    }

    /// 16-bit PCM WAV of interleaved integer `channels`.
    static func pcm16(_ channels: [[Int16]], sampleRate: UInt32 = 48_000) -> [UInt8] {
        var data: [UInt8] = []
        for i in channels[0].indices {
            for c in channels.indices { data += le16(UInt16(bitPattern: channels[c][i])) }
        }
        return bytes(formatTag: 1, channels: UInt16(channels.count), sampleRate: sampleRate, bitsPerSample: 16, data: data)
    }

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
}

/// Reading a whole (small) file back, one array per channel.
struct Decoded {
    var channels: [[Float]]
    var format: AudioFormat
    var sampleRate: Int

    init(_ path: String) throws {
        let reader = try SoundFileReader(path: path)
        let count = reader.channels
        var interleaved = [Float](repeating: 0, count: 4096 * count)
        channels = Array(repeating: [], count: count)
        while true {
            let n = try interleaved.withUnsafeMutableBufferPointer { try reader.read(into: $0.baseAddress!, frames: 4096) }
            if n == 0 { break }
            for i in 0..<n { for c in 0..<count { channels[c].append(interleaved[i * count + c]) } }
        }
        format = reader.format
        sampleRate = reader.sampleRate
    }
}

/// The engine driven directly, in one block, as the law the renderer must follow.
enum EngineReference {
    static func run(_ input: [[Float]], sampleRate: Double = 48_000, values: [ParameterID: Double] = [:],
                    changes: [ParameterChange] = []) -> [[Float]] {
        let frames = input[0].count
        let engine = Engine(initialValues: values, queueCapacity: max(1_024, changes.count + 1))
        engine.prepare(sampleRate: sampleRate, maxFrames: max(1, frames), channels: input.count)
        let (output, allQueued) = EngineRun.render(engine, input, blockSize: max(1, frames), changes: changes)
        #expect(allQueued)
        return output
    }
}

/// Renders with the library and returns the summary, or the error.
func render(_ input: String, _ output: String, _ configure: (inout RenderSettings) -> Void = { _ in })
    -> Result<RenderSummary, AudioFileError>
{
    var settings = RenderSettings()
    configure(&settings)
    do { return .success(try OfflineRenderer.render(input: input, output: output, settings: settings)) }
    catch { return .failure(error) }
}

extension Result {
    var error: Failure? { if case .failure(let e) = self { e } else { nil } }
    var value: Success? { if case .success(let v) = self { v } else { nil } }
}
