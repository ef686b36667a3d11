import CEbur128
import CSndfile
import Glibc

/// Integrated loudness (EBU R128 / ITU-R BS.1770, in LUFS) and true peak (in dBTP) of a
/// render's output, measured by libebur128, the field's reference implementation.
///
/// It is fed the engine's float output as it is written (after any `--normalize` gain, before
/// quantisation and clipping): the output as it is at full precision, so the figures describe
/// the sound rather than one encoding of it, and an over — a true peak past 0 dBTP — is seen
/// even where an integer output clips it or a lossy encoder hides it. Render is offline, so
/// the meter runs on the render's engine thread (``RenderStream``), never on a real-time one.
///
/// Memory stays the same whatever the length: loudness blocks are counted in libebur128's
/// histogram of 0.1 dB bins, which moves the integrated figure by at most 0.05 LU.
///
/// ```swift
/// let meter = LoudnessMeter(channels: 2, sampleRate: 48_000, measures: .truePeak)
/// meter.add(interleaved: samples, frames: 48_000)
/// meter.integrated   // e.g. -23.0 (LUFS); nil below the −70 LUFS gate (silence)
/// meter.truePeak     // e.g. 0.5 (linear; 0 for silence)
/// ```
public final class LoudnessMeter {
    /// What a render measures (benchmarks measure the cost of each).
    public enum Measures: String, Sendable, CaseIterable {
        /// Nothing: the summary has no loudness and no true peak.
        case none
        /// Integrated loudness only.
        case integrated
        /// Integrated loudness and true peak (4× oversampled below 96 kHz).
        case truePeak = "true-peak"
    }

    private var state: UnsafeMutablePointer<ebur128_state>?
    private let channels: Int
    private let measuresPeak: Bool
    /// `--normalize`'s first pass: every gating block, read at the end of each 100 ms step.
    private var blocks: GatingBlocks?
    private let step: Int
    private var untilStep: Int
    private var steps = 0

    /// Why libebur128, which Detent opens only when a render measures (see DetentLibrary.h),
    /// cannot be loaded; nil when it can. A render asks before it creates its output.
    public static var libraryProblem: String? { detent_ebur128_load().map { String(cString: $0) } }

    /// A meter for interleaved blocks of `channels` channels at `sampleRate`. `channelMap`
    /// (libsndfile's speaker of each channel, as a WAVE_FORMAT_EXTENSIBLE file names them)
    /// gives each channel its BS.1770 weight; without one, libebur128's order applies
    /// (L, R, C, LFE, Ls, Rs). A rate libebur128 cannot measure gives a meter that reports nothing.
    /// With `recordsBlocks`, it also keeps the gating blocks, for ``gain(toReach:)``.
    public init(channels: Int, sampleRate: Int, channelMap: [Int32]? = nil, measures: Measures = .truePeak,
                recordsBlocks: Bool = false) {
        self.channels = channels
        measuresPeak = measures == .truePeak
        blocks = recordsBlocks ? GatingBlocks() : nil
        step = (sampleRate + 5) / 10  // libebur128's 100 ms
        untilStep = step
        let measures = recordsBlocks && measures == .none ? .integrated : measures
        let mode: Int32 = switch measures {
        case .none: 0
        case .integrated: Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_HISTOGRAM.rawValue)
        case .truePeak: Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue | EBUR128_MODE_HISTOGRAM.rawValue)
        }
        guard mode != 0, channels > 0, sampleRate > 0 else { return }
        state = ebur128_init(UInt32(channels), UInt(sampleRate), mode)
        if let state, let channelMap, channelMap.count == channels {
            let hasSides = channelMap.contains { Int($0) == SF_CHANNEL_MAP_SIDE_LEFT || Int($0) == SF_CHANNEL_MAP_SIDE_RIGHT }
            for (index, speaker) in channelMap.enumerated() {
                _ = ebur128_set_channel(state, UInt32(index), Int32(Self.channel(speaker, hasSides: hasSides).rawValue))
            }
        }
    }

    deinit {
        if state != nil { ebur128_destroy(&state) }  // it does not check for nothing to destroy
    }

    /// BS.1770-4 weighs channels beside and behind the listener (60° to 120° off centre) by
    /// 1.41 and the others by 1; the LFE is left out. Rear channels are the surrounds of 5.1
    /// and stand further back (weight 1) when a 7.1 layout has side channels too.
    private static func channel(_ speaker: Int32, hasSides: Bool) -> channel {
        switch Int(speaker) {
        case SF_CHANNEL_MAP_LEFT, SF_CHANNEL_MAP_FRONT_LEFT: EBUR128_LEFT
        case SF_CHANNEL_MAP_RIGHT, SF_CHANNEL_MAP_FRONT_RIGHT: EBUR128_RIGHT
        case SF_CHANNEL_MAP_LFE: EBUR128_UNUSED
        case SF_CHANNEL_MAP_SIDE_LEFT: EBUR128_LEFT_SURROUND
        case SF_CHANNEL_MAP_SIDE_RIGHT: EBUR128_RIGHT_SURROUND
        case SF_CHANNEL_MAP_REAR_LEFT: hasSides ? EBUR128_Mp135 : EBUR128_LEFT_SURROUND
        case SF_CHANNEL_MAP_REAR_RIGHT: hasSides ? EBUR128_Mm135 : EBUR128_RIGHT_SURROUND
        default: EBUR128_CENTER  // mono, centre, and every other speaker: weight 1
        }
    }

    /// Adds `frames` frames of interleaved samples.
    public func add(interleaved samples: UnsafePointer<Float>, frames: Int) {
        guard let state, frames > 0 else { return }
        guard blocks != nil else {
            _ = ebur128_add_frames_float(state, samples, frames)
            return
        }
        // Fed up to each 100 ms step, where the momentary loudness (the last 400 ms) is
        // exactly the gating block libebur128 adds there; the first is complete after 400 ms.
        var done = 0
        while done < frames {
            let n = min(untilStep, frames - done)
            _ = ebur128_add_frames_float(state, samples + done * channels, n)
            done += n
            untilStep -= n
            guard untilStep == 0 else { continue }
            untilStep = step
            steps += 1
            var momentary = -Double.infinity
            if steps >= 4, ebur128_loudness_momentary(state, &momentary) == 0 {
                blocks!.add(energy: pow(10, (momentary + 0.691) / 10))
            }
        }
    }

    /// The gain in dB after which the audio measured would have an integrated loudness of
    /// `target` LUFS, gates included (see ``GatingBlocks``); nil for silence (nothing above
    /// the −70 LUFS gate), or when the meter was not made to record blocks.
    public func gain(toReach target: Double) -> Double? {
        guard let blocks, let now = blocks.integrated(gain: 0) else { return nil }
        return blocks.gain(toReach: target, from: target - now)
    }

    /// The integrated loudness in LUFS of everything added; nil when nothing was measured or
    /// every 400 ms block is below the absolute gate of −70 LUFS (silence).
    public var integrated: Double? {
        guard let state else { return nil }
        var out = -Double.infinity
        guard ebur128_loudness_global(state, &out) == 0, out.isFinite else { return nil }
        return out
    }

    /// The highest true peak of any channel, as a linear amplitude (1 = 0 dBTP); nil when it
    /// is not measured.
    public var truePeak: Double? {
        guard let state, measuresPeak else { return nil }
        var highest = 0.0
        for c in 0..<channels {
            var peak = 0.0
            if ebur128_true_peak(state, UInt32(c), &peak) == 0 { highest = max(highest, peak) }
        }
        return highest
    }
}
