import Parameters
import AudioEngine
import Platform

/// A timeline of parameter events for an offline render, read from an automation file.
///
/// The file is plain text, one event per line (see ``AutomationParser`` for the grammar):
///
/// ```text
/// # time    parameter  value    [ramp duration]
/// 0         cutoff     200
/// 1.5s      cutoff     8k       ramp 2s
/// 72000smp  gain       -6 dB    ramp 4800smp
/// 3s        resonance  4        ramp 0
/// ```
///
/// Events become ``ParameterChange``s stamped with their exact frame, and reach the engine
/// through the same queue and smoothers as a knob turned live.
public struct Automation: Equatable, Sendable {
    /// The file the events came from (named in messages).
    public var path: String
    public var events: [AutomationEvent]

    public init(path: String, events: [AutomationEvent]) {
        self.path = path
        self.events = events
    }

    /// No events.
    public static let none = Automation(path: "", events: [])

    /// Reads and parses an automation file.
    ///
    /// - Throws: ``AudioFileError/automation(path:line:reason:)`` for a malformed line, or the
    ///   error for a file that cannot be read.
    public static func load(path: String, table: ParameterTable) throws(AudioFileError) -> Automation {
        let limit = 64 << 20
        let bytes: [UInt8]
        do throws(BoundedFileReader.Failure) {
            bytes = try BoundedFileReader.read(path: path, limit: limit)
        } catch {
            switch error {
            case .system(.isDirectory): throw .isDirectory(path: path)
            case .system(let reason): throw .cannotOpen(path: path, reason: reason.description)
            case .tooLarge: throw .automation(path: path, line: 1, reason: "larger than \(limit >> 20) MB; not an automation file")
            }
        }
        return try AutomationParser.parse(bytes, path: path, table: table)
    }

    /// The events as engine changes for a file at `sampleRate`, ordered by frame; events at
    /// the same frame keep their order in the file.
    ///
    /// - Throws: ``AudioFileError/automationDoesNotFit(path:input:reason:)`` when a time or a
    ///   ramp is too long to be counted in frames at this rate.
    public func changes(sampleRate: Int, input: String) throws(AudioFileError) -> [ParameterChange] {
        var changes: [ParameterChange] = []
        changes.reserveCapacity(events.count)
        for event in events {
            guard let frame = event.time.frames(sampleRate: sampleRate) else {
                throw .automationDoesNotFit(path: path, input: input, reason: "line \(event.line): time \(event.time) is too far")
            }
            var ramp = ParameterChange.defaultRamp
            if let length = event.ramp {
                guard let frames = length.frames(sampleRate: sampleRate), frames <= Int64(Int32.max) else {
                    throw .automationDoesNotFit(path: path, input: input, reason: "line \(event.line): ramp \(length) is too long")
                }
                ramp = Int32(frames)
            }
            changes.append(ParameterChange(event.parameter, event.value, frame: frame, rampFrames: ramp))
        }
        // A stable sort: equal frames keep file order.
        return changes.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
    }
}

/// One line of an automation file.
public struct AutomationEvent: Equatable, Sendable {
    public var time: AutomationTime
    public var parameter: ParameterIndex
    /// In the parameter's unit (Hz, Q, dB), inside its range.
    public var value: Double
    /// The glide's length; nil for the engine's default smoothing (as a knob turn gets).
    public var ramp: AutomationTime?
    /// The line it came from (1-based), for messages.
    public var line: Int

    public init(time: AutomationTime, parameter: ParameterIndex, value: Double, ramp: AutomationTime? = nil, line: Int = 0) {
        self.time = time
        self.parameter = parameter
        self.value = value
        self.ramp = ramp
        self.line = line
    }
}

/// A time or duration, in seconds or in whole samples (frames).
public enum AutomationTime: Equatable, Sendable, CustomStringConvertible {
    case seconds(Double)
    case frames(Int64)

    /// The frame count at `sampleRate` (seconds rounded to the nearest frame); nil when it
    /// does not fit in 63 bits.
    public func frames(sampleRate: Int) -> Int64? {
        switch self {
        case .frames(let n): return n
        case .seconds(let s):
            let x = (s * Double(sampleRate)).rounded()
            return x < 9.2e18 ? Int64(x) : nil
        }
    }

    public var description: String {
        switch self {
        case .seconds(let s): "\(s)s"
        case .frames(let n): "\(n)smp"
        }
    }
}
