import Glibc
import Testing
import TestSupport
@testable import OfflineRender

/// Standard MIDI Files built byte by byte, so each test shows the exact bytes it reads.
private enum SMF {
    /// A variable-length quantity: 7 bits a byte, most significant first, the high bit set on
    /// all but the last.
    static func vlq(_ value: UInt32) -> [UInt8] {
        var bytes = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest > 0 {
            bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return bytes
    }

    static func be32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
    static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    /// A chunk: its four-letter type, its length, its body.
    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        Array(type.utf8) + be32(UInt32(body.count)) + body
    }

    static func header(format: UInt16, tracks: UInt16, division: UInt16) -> [UInt8] {
        chunk("MThd", be16(format) + be16(tracks) + be16(division))
    }

    /// A whole file: the header, then one MTrk chunk per body.
    static func file(format: UInt16 = 1, division: UInt16 = 480, _ tracks: [[UInt8]]) -> [UInt8] {
        header(format: format, tracks: UInt16(tracks.count), division: division) + tracks.flatMap { chunk("MTrk", $0) }
    }

    /// An event: its delta time, then its bytes.
    static func at(_ delta: UInt32, _ bytes: [UInt8]) -> [UInt8] { vlq(delta) + bytes }

    /// A tempo meta event (microseconds per quarter note).
    static func tempo(_ delta: UInt32, _ microseconds: UInt32) -> [UInt8] {
        at(delta, [0xFF, 0x51, 0x03] + be32(microseconds).dropFirst())
    }

    static func endOfTrack(_ delta: UInt32 = 0) -> [UInt8] { at(delta, [0xFF, 0x2F, 0x00]) }

    /// A division word for a SMPTE time base: minus the frames per second, ticks per frame.
    static func smpte(_ framesPerSecond: Int8, _ ticksPerFrame: UInt8) -> UInt16 {
        UInt16(UInt8(bitPattern: -framesPerSecond)) << 8 | UInt16(ticksPerFrame)
    }
}

@Suite("Standard MIDI Files")
struct MIDIFileTests {
    typealias Event = MIDIFile.Event

    func parse(_ bytes: [UInt8]) throws -> MIDIFile { try MIDIFile.parse(bytes, source: "x.mid") }

    @Test("format 0: running status expanded, one-data-byte messages, meta and sysex skipped")
    func formatZero() throws {
        let track = SMF.at(0, [0xFF, 0x03, 0x04] + Array("lead".utf8))
            + SMF.at(0, [0xC0, 0x05])                       // program change: one data byte
            + SMF.at(0, [0x90, 0x3C, 0x64])
            + SMF.at(48, [0x40, 0x5A])                      // running status: note on
            + SMF.at(0, [0xF0, 0x03, 0x7E, 0x7F, 0xF7])     // sysex, skipped
            + SMF.at(48, [0x3C, 0x00])                      // running status across the sysex
            + SMF.at(0, [0xD0, 0x21])                       // channel pressure: one data byte
            + SMF.at(24, [0x22])                            // running status with one data byte
            + SMF.at(0, [0xF7, 0x02, 0x01, 0x02])           // an escape, skipped
            + SMF.at(0, [0xE3, 0x00, 0x40])
            + SMF.at(0, [0xA1, 0x3C, 0x10])                 // key pressure
            + SMF.at(0, [0xB2, 0x07, 0x7F])                 // a controller
            + SMF.endOfTrack(96)
        let file = try parse(SMF.file(format: 0, division: 96, [track]))
        // 96 ticks per quarter at the default 120 BPM: a tick is 1/192 s.
        #expect(file.events == [
            Event(seconds: 0, bytes: [0xC0, 0x05]),
            Event(seconds: 0, bytes: [0x90, 0x3C, 0x64]),
            Event(seconds: 0.25, bytes: [0x90, 0x40, 0x5A]),
            Event(seconds: 0.5, bytes: [0x90, 0x3C, 0x00]),
            Event(seconds: 0.5, bytes: [0xD0, 0x21]),
            Event(seconds: 0.625, bytes: [0xD0, 0x22]),
            Event(seconds: 0.625, bytes: [0xE3, 0x00, 0x40]),
            Event(seconds: 0.625, bytes: [0xA1, 0x3C, 0x10]),
            Event(seconds: 0.625, bytes: [0xB2, 0x07, 0x7F]),
        ])
        #expect(file.duration == 1.125)
    }

    @Test("format 1: a tempo change in the first track times the notes of the others")
    func formatOneTempoMap() throws {
        let tempo = SMF.at(0, [0xFF, 0x03, 0x05] + Array("tempo".utf8))
            + SMF.tempo(0, 500_000)        // 120 BPM: 480 ticks are 0.5 s
            + SMF.tempo(960, 250_000)      // 240 BPM from 1 s: 480 ticks are 0.25 s
            + SMF.tempo(960, 1_000_000)    // 60 BPM from 1.5 s: 480 ticks are 1 s
            + SMF.endOfTrack()
        let notes = SMF.at(0, [0x90, 0x3C, 0x64])
            + SMF.at(480, [0x80, 0x3C, 0x00])
            + SMF.at(480, [0x90, 0x3E, 0x64])     // on the first tempo change: 1 s
            + SMF.at(240, [0x80, 0x3E, 0x00])     // 1 s + 240 × 0.25/480 s
            + SMF.at(720, [0x90, 0x40, 0x64])     // 1920: the second change, 1.5 s
            + SMF.at(1, [0x80, 0x40, 0x00])       // one tick at 60 BPM: 1/480 s
            + SMF.endOfTrack(959)                  // 2880: 1.5 s + 960 ticks at 60 BPM
        let file = try parse(SMF.file(format: 1, division: 480, [tempo, notes]))
        #expect(file.events == [
            Event(seconds: 0, bytes: [0x90, 0x3C, 0x64]),
            Event(seconds: 0.5, bytes: [0x80, 0x3C, 0x00]),
            Event(seconds: 1, bytes: [0x90, 0x3E, 0x64]),
            Event(seconds: 1.125, bytes: [0x80, 0x3E, 0x00]),
            Event(seconds: 1.5, bytes: [0x90, 0x40, 0x64]),
            Event(seconds: 1.5 + 1.0 / 480, bytes: [0x80, 0x40, 0x00]),
        ])
        #expect(file.duration == 3.5)
    }

    @Test("a time is its tempo segment's start plus its own ticks, never a sum of deltas")
    func noDrift() throws {
        // 100 000 events one tick apart at 1/3 s a tick (tpq 3, 60 BPM): summing per-event
        // deltas would drift; each time is computed from tick 0.
        let count = 100_000
        var track: [UInt8] = SMF.tempo(0, 1_000_000)
        for _ in 0..<count { track += SMF.at(1, [0xB0, 0x01, 0x00]) }
        let file = try parse(SMF.file(format: 0, division: 3, [track + SMF.endOfTrack()]))
        #expect(file.events.count == count)
        #expect(file.events.last?.seconds == Double(count) * 1_000_000 / 3_000_000)
        #expect(file.events[2].seconds == 3.0 / 3.0)
    }

    @Test("a tempo change in a later track applies to every track, and at one tick the last one holds")
    func tempoElsewhere() throws {
        let first = SMF.at(0, [0x90, 0x3C, 0x64]) + SMF.at(960, [0x80, 0x3C, 0x00]) + SMF.endOfTrack()
        let second = SMF.tempo(480, 1_000_000) + SMF.tempo(0, 250_000) + SMF.endOfTrack()
        let file = try parse(SMF.file(format: 1, division: 480, [first, second]))
        #expect(file.events.map(\.seconds) == [0, 0.5 + 0.25])
    }

    /// Frames per second, ticks per frame, and the ticks in a second they make.
    static let timecodes: [(Int8, UInt8, Double)] = [(24, 4, 96), (25, 40, 1000), (30, 2, 60), (29, 100, 3_000_000.0 / 1001)]

    @Test("SMPTE division: frames per second × ticks per frame, 29 meaning 29.97", arguments: timecodes)
    func smpte(framesPerSecond: Int8, ticksPerFrame: UInt8, ticksPerSecond: Double) throws {
        let track = SMF.tempo(0, 250_000)  // ignored: a SMPTE time base has no tempo
            + SMF.at(0, [0x90, 0x3C, 0x64])
            + SMF.at(30, [0x80, 0x3C, 0x00])
            + SMF.at(1000, [0x90, 0x3C, 0x64])
            + SMF.endOfTrack(UInt32(ticksPerFrame))
        let file = try parse(SMF.file(format: 0, division: SMF.smpte(framesPerSecond, ticksPerFrame), [track]))
        let seconds = file.events.map(\.seconds)
        #expect(seconds.count == 3)
        for (got, ticks) in zip(seconds, [0.0, 30, 1030]) {
            #expect(abs(got - ticks / ticksPerSecond) <= 1e-15 * (1 + got), "\(ticks) ticks")
        }
        // One frame after the last event.
        #expect(abs(file.duration - (1030 + Double(ticksPerFrame)) / ticksPerSecond) <= 1e-15 * file.duration)
    }

    @Test("29.97 is exactly 30000/1001 frames per second")
    func dropFrame() throws {
        let track = SMF.at(30, [0x90, 0x3C, 0x64]) + SMF.endOfTrack()
        let file = try parse(SMF.file(format: 0, division: SMF.smpte(29, 1), [track]))
        #expect(file.events.map(\.seconds) == [1.001])
    }

    @Test("ties: track order, then file order")
    func ties() throws {
        let a = SMF.at(0, [0xB0, 0x07, 0x64]) + SMF.at(10, [0x90, 0x3C, 0x64]) + SMF.endOfTrack()
        let b = SMF.at(0, [0xB1, 0x07, 0x64]) + SMF.at(10, [0x91, 0x3C, 0x64]) + SMF.at(0, [0x3E, 0x64]) + SMF.endOfTrack()
        let c = SMF.at(5, [0x92, 0x3C, 0x64]) + SMF.at(5, [0x92, 0x3D, 0x64]) + SMF.endOfTrack(90)
        let file = try parse(SMF.file(format: 1, division: 100, [a, b, c]))
        #expect(file.events.map(\.bytes) == [
            [0xB0, 0x07, 0x64], [0xB1, 0x07, 0x64],
            [0x92, 0x3C, 0x64],
            [0x90, 0x3C, 0x64], [0x91, 0x3C, 0x64], [0x91, 0x3E, 0x64], [0x92, 0x3D, 0x64],
        ])
        #expect(file.events.map(\.seconds) == [0, 0, 0.025, 0.05, 0.05, 0.05, 0.05])
        #expect(file.duration == 0.5)  // the last end of track: tick 100 in the third track
    }

    @Test("unknown chunks are skipped, a 4-byte delta is read, events after an end of track are kept")
    func lenient() throws {
        let track = SMF.at(0x0FFF_FFFF, [0x90, 0x3C, 0x64]) + SMF.endOfTrack() + SMF.at(4, [0x80, 0x3C, 0x00])
        #expect(SMF.vlq(0x0FFF_FFFF) == [0xFF, 0xFF, 0xFF, 0x7F])
        let bytes = SMF.header(format: 0, tracks: 1, division: 1)
            + SMF.chunk("XFIH", [1, 2, 3]) + SMF.chunk("MTrk", track) + SMF.chunk("XFKM", [9])
        let file = try parse(bytes)
        #expect(file.events.map(\.seconds) == [Double(0x0FFF_FFFF) / 2, Double(0x0FFF_FFFF + 4) / 2])
        #expect(file.duration == Double(0x0FFF_FFFF + 4) / 2)
        // A header longer than 6 bytes is read by its length.
        let long = SMF.chunk("MThd", SMF.be16(0) + SMF.be16(1) + SMF.be16(2) + [0, 0]) + SMF.chunk("MTrk", SMF.at(2, [0xC3, 0x01]))
        #expect(try parse(long).events == [Event(seconds: 0.5, bytes: [0xC3, 0x01])])
        #expect(try parse(SMF.file(format: 1, [])) == MIDIFile(events: [], duration: 0))
    }

    static let oneTrack = SMF.header(format: 0, tracks: 1, division: 96)
    static func track(_ body: [UInt8]) -> [UInt8] { oneTrack + SMF.chunk("MTrk", body) }

    /// Bytes, and the one line they are refused with.
    static let malformed: [([UInt8], String)] = [
        ([UInt8](), "x.mid: not a Standard MIDI File (it does not start with MThd)"),
        (Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8), "x.mid: not a Standard MIDI File (it does not start with MThd)"),
        (Array("MThd".utf8) + [0, 0, 0], "x.mid: truncated: the header runs past the end of the file"),
        (Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1], "x.mid: truncated: the header runs past the end of the file"),
        (SMF.chunk("MThd", [0, 0, 0, 1]), "x.mid: not a Standard MIDI File (its header holds 4 bytes, not 6)"),
        (SMF.header(format: 2, tracks: 1, division: 96) + SMF.chunk("MTrk", SMF.endOfTrack()),
         "x.mid: format 2 (sequences of independent patterns) is not supported; only formats 0 and 1 play as one piece"),
        (SMF.header(format: 3, tracks: 1, division: 96), "x.mid: unknown format 3 (Standard MIDI Files are format 0, 1 or 2)"),
        (SMF.header(format: 0, tracks: 1, division: 0), "x.mid: division of 0 ticks per quarter note"),
        (SMF.header(format: 0, tracks: 1, division: SMF.smpte(20, 4)),
         "x.mid: SMPTE division of 20 frames per second (expected 24, 25, 29 for 29.97 drop-frame, or 30)"),
        (SMF.header(format: 0, tracks: 1, division: SMF.smpte(25, 0)), "x.mid: SMPTE division of 0 ticks per frame"),
        (SMF.header(format: 1, tracks: 2, division: 96) + SMF.chunk("MTrk", SMF.endOfTrack()),
         "x.mid: truncated: track 2 of 2 is missing"),
        (SMF.header(format: 1, tracks: 2, division: 96) + SMF.chunk("MTrk", SMF.endOfTrack()) + Array("MTr".utf8),
         "x.mid: truncated: track 2 runs past the end of the file"),
        (oneTrack + Array("MTrk".utf8) + SMF.be32(100) + SMF.endOfTrack(),
         "x.mid: truncated: track 1 runs past the end of the file (its chunk holds 100 bytes, 4 remain)"),
        (oneTrack + Array("XFIH".utf8) + SMF.be32(100) + [1, 2],
         "x.mid: truncated: a chunk of an unknown type before track 1 runs past the end of the file"),
        (track([0x00, 0x90, 0x3C]), "x.mid: truncated: track 1 ends inside an event at tick 0"),
        (track(SMF.at(96, [0xC0])), "x.mid: truncated: track 1 ends inside an event at tick 96"),
        (track([0x83]), "x.mid: truncated: track 1 ends inside an event at tick 0"),
        (track(SMF.at(7, [0xFF, 0x01, 0x05, 0x41])), "x.mid: truncated: track 1 ends inside an event at tick 7"),
        (track(SMF.at(7, [0xF0, 0x85])), "x.mid: truncated: track 1 ends inside an event at tick 7"),
        (track([0xFF, 0xFF, 0xFF, 0xFF, 0x7F, 0x90, 0x3C, 0x64]),
         "x.mid: track 1 at tick 0: a variable-length number longer than 4 bytes"),
        (track(SMF.at(5, [0xFF, 0x01, 0x80, 0x80, 0x80, 0x80, 0x00])),
         "x.mid: track 1 at tick 5: a variable-length number longer than 4 bytes"),
        (track(SMF.at(0, [0x90, 0x3C, 0x64]) + SMF.at(96, [0x90, 0x3C, 0x90])),
         "x.mid: track 1 at tick 96: data byte 0x90 after status 0x90 (data bytes are below 0x80)"),
        (track(SMF.at(0, [0xC0, 0xC0])), "x.mid: track 1 at tick 0: data byte 0xC0 after status 0xC0 (data bytes are below 0x80)"),
        (track(SMF.at(0, [0x3C, 0x64])), "x.mid: track 1 at tick 0: data byte 0x3C with no status before it"),
        (track(SMF.at(0, [0xF8])),
         "x.mid: track 1 at tick 0: status 0xF8 is not allowed in a file (only channel messages, F0/F7 sysex and FF meta events)"),
        (track(SMF.at(0, [0xFF, 0x51, 0x02, 0x07, 0xA1])), "x.mid: track 1 at tick 0: a tempo event of 2 bytes (expected 3)"),
    ]

    @Test("malformed files are refused in one line naming the file and the problem", arguments: malformed)
    func rejects(bytes: [UInt8], line: String) {
        #expect(throws: MIDIFileError(line)) { try MIDIFile.parse(bytes, source: "x.mid") }
    }

    @Test("the second track's problems name the second track")
    func secondTrack() {
        let bytes = SMF.file(format: 1, division: 96, [SMF.endOfTrack(), SMF.at(3, [0x90, 0x3C])])
        #expect(throws: MIDIFileError("x.mid: truncated: track 2 ends inside an event at tick 3")) { try parse(bytes) }
    }

    @Test("frames are the nearest frame to each time, at 44.1 and 48 kHz")
    func frames() throws {
        // 64 ticks per quarter at 240 BPM: a tick is 1/256 s exactly, so halves of a frame
        // are exact and round away from zero.
        var track = SMF.tempo(0, 250_000)
        for (delta, note) in [(0, 0), (1, 1), (1, 2), (1, 3), (29, 4)] as [(UInt32, UInt8)] {
            track += SMF.at(delta, [0x90, note, 0x40])
        }
        let file = try parse(SMF.file(format: 0, division: 64, [track + SMF.endOfTrack()]))
        // ticks 0, 1, 2, 3, 32: at 44100, 172.27 → 172, 344.53 → 345, 516.80 → 517, 5512.5 → 5513;
        // at 48000, 187.5 → 188, 375, 562.5 → 563, 6000.
        let at44 = file.frames(sampleRate: 44_100)
        #expect(at44.map(\.frame) == [0, 172, 345, 517, 5513])
        #expect(at44.map(\.bytes) == file.events.map(\.bytes))
        #expect(file.frames(sampleRate: 48_000).map(\.frame) == [0, 188, 375, 563, 6000])

        // 0.1 s and 0.3 s are not whole binary fractions, so their frames are a hair off a
        // whole number in a Double; the nearest frame is the whole one.
        let tenth = SMF.at(0, [0xC0, 0x00]) + SMF.at(100, [0xC0, 0x01]) + SMF.at(200, [0xC0, 0x02]) + SMF.endOfTrack()
        let smpte = try parse(SMF.file(format: 0, division: SMF.smpte(25, 40), [tenth]))
        #expect(smpte.frames(sampleRate: 48_000).map(\.frame) == [0, 4800, 14_400])
        #expect(smpte.frames(sampleRate: 44_100).map(\.frame) == [0, 4410, 13_230])
    }

    @Test("reading names the file when it cannot be read or is too large")
    func readFailures() throws {
        let folder = TemporaryFolder()
        let missing = folder.file("none.mid")
        #expect(throws: MIDIFileError("\(missing): cannot be read (No such file or directory)")) {
            try MIDIFile.read(path: missing)
        }
        #expect(throws: MIDIFileError("\(folder.path): cannot be read (Is a directory)")) {
            try MIDIFile.read(path: folder.path)
        }
        let large = folder.file("large.mid")
        let descriptor = open(large, O_CREAT | O_WRONLY, 0o644)
        #expect(descriptor >= 0)
        #expect(ftruncate(descriptor, off_t(MIDIFile.maximumFileSize + 1)) == 0)
        close(descriptor)
        #expect(MIDIFile.maximumFileSize == 64 << 20)
        #expect(throws: MIDIFileError("\(large): larger than 64 MiB")) { try MIDIFile.read(path: large) }

        let small = folder.write("small.mid", SMF.file(format: 0, [SMF.at(0, [0xC0, 0x01]) + SMF.endOfTrack(480)]))
        #expect(try MIDIFile.read(path: small) == MIDIFile(events: [Event(seconds: 0, bytes: [0xC0, 0x01])], duration: 0.5))
        let bad = folder.write("bad.mid", Array("MThx".utf8))
        #expect(throws: MIDIFileError("\(bad): not a Standard MIDI File (it does not start with MThd)")) {
            try MIDIFile.read(path: bad)
        }
    }

    /// The fixtures were written by mido 1.3.3 (`Fixtures/make-fixtures.py`), and each time
    /// below is what that script printed: mido's iteration of the file, its delta seconds
    /// summed. mido sums a rounded delta per message where the reader computes each time from
    /// its tempo segment's start, so the two agree to rounding, not to the bit.
    func expectMido(_ name: String, _ expected: [(Double, [UInt8])], length: Double) throws {
        let file = try MIDIFile.read(path: packageRoot + "/Tests/OfflineRenderTests/Fixtures/" + name)
        #expect(file.events.map(\.bytes) == expected.map(\.1))
        #expect(file.events.count == expected.count)
        for (event, (seconds, _)) in zip(file.events, expected) {
            #expect(abs(event.seconds - seconds) <= 1e-12, "\(event.bytes) at \(event.seconds) s, mido \(seconds) s")
        }
        #expect(abs(file.duration - length) <= 1e-12, "duration \(file.duration) s, mido \(length) s")
    }

    @Test("a format 0 file written by mido: the times mido gives")
    func midoFormatZero() throws {
        // Printed by make-fixtures.py (mido 1.3.3): 96 ticks per quarter, 120 BPM then 100 BPM
        // from 0.5 s; running status in the note-ons, a sysex and a tempo event between them.
        try expectMido("type0.mid", [
            (0.0, [0xC0, 0x05]),
            (0.0, [0x90, 0x3C, 0x64]),
            (0.25, [0x90, 0x40, 0x5A]),
            (0.5, [0x90, 0x3C, 0x00]),
            (1.1, [0x90, 0x40, 0x00]),
            (1.1625, [0xB0, 0x07, 0x40]),
            (1.20625, [0xE0, 0x30, 0x30]),
            (1.2125000000000001, [0xD0, 0x21]),
        ], length: 1.8375000000000001)
    }

    @Test("a format 1 file written by mido: its tempo track times the other tracks as mido does")
    func midoFormatOne() throws {
        // Printed by make-fixtures.py (mido 1.3.3): 480 ticks per quarter, tempo track 120 BPM,
        // 150 BPM from tick 960, 666667 µs per quarter from tick 2400; two tracks of notes
        // meeting at tick 1400, where mido keeps track order too.
        try expectMido("type1.mid", [
            (0.0, [0x91, 0x30, 0x50]),
            (1.0333333333333334, [0x81, 0x30, 0x00]),
            (1.3666666666666667, [0x91, 0x32, 0x51]),
            (1.3666666666666667, [0xB9, 0x0A, 0x14]),
            (1.3666666666666667, [0x99, 0x24, 0x7F]),
            (2.2013888895833333, [0x81, 0x32, 0x00]),
            (3.5888895833333336, [0x99, 0x24, 0x00]),
        ], length: 3.5888895833333336)
    }
}
