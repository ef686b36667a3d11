import Foundation
import Testing
import TestSupport

/// IEM's ambisonic plug-ins (VST2, JUCE) declare 64 inputs and 64 outputs, and encode to as
/// many channels as they are told they have: Detent tells them the chain's (VST2's speaker
/// arrangement), so 16 channels are third order, not 64 channels' seventh order folded by the
/// mean into 16.
@Suite("Ambisonics")
struct AmbisonicTests {
    /// Real spherical harmonics, SN3D, ACN order, of a source straight ahead (azimuth and
    /// elevation 0), to third order: IEM's defaults put both sides of a stereo input there.
    static let ahead: [Double] = [
        1, 0, 0, 1,                                  // W; Y, Z, X
        0, 0, -0.5, 0, 3.0.squareRoot() / 2,         // second order
        0, 0, 0, 0, -(3.0 / 8).squareRoot(), 0, (5.0 / 8).squareRoot(),  // third order
    ]

    @Test("IEM's StereoEncoder renders a stereo file to its 16 third-order channels: each is its harmonic's gain times the sum of the sides")
    func stereoEncoderToThirdOrder() throws {
        let folder = TemporaryFolder()
        let left = Signal.sine(frequency: 440, frames: 48_000, amplitude: 0.25)
        let right = Signal.noise(frames: 48_000, seed: 9, amplitude: 0.2)
        let input = folder.write("stereo.wav", WAV.float([left, right]))
        let output = folder.file("encoded.wav")
        let outcome = try CatalogueTests.detent(["render", input, "-o", output, "--channels", "16", "--plugin", "vst2:1400128878"])
        #expect(outcome.status.exited == 0, "\(outcome.stderrText)")
        // Decoded by sox: interleaved little-endian floats.
        let decoded = try ChildProcess.run("/usr/bin/sox", [output, "-t", "f32", "-L", "-"])
        #expect(decoded.status.exited == 0, "\(decoded.stderrText)")
        let samples = stride(from: 0, to: decoded.stdout.count - 3, by: 4).map { i in
            Float(bitPattern: UInt32(decoded.stdout[i]) | UInt32(decoded.stdout[i + 1]) << 8
                  | UInt32(decoded.stdout[i + 2]) << 16 | UInt32(decoded.stdout[i + 3]) << 24)
        }
        try #require(samples.count == 16 * left.count, "\(samples.count) samples: not 16 channels of the input's length")
        let channels = (0..<16).map { c in stride(from: c, to: samples.count, by: 16).map { samples[$0] } }
        // The plug-in glides its harmonics' gains in from zero over its first block (Detent's
        // 4,096 frames), all but W's, which is always 1: from the second block on, exact.
        let glide = 4_096
        for (acn, gain) in Self.ahead.enumerated() {
            let from = acn == 0 ? 0 : glide
            var worst = 0.0
            for i in from..<left.count {
                let sum = Double(left[i]) + Double(right[i])
                worst = max(worst, abs(Double(channels[acn][i]) - gain * sum))
            }
            #expect(worst < 1e-6, "ACN \(acn): off by up to \(worst) from \(gain) × (L + R)")
        }
    }
}
