import AudioEngine
import Platform

/// A processor's MIDI output as a Standard MIDI File (`render --midi-out`): format 0, one
/// track, at the render's tempo in 4/4, ``ticksPerQuarter`` ticks to the quarter note.
///
/// Each message lands on the tick nearest its frame, through the tempo the file states (whole
/// microseconds per quarter, as the format holds it), so reading the file back gives every
/// message within half a tick (0.26 ms at 120 bpm) of its frame. Channel messages are written
/// whole (no running status), system exclusive as `F0` events; messages a file cannot hold
/// (real-time and other system messages) and malformed ones are left out and counted.
///
/// ```swift
/// let file = MIDIFileWriter.bytes(output.messages, sampleRate: 48_000, beatsPerMinute: 120, endFrame: 96_000)
/// ```
public enum MIDIFileWriter {
    /// The file's division: the usual resolution of sequencers.
    public static let ticksPerQuarter = 960

    /// The tempo a render with no `--bpm` writes (a Standard MIDI File's own default).
    public static let defaultBeatsPerMinute = 120.0

    /// The file's bytes, and how many messages were left out. The track ends at `endFrame`
    /// (the render's length) or its last message, whichever is later.
    public static func bytes(_ messages: [MIDIOutput.Message], sampleRate: Int, beatsPerMinute: Double,
                             endFrame: Int64) -> (bytes: [UInt8], skipped: Int) {
        let tempo = max(1, min(0xFF_FFFF, Int((60_000_000 / beatsPerMinute).rounded())))
        let ticksPerFrame = Double(ticksPerQuarter) * 1_000_000 / (Double(tempo) * Double(sampleRate))
        func tick(_ frame: Int64) -> Int { Int((Double(max(0, frame)) * ticksPerFrame).rounded()) }
        var track: [UInt8] = [0x00, 0xFF, 0x51, 0x03, UInt8(tempo >> 16), UInt8(tempo >> 8 & 0xFF), UInt8(tempo & 0xFF)]
        track += [0x00, 0xFF, 0x58, 0x04, 0x04, 0x02, 0x18, 0x08]  // 4/4, 24 clocks a click, 8 32nds a quarter
        var last = 0, skipped = 0
        for message in messages {
            guard let event = event(message.bytes) else {
                skipped += 1
                continue
            }
            let at = tick(message.frame)
            track += quantity(at - last) + event
            last = at
        }
        track += quantity(max(0, tick(endFrame) - last)) + [0xFF, 0x2F, 0x00]
        let header = Array("MThd".utf8) + be32(6) + [0, 0, 0, 1, UInt8(ticksPerQuarter >> 8), UInt8(ticksPerQuarter & 0xFF)]
        return (header + Array("MTrk".utf8) + be32(track.count) + track, skipped)
    }

    /// Writes `bytes` to `path` so that it appears only whole (``PendingOutput``); an existing
    /// file is replaced only with `overwrite`.
    ///
    /// - Throws: ``AudioFileError`` naming `path`; nothing is left behind.
    public static func write(_ bytes: [UInt8], to path: String, overwrite: Bool) throws(AudioFileError) {
        try pending(bytes, at: path, overwrite: overwrite).commit(overwrite: overwrite)
    }

    /// `bytes` written and flushed to a temporary file beside `path`, which takes its name at
    /// ``PendingOutput/commit(overwrite:)`` (so that a render commits its audio and MIDI
    /// outputs together, after both are whole).
    static func pending(_ bytes: [UInt8], at path: String, overwrite: Bool) throws(AudioFileError) -> PendingOutput {
        try checkOutput(path, overwrite: overwrite)
        let pending = try PendingOutput(path: path)
        do {
            try DescriptorIO.writeAll(pending.descriptor, bytes)
        } catch {
            pending.discard()
            throw .writeFailed(path: path, reason: error.errno.description)
        }
        do {
            if !pending.isStream { try DescriptorIO.sync(pending.descriptor) }
        } catch {
            pending.discard()
            throw .writeFailed(path: path, reason: error.errno.description)
        }
        return pending
    }

    /// Refuses a MIDI output that exists (without `overwrite`) or is a folder, before any work.
    public static func checkOutput(_ path: String, overwrite: Bool) throws(AudioFileError) {
        if PathString.isFolder(path) { throw .writeFailed(path: path, reason: "is a folder") }
        if !overwrite && PathString.exists(path) && !PathString.isSpecial(path) { throw .outputExists(path: path) }
    }

    /// A message as a track event's bytes (after its delta time), or nil when a file cannot
    /// hold it or it is malformed.
    static func event(_ bytes: [UInt8]) -> [UInt8]? {
        guard let status = bytes.first, status >= 0x80 else { return nil }
        if status == 0xF0 {
            // System exclusive: F0, the length, then the bytes after F0 (up to F7 included).
            guard bytes.count >= 2, bytes.last == 0xF7 else { return nil }
            return [0xF0] + quantity(bytes.count - 1) + bytes.dropFirst()
        }
        guard status < 0xF0 else { return nil }
        let length = (0xC0...0xDF).contains(status) ? 2 : 3
        guard bytes.count == length, bytes.dropFirst().allSatisfy({ $0 < 0x80 }) else { return nil }
        return bytes
    }

    /// A variable-length quantity: 7 bits a byte, the high bit set on all but the last.
    static func quantity(_ value: Int) -> [UInt8] {
        var bytes = [UInt8(value & 0x7F)]
        var v = value >> 7
        while v > 0 {
            bytes.insert(UInt8(v & 0x7F) | 0x80, at: 0)
            v >>= 7
        }
        return bytes
    }

    private static func be32(_ v: Int) -> [UInt8] {
        [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
}
