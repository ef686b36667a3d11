/// What a live host tells its surfaces changed, through its ``Platform/ChangeFeed``: each
/// surface (OSC feedback, the browser panel, a session manager's dirty flag, MIDI learn)
/// sleeps until one of these is published and then reads what it shows.
public struct HostChanges: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A parameter's target moved: typed, from a panel, OSC, a preset, a reset, or a MIDI
    /// controller (published by the host's supervisor thread, which the audio thread wakes).
    public static let values = HostChanges(rawValue: 1 << 0)
    /// The chain was edited: rows mean other parameters now.
    public static let chain = HostChanges(rawValue: 1 << 1)
    /// What MIDI controllers are mapped to changed (MIDI learn, `midi` commands).
    public static let mappings = HostChanges(rawValue: 1 << 2)
    /// A MIDI control change was heard, mapped or not: what MIDI learn waits for.
    public static let controllerHeard = HostChanges(rawValue: 1 << 3)
    /// An isolated slot crashed, hung or was restarted: what `status` and the panels name.
    public static let faults = HostChanges(rawValue: 1 << 4)
    /// A file parameter was set, or a preset's state restored: what a session saves changed.
    public static let files = HostChanges(rawValue: 1 << 5)
}
