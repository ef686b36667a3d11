import Platform

/// A Standard MIDI File's channel messages at their times, for playing a render's instruments.
///
/// Formats 0 (one track) and 1 (tracks played together) are read; format 2, a set of
/// independent patterns with no one timeline, is refused. Times come from the file's division
/// and its tempo map, so a render at any sample rate places each message at
/// ``frames(sampleRate:)`` without knowing about ticks or tempo. Meta events and system
/// exclusive messages carry nothing an instrument render plays and are skipped, the tempo
/// changes aside, which only shape the times.
///
/// ```swift
/// let song = try MIDIFile.read(path: "song.mid")
/// for (frame, bytes) in song.frames(sampleRate: 48_000) { … }
/// ```
public struct MIDIFile: Sendable, Equatable {
    public struct Event: Sendable, Equatable {
        /// Seconds from the start of the file, through the file's tempo map.
        public let seconds: Double
        /// One channel message: 2 or 3 bytes with its status byte (running status expanded).
        public let bytes: [UInt8]
    }

    /// Every channel message of every track, in time order (ties: track order, then file order).
    public let events: [Event]
    /// When the last track ends (its latest end-of-track, or last event), in seconds.
    public let duration: Double

    /// The largest file ``read(path:)`` accepts: far more than any real MIDI file (a dense
    /// hour is a few megabytes), so only a wrong path (a recording, a device) is refused,
    /// before it costs its memory.
    public static let maximumFileSize = 64 << 20

    /// Reads and parses the file at `path` (at most `maximumFileSize` bytes).
    ///
    /// - Throws: ``MIDIFileError`` naming `path` and why it cannot be read or used.
    public static func read(path: String) throws(MIDIFileError) -> MIDIFile {
        let bytes: [UInt8]
        do throws(BoundedFileReader.Failure) {
            bytes = try BoundedFileReader.read(path: path, limit: maximumFileSize)
        } catch {
            switch error {
            case .system(let code): throw MIDIFileError("\(path): cannot be read (\(code))")
            case .tooLarge(let limit): throw MIDIFileError("\(path): larger than \(limit >> 20) MiB")
            }
        }
        return try parse(bytes, source: path)
    }

    /// Parses the bytes of a file; `source` names it in errors.
    ///
    /// - Throws: ``MIDIFileError`` for bytes that are not a Standard MIDI File of format 0 or 1,
    ///   or that end, or break the grammar, inside a chunk or an event.
    public static func parse(_ bytes: [UInt8], source: String) throws(MIDIFileError) -> MIDIFile {
        do throws(Problem) {
            return try Parser(bytes).file()
        } catch {
            throw MIDIFileError("\(source): \(error.reason)")
        }
    }

    /// The events at frames of `sampleRate` (each the nearest frame to its time), in order.
    ///
    /// Rounding to the nearest frame, rather than down, keeps a time that is a whole frame
    /// up to the last bit of a `Double` (0.1 s is 4799.999… frames at 48 kHz) on that frame.
    /// Rounding never reorders, so the order is the events' own. A time past what `Int64`
    /// counts (millions of years) is the last frame `Int64` holds.
    public func frames(sampleRate: Int) -> [(frame: Int64, bytes: [UInt8])] {
        precondition(sampleRate > 0, "a sample rate is positive")
        let rate = Double(sampleRate)
        return events.map { event in
            let frame = (event.seconds * rate).rounded()
            return (frame < 9.0e18 ? Int64(frame) : Int64.max, event.bytes)
        }
    }
}

/// Why a MIDI file cannot be used: one line naming the file and the problem.
///
/// ```swift
/// try MIDIFile.read(path: "take.wav")
/// // "take.wav: not a Standard MIDI File (it does not start with MThd)"
/// ```
public struct MIDIFileError: ExitStatusError, Sendable, Equatable {
    /// A MIDI file Detent cannot read is bad data.
    public var exitCode: Int32 { 65 }

    public let description: String

    init(_ description: String) { self.description = description }
}

extension MIDIFile {
    /// What is wrong, without the file's name (``parse(_:source:)`` adds it).
    struct Problem: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// How ticks become seconds: by the tempo map for a division in ticks per quarter note,
    /// or at a fixed rate for a SMPTE division (where tempo events change nothing).
    enum Clock {
        /// Ticks per quarter note, and the tempo segments in tick order, the first at tick 0
        /// (none until ``Times`` has read the tempo changes).
        case metrical(ticksPerQuarter: Int, segments: [TempoSegment])
        /// Seconds per tick as a fraction: 1 / (frames per second × ticks per frame), with
        /// 29.97 written 30000/1001 so no rounded rate enters.
        case timecode(numerator: Double, denominator: Double)
    }

    /// A stretch of the file at one tempo.
    struct TempoSegment {
        /// The tick it starts at.
        var tick: Int64
        /// The time of that tick.
        var seconds: Double
        /// Microseconds per quarter note.
        var tempo: Int64
    }

    /// A channel message before the tempo map is known: its tick, and its place in the file
    /// (track by track, each in file order), the order ties keep.
    struct TimedMessage {
        var tick: Int64
        var position: Int
        var bytes: [UInt8]
    }

    /// The parse of one file: the header, then each track, then times for every message.
    struct Parser {
        let bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func file() throws(Problem) -> MIDIFile {
            guard bytes.count >= 4, Array(bytes[0..<4]) == Array("MThd".utf8) else {
                throw Problem("not a Standard MIDI File (it does not start with MThd)")
            }
            guard bytes.count >= 8 else { throw Problem("truncated: the header runs past the end of the file") }
            let headerLength = Int(uint32(at: 4))
            guard headerLength >= 6 else {
                throw Problem("not a Standard MIDI File (its header holds \(headerLength) bytes, not 6)")
            }
            guard headerLength <= bytes.count - 8 else {
                throw Problem("truncated: the header runs past the end of the file")
            }
            let format = uint16(at: 8), trackCount = Int(uint16(at: 10)), division = uint16(at: 12)
            switch format {
            case 0, 1: break
            case 2: throw Problem("format 2 (sequences of independent patterns) is not supported; only formats 0 and 1 play as one piece")
            default: throw Problem("unknown format \(format) (Standard MIDI Files are format 0, 1 or 2)")
            }
            let clock = try clock(division: division)

            // Every track, in file order; unknown chunk types between them are skipped, as
            // the specification asks of readers, and anything after the last track ignored.
            var messages: [TimedMessage] = []
            var tempos: [TempoChange] = []
            var endTick: Int64 = 0
            var offset = 8 + headerLength
            var track = 1
            while track <= trackCount {
                guard offset < bytes.count else { throw Problem("truncated: track \(track) of \(trackCount) is missing") }
                guard bytes.count - offset >= 8 else {
                    throw Problem("truncated: track \(track) runs past the end of the file")
                }
                let type = Array(bytes[offset..<offset + 4]), length = Int(uint32(at: offset + 4))
                let body = offset + 8
                guard length <= bytes.count - body else {
                    throw type == Array("MTrk".utf8)
                        ? Problem("truncated: track \(track) runs past the end of the file (its chunk holds \(length) bytes, \(bytes.count - body) remain)")
                        : Problem("truncated: a chunk of an unknown type before track \(track) runs past the end of the file")
                }
                if type == Array("MTrk".utf8) {
                    var reader = TrackReader(bytes: bytes, start: body, end: body + length, track: track)
                    let last = try reader.read(into: &messages, tempos: &tempos)
                    endTick = max(endTick, last)
                    track += 1
                }
                offset = body + length
            }

            let times = Times(clock: clock, tempos: tempos)
            // Each track's messages are in tick order already; sorting by tick, then place in
            // the file, merges them with ties in track order, then file order.
            messages.sort { ($0.tick, $0.position) < ($1.tick, $1.position) }
            var cursor = times.cursor()
            let events = messages.map { Event(seconds: cursor.seconds(at: $0.tick), bytes: $0.bytes) }
            // The end is at or after every message, so the same walk reaches it.
            return MIDIFile(events: events, duration: cursor.seconds(at: endTick))
        }

        /// The division word: ticks per quarter note, or SMPTE frames per second (negative,
        /// in the high byte) times ticks per frame.
        func clock(division: UInt16) throws(Problem) -> Clock {
            if division & 0x8000 == 0 {
                guard division > 0 else { throw Problem("division of 0 ticks per quarter note") }
                return .metrical(ticksPerQuarter: Int(division), segments: [])
            }
            let framesPerSecond = -Int(Int8(bitPattern: UInt8(division >> 8)))
            let ticksPerFrame = Double(division & 0xFF)
            guard ticksPerFrame > 0 else { throw Problem("SMPTE division of 0 ticks per frame") }
            switch framesPerSecond {
            case 24, 25, 30: return .timecode(numerator: 1, denominator: Double(framesPerSecond) * ticksPerFrame)
            case 29: return .timecode(numerator: 1001, denominator: 30_000 * ticksPerFrame)  // 29.97 drop-frame
            default:
                throw Problem("SMPTE division of \(framesPerSecond) frames per second (expected 24, 25, 29 for 29.97 drop-frame, or 30)")
            }
        }

        func uint16(at i: Int) -> UInt16 { UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]) }
        func uint32(at i: Int) -> UInt32 {
            UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
        }
    }

    /// A tempo event: microseconds per quarter note from its tick on, and its place in the file.
    struct TempoChange {
        var tick: Int64
        var position: Int
        var tempo: Int64
    }

    /// The events of one MTrk chunk.
    struct TrackReader {
        let bytes: [UInt8]
        var offset: Int
        let end: Int
        let track: Int
        var tick: Int64 = 0

        init(bytes: [UInt8], start: Int, end: Int, track: Int) {
            self.bytes = bytes
            self.offset = start
            self.end = end
            self.track = track
        }

        /// Appends the track's channel messages and tempo changes, and returns the tick of its
        /// last event (its end-of-track, normally).
        ///
        /// The whole chunk is read, events after an end-of-track included: such a file breaks
        /// the specification, and playing what it holds (as other readers, mido among them,
        /// do) loses nothing. Running status likewise survives meta events and sysex, which the
        /// specification says cancel it: a file that follows it never relies on either way.
        mutating func read(into messages: inout [TimedMessage], tempos: inout [TempoChange]) throws(Problem) -> Int64 {
            var runningStatus: UInt8?
            while offset < end {
                tick += Int64(try quantity())
                let first = try byte()
                switch first {
                case 0xFF:
                    let type = try byte()
                    let length = try quantity()
                    if type == 0x51 {
                        guard length == 3 else { throw failure("a tempo event of \(length) bytes (expected 3)") }
                        let data = try take(3)
                        let tempo = Int64(data[0]) << 16 | Int64(data[1]) << 8 | Int64(data[2])
                        tempos.append(TempoChange(tick: tick, position: tempos.count, tempo: tempo))
                    } else {
                        try skip(length)
                    }
                case 0xF0, 0xF7:
                    try skip(try quantity())
                case 0xF1...0xFE:
                    throw failure("status \(hex(first)) is not allowed in a file (only channel messages, F0/F7 sysex and FF meta events)")
                default:
                    let status: UInt8, data1: UInt8
                    if first >= 0x80 {
                        status = first
                        data1 = try dataByte(after: status)
                    } else {
                        guard let running = runningStatus else {
                            throw failure("data byte \(hex(first)) with no status before it")
                        }
                        status = running
                        data1 = first
                    }
                    runningStatus = status
                    let kind = status & 0xF0
                    let message = kind == 0xC0 || kind == 0xD0
                        ? [status, data1] : [status, data1, try dataByte(after: status)]
                    messages.append(TimedMessage(tick: tick, position: messages.count, bytes: message))
                }
            }
            return tick
        }

        /// A byte of the chunk; the chunk ending first is a truncated event.
        mutating func byte() throws(Problem) -> UInt8 {
            guard offset < end else { throw Problem("truncated: track \(track) ends inside an event at tick \(tick)") }
            defer { offset += 1 }
            return bytes[offset]
        }

        /// A data byte of a channel message: below 0x80, or the message is malformed.
        mutating func dataByte(after status: UInt8) throws(Problem) -> UInt8 {
            let value = try byte()
            guard value < 0x80 else {
                throw failure("data byte \(hex(value)) after status \(hex(status)) (data bytes are below 0x80)")
            }
            return value
        }

        /// A variable-length quantity: 7 bits a byte, high bit set on all but the last, at
        /// most 4 bytes (28 bits), as the specification bounds it.
        mutating func quantity() throws(Problem) -> Int {
            var value = 0
            for _ in 0..<4 {
                let b = try byte()
                value = value << 7 | Int(b & 0x7F)
                if b < 0x80 { return value }
            }
            throw failure("a variable-length number longer than 4 bytes")
        }

        mutating func take(_ count: Int) throws(Problem) -> [UInt8] {
            guard count <= end - offset else { throw Problem("truncated: track \(track) ends inside an event at tick \(tick)") }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }

        mutating func skip(_ count: Int) throws(Problem) {
            guard count <= end - offset else { throw Problem("truncated: track \(track) ends inside an event at tick \(tick)") }
            offset += count
        }

        func failure(_ reason: String) -> Problem { Problem("track \(track) at tick \(tick): \(reason)") }
        func hex(_ byte: UInt8) -> String {
            let digits = Array("0123456789ABCDEF")
            return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
        }
    }

    /// Seconds for ticks, from the clock and the file's tempo changes.
    struct Times {
        let clock: Clock

        /// `tempos` in file order (track by track); in format 1 they belong in the first track,
        /// but one in any track applies to all, as other readers take it. At one tick, the
        /// last in that order holds.
        init(clock: Clock, tempos: [TempoChange]) {
            guard case .metrical(let ticksPerQuarter, _) = clock else {
                self.clock = clock
                return
            }
            let changes = tempos.sorted { ($0.tick, $0.position) < ($1.tick, $1.position) }
            var segments = [TempoSegment(tick: 0, seconds: 0, tempo: 500_000)]
            for change in changes {
                let last = segments[segments.count - 1]
                if change.tick == last.tick {
                    segments[segments.count - 1].tempo = change.tempo
                } else {
                    let start = Self.seconds(from: last, to: change.tick, ticksPerQuarter: ticksPerQuarter)
                    segments.append(TempoSegment(tick: change.tick, seconds: start, tempo: change.tempo))
                }
            }
            self.clock = .metrical(ticksPerQuarter: ticksPerQuarter, segments: segments)
        }

        /// The time of `tick` in `segment`: from the segment's start, in one product and one
        /// quotient, so a time carries the rounding of its segment's start and its own, never
        /// a sum over the events before it.
        static func seconds(from segment: TempoSegment, to tick: Int64, ticksPerQuarter: Int) -> Double {
            segment.seconds
                + Double(tick - segment.tick) * Double(segment.tempo) / (1_000_000 * Double(ticksPerQuarter))
        }

        /// Times for ticks asked in ascending order, walking the segments once.
        func cursor() -> Cursor { Cursor(clock: clock) }

        struct Cursor {
            let clock: Clock
            var segment = 0

            mutating func seconds(at tick: Int64) -> Double {
                switch clock {
                case .timecode(let numerator, let denominator):
                    return Double(tick) * numerator / denominator
                case .metrical(let ticksPerQuarter, let segments):
                    while segment + 1 < segments.count && segments[segment + 1].tick <= tick { segment += 1 }
                    return Times.seconds(from: segments[segment], to: tick, ticksPerQuarter: ticksPerQuarter)
                }
            }
        }
    }
}
