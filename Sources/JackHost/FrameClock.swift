/// Maps JACK's frame time onto the engine's timeline, so a change sent from a control
/// thread lands at a known sample instead of "somewhere in the next block".
///
/// The process callback publishes, at the start of each cycle, the pair
/// (`jack_last_frame_time`, engine frame position) and the cycle's length. A control thread
/// reads `jack_frame_time` — JACK's estimate of the frame being heard now — and places its
/// change one period after the mapped time: the cycle in progress has already taken its
/// changes, so the earliest block that can honour a stamp is the next one, and a constant
/// one-period delay keeps the spacing between changes exactly as it was sent (no jitter
/// from where in the cycle the control thread happened to run).
///
/// ```swift
/// let clock = FrameClock(jackFrame: 4_096, engineFrame: 1_024, period: 256)
/// clock.engineFrame(atJack: 4_100)      // 1_028
/// clock.stamp(atJack: 4_100)            // 1_284: the same offset, one period later
/// ```
package struct FrameClock: Sendable, Equatable {
    /// `jack_last_frame_time` at the start of the published cycle (wraps at 2³²).
    package var jackFrame: UInt32
    /// The engine's frame position at the start of that cycle.
    package var engineFrame: Int64
    /// The cycle's length in frames.
    package var period: UInt32

    package init(jackFrame: UInt32, engineFrame: Int64, period: UInt32) {
        self.jackFrame = jackFrame
        self.engineFrame = engineFrame
        self.period = period
    }

    /// The engine frame that corresponds to JACK frame `time`. JACK's 32-bit frame counter
    /// wraps (after about a day at 48 kHz); the difference is taken modulo 2³² and read as
    /// signed, which is right for any time within ±2³¹ frames of the published cycle.
    package func engineFrame(atJack time: UInt32) -> Int64 {
        engineFrame + Int64(Int32(bitPattern: time &- jackFrame))
    }

    /// The JACK frame that corresponds to engine frame `frame` (the inverse of
    /// ``engineFrame(atJack:)``, modulo 2³²).
    package func jackFrame(atEngine frame: Int64) -> UInt32 {
        jackFrame &+ UInt32(truncatingIfNeeded: frame - engineFrame)
    }

    /// The engine frame for a change sent at JACK time `time`: one period after it.
    /// `jack_frame_time` is an estimate; one that falls before the published cycle began
    /// is taken as that cycle's start, so a stamp never lands inside a block already taken.
    package func stamp(atJack time: UInt32) -> Int64 {
        max(engineFrame(atJack: time), engineFrame) + Int64(period)
    }
}
