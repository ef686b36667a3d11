/// A parameter whose value is a file the processor loads (an LV2 plug-in's `atom:Path`
/// property: an impulse response, a sample), set by path.
///
/// File parameters are not rows of the ``ParameterTable``: a path is no number, never glides
/// and is not smoothed or automated. A processor lists them beside its table, and the host
/// hands the chosen paths to its audio code when it prepares it, so the file is loaded before
/// the first block, off the audio thread.
///
/// ```swift
/// FileParameter(id: "ir", name: "Impulse Response", identifier: "http://gareus.org/oss/lv2/zeroconvolv#ir")
/// ```
public struct FileParameter: Sendable, Hashable {
    /// What people type (`ir`; `SLOT.ir` in a chain).
    public let id: String
    public let name: String
    /// What the processor knows it by (the LV2 property's URI).
    public let identifier: String
    /// The absolute path of the file chosen, or nil for none (the processor's own default).
    public var path: String?
    /// The file is sound (an impulse response, a sample): a file no audio format reads is
    /// refused before it reaches the processor. Others (a 3D model, a MIDI map) are only
    /// checked to be readable.
    public var expectsAudio: Bool

    public init(id: String, name: String, identifier: String, path: String? = nil, expectsAudio: Bool = false) {
        self.id = id
        self.name = name
        self.identifier = identifier
        self.path = path
        self.expectsAudio = expectsAudio
    }

    /// The same parameter under `prefix.id`: a chain's slot's.
    public func inSlot(_ prefix: String) -> FileParameter {
        FileParameter(id: prefix + "." + id, name: name, identifier: identifier, path: path, expectsAudio: expectsAudio)
    }
}
