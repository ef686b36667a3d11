extension Duration {
    /// The whole nanoseconds, as the system's timed calls and the slots' shared deadlines take
    /// them (the attoseconds past the last nanosecond dropped).
    package var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }

    /// As a line to a person says it: "50 ms", "10 s", "1.5 s".
    package var spoken: String {
        let milliseconds = wholeNanoseconds / 1_000_000
        if milliseconds < 1_000 { return "\(milliseconds) ms" }
        return milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000) s" : "\(Double(milliseconds) / 1_000) s"
    }
}
