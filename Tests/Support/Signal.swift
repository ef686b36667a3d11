#if canImport(Glibc)
import Glibc
#endif

/// Deterministic test signals, shared by every test target.
public enum Signal {
    public static func sine(frequency: Double, frames: Int, sampleRate: Double = 48_000,
                            amplitude: Double = 0.5) -> [Float] {
        (0..<frames).map { Float(amplitude * sin(2 * .pi * frequency * Double($0) / sampleRate)) }
    }

    /// A unit impulse at frame 0.
    public static func impulse(frames: Int) -> [Float] {
        var x = [Float](repeating: 0, count: frames)
        x[0] = 1
        return x
    }

    /// White noise in −amplitude … amplitude, the same on every run.
    public static func noise(frames: Int, seed: UInt64 = 1, amplitude: Float = 0.5) -> [Float] {
        var random = SplitMix64(seed: seed)
        return (0..<frames).map { _ in Float(random.double(in: -1...1)) * amplitude }
    }
}
