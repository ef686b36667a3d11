/// A connection between one of Detent's ports and a port of another client, remembered by
/// names so it can be made again on a new server (where the client may have a new name).
public struct PortConnection: Sendable, Hashable, CustomStringConvertible {
    /// Detent's port, by its short name (`in_1`, `out_2`, `midi_in`, `zamcomp-sc_1`).
    public var port: String
    /// The other end, by its full name (`system:capture_1`).
    public var peer: String

    public init(port: String, peer: String) {
        self.port = port
        self.peer = peer
    }

    /// True for Detent's inputs (audio, side-chain and MIDI): the peer is the source.
    public var isInput: Bool {
        !(port.hasPrefix("out_") || port == JackSession.midiOutputName || port == JackSession.pluginMIDIOutputName)
    }

    public var description: String { isInput ? "\(peer) → \(port)" : "\(port) → \(peer)" }
}
