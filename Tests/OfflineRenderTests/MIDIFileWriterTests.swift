import AudioEngine
import Testing
@testable import OfflineRender

/// The MIDI files `render --midi-out` writes, read back by Detent's own reader (the render
/// tests read them with midicsv too).
@Suite("MIDI file writer")
struct MIDIFileWriterTests {
    @Test("messages come back at the times of their frames, within half a tick, in order, at any tempo",
          arguments: [120.0, 90.0, 33.3])
    func roundTrip(bpm: Double) throws {
        let frames: [Int64] = [0, 1, 24_000, 24_013, 48_000, 95_999]
        let messages = frames.enumerated().map { i, frame in
            MIDIOutput.Message(frame: frame, bytes: [0x90 | UInt8(i), 60 + UInt8(i), 100])
        }
        let (bytes, skipped) = MIDIFileWriter.bytes(messages, sampleRate: 48_000, beatsPerMinute: bpm, endFrame: 96_000)
        #expect(skipped == 0)
        let file = try MIDIFile.parse(bytes, source: "out.mid")
        #expect(file.events.map(\.bytes) == messages.map(\.bytes))
        let tempo = (60_000_000 / bpm).rounded()
        let halfTick = tempo / 1_000_000 / Double(MIDIFileWriter.ticksPerQuarter) / 2
        for (event, frame) in zip(file.events, frames) {
            #expect(abs(event.seconds - Double(frame) / 48_000) <= halfTick + 1e-9, "frame \(frame): \(event.seconds) s")
        }
        #expect(abs(file.duration - 2) <= halfTick + 1e-9)
    }

    @Test("system exclusive is kept; real-time, system common and malformed messages are left out and counted")
    func whatAFileHolds() throws {
        let messages: [[UInt8]] = [
            [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7],  // kept
            [0xF8],                                // timing clock: real time
            [0xF2, 0x00, 0x10],                    // song position: system common
            [0x90, 60],                            // a note-on a byte short
            [0xC0, 5, 1],                          // a program change a byte long
            [0x80, 0x80, 0],                       // a data byte with its high bit set
            [0x3C, 100],                           // no status
            [0xC0, 5],                             // kept
        ]
        let (bytes, skipped) = MIDIFileWriter.bytes(messages.map { MIDIOutput.Message(frame: 100, bytes: $0) },
                                                    sampleRate: 48_000, beatsPerMinute: 120, endFrame: 0)
        #expect(skipped == 6)
        // Detent's reader skips system exclusive; the program change is the one channel message.
        let file = try MIDIFile.parse(bytes, source: "out.mid")
        #expect(file.events.map(\.bytes) == [[0xC0, 5]])
        // The sysex event: F0, its length (5), the bytes after F0.
        let sysex: [UInt8] = [0xF0, 0x05, 0x7E, 0x7F, 0x09, 0x01, 0xF7]
        #expect(bytes.indices.contains { bytes[$0...].starts(with: sysex) })
    }
}
