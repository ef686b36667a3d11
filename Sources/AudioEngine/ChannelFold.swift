/// Folds a signal of one channel count into another, by the rule a plug-in's main inputs
/// follow (`detent_lv2_fold`, docs/plugins.md): with more sources than destinations,
/// destination `d` is the mean of the sources `s` with `s % destinations == d`; with fewer, a
/// copy of source `d % sources`. How a side-chain key or a graph's named input, of whatever
/// channels, meets the engine's channels.
public enum ChannelFold {
    /// A signal's layout: channel `c`'s sample `i` at `c × channel + i × frame` floats from
    /// its start (interleaved: `channel` 1, `frame` the channel count; rows: the reverse).
    public struct Layout: Sendable {
        public var channels: Int
        public var channel: Int
        public var frame: Int
        public init(channels: Int, channel: Int, frame: Int) {
            self.channels = channels
            self.channel = channel
            self.frame = frame
        }

        public static func interleaved(_ channels: Int) -> Layout { Layout(channels: channels, channel: 1, frame: channels) }
        public static func rows(_ channels: Int, frames: Int) -> Layout { Layout(channels: channels, channel: frames, frame: 1) }
    }

    /// `frames` frames of `source` (laid out as `from`) into `destination` (as `to`).
    public static func fold(_ source: UnsafePointer<Float>, _ from: Layout, into destination: UnsafeMutablePointer<Float>,
                            _ to: Layout, frames: Int) {
        for d in 0..<to.channels {
            let out = destination + d * to.channel
            if from.channels < to.channels {
                let src = source + (d % from.channels) * from.channel
                for i in 0..<frames { out[i * to.frame] = src[i * from.frame] }
                continue
            }
            let count = (from.channels - d + to.channels - 1) / to.channels
            let scale = 1 / Float(count)
            for i in 0..<frames {
                var sum: Float = 0
                var s = d
                while s < from.channels {
                    sum += source[s * from.channel + i * from.frame]
                    s += to.channels
                }
                out[i * to.frame] = count > 1 ? sum * scale : sum
            }
        }
    }
}
