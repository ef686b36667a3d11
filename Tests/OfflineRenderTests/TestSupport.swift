import Foundation
@testable import OfflineRender

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

extension Quantizer {
    /// Quantises interleaved `samples`, handed over in pieces of the given sizes (the rest in
    /// one piece), as the writer hands over blocks; unwritten slots would keep 0x5A5A5A5A.
    mutating func quantize(_ samples: [Float], pieces: [Int]) -> [Int32] {
        var out = [Int32](repeating: 0x5A5A_5A5A, count: samples.count)
        samples.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                var start = 0
                for n in pieces + [samples.count] {
                    let n = min(n, samples.count - start)
                    quantize(input.baseAddress! + start, count: n, into: output.baseAddress! + start)
                    start += n
                }
            }
        }
        return out
    }
}
