/// The `patch:Set` messages a host writes into a plug-in's control atom input to set one of
/// its `patch:writable` properties (LV2's patch extension), as bytes made off the audio thread.
enum PatchMessage {
    /// An `atom:Object` of type `patch:Set`: `patch:property` the property's URID, `patch:value`
    /// an `atom:Path` holding `path` (NUL-terminated, as atom strings are). Header and body,
    /// padded to 8 bytes.
    static func setPath(property: String, path: String, urids: URIDMap) -> [UInt8] {
        func le32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
        func pad(_ bytes: [UInt8]) -> [UInt8] { bytes + [UInt8](repeating: 0, count: (8 - bytes.count % 8) % 8) }
        let atom = LV2URI.atom
        let text = Array(path.utf8) + [0]
        let body = le32(0) + le32(urids.map(LV2URI.patch + "Set"))
            + pad(le32(urids.map(LV2URI.patch + "property")) + le32(0) + le32(4) + le32(urids.map(atom + "URID"))
                  + le32(urids.map(property)))
            + pad(le32(urids.map(LV2URI.patch + "value")) + le32(0) + le32(UInt32(text.count)) + le32(urids.map(atom + "Path"))
                  + text)
        return le32(UInt32(body.count)) + le32(urids.map(atom + "Object")) + body
    }

    /// An atom sequence body (`unit`, `pad`) holding `atoms` as events at frame 0, and its
    /// size: what an atom input's `LV2_Atom_Sequence` holds after its 8-byte header.
    static func sequenceBody(_ atoms: [[UInt8]]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 8)
        for atom in atoms {
            bytes += [UInt8](repeating: 0, count: 8) + atom  // frames: Int64 0
            bytes += [UInt8](repeating: 0, count: (8 - bytes.count % 8) % 8)
        }
        return bytes
    }
}
