/// A connection between one of Detent's ports and a port of another client, remembered by
/// names so it can be made again on a new server (where the client may have a new name).
package struct PortConnection: Sendable, Hashable, CustomStringConvertible {
    /// Detent's port, by its short name (`in_1`, `out_2`, `midi_in`, `zamcomp-sc_1`).
    package var port: String
    /// The other end, by its full name (`system:capture_1`).
    package var peer: String

    package init(port: String, peer: String) {
        self.port = port
        self.peer = peer
    }

    /// True for Detent's inputs (audio, side-chain and MIDI): the peer is the source.
    package var isInput: Bool {
        !(port.hasPrefix("out_") || port == JackSession.midiOutputName || port == JackSession.pluginMIDIOutputName)
    }

    package var description: String { isInput ? "\(peer) → \(port)" : "\(port) → \(peer)" }
}
