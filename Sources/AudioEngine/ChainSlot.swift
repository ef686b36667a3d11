/// One processor of the engine's chain as the audio thread sees it: its kernel, where its
/// rows are in the engine's parameter arrays, and — in a chain of several — its bypass: a
/// toggle row whose change crossfades (equal gain) between the slot's output and its input,
/// and its mix, a row that blends the two; the input delayed by the slot's latency so both
/// paths stay aligned.
///
/// A single processor is a chain of one slot with no bypass row: the same render path, with
/// the slot reading the caller's buffers and metering its own output.
struct ChainSlot: BitwiseCopyable {
    /// The slot's audio code.
    enum Kernel: BitwiseCopyable {
        /// The built-in lowpass + gain; its state is `RenderState.builtIns[index]`.
        case lowpassGain(index: Int)
        case external(ExternalKernel)
    }

    var kernel: Kernel
    /// The slot's first row and how many it has (its own table, without the bypass row).
    let base: Int
    let count: Int
    /// The row of its bypass toggle, or −1 when it has none (a single processor).
    let bypass: Int
    /// The row of its dry/wet mix (the row after the bypass), or −1.
    let mix: Int
    /// The row of the processor's own on/off switch (LV2's `lv2:enabled`), or −1: when there
    /// is one, bypass sets it to 0 and the processor fades itself; no crossfade around it.
    let enabled: Int
    /// Where the crossfade is: 0 is the slot's output, `RenderState.fadeFrames` its input.
    var fadePosition = 0
    /// The slot's latency in frames when it was prepared, and the input's last `latency`
    /// frames per channel, which delay the bypassed (and the dry) path by as much.
    var latency = 0
    var delay: UnsafeMutablePointer<Float>? = nil
    /// Whether the slot is in the chain at all, as a crossfade position: 0 is absent (the
    /// slot's input passes on undelayed, its kernel is not run), `RenderState.fadeFrames`
    /// present; it moves a frame at a time toward `presenceTarget`. Only a live chain edit
    /// moves it: a slot added fades in, one removed fades out (``Engine/leave(for:)``); around
    /// a move the chain's output dips instead.
    var presence = 0
    var presenceTarget = 0
    /// True when the slot's kernel runs in whole blocks only (``Processor/runsWholeBlocks``):
    /// its runs are never cut at its controls' grid, and a stream's last, shorter run is
    /// padded with silence.
    var whole = false
    /// True when the stream's last, shorter run is padded with silence to a whole block: a
    /// whole-block kernel's, or one that pads only its end (``Processor/padsLastRun``).
    var padsEnd = false
    /// Frames in which the slot's kernel put out absurd samples (non-finite, or beyond
    /// ±`RenderState.outputLimit`) and the slot passed its input through instead.
    var absurdFrames: Int64 = 0

    init(kernel: Kernel, base: Int, count: Int, bypass: Int, enabled: Int = -1) {
        self.kernel = kernel
        self.base = base
        self.count = count
        self.bypass = bypass
        self.mix = bypass >= 0 ? bypass + 1 : -1
        self.enabled = enabled
    }
}
