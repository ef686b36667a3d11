import Parameters
import AudioEngine

/// Parses the automation line format.
///
/// Grammar, one event per line; `#` starts a comment, blank lines are skipped:
///
/// ```text
/// TIME PARAMETER VALUE [ramp DURATION]
/// ```
///
/// - TIME and DURATION: `1.5s`, `250ms`, or a whole number of samples `72000smp`; a bare
///   `0` is allowed. A unit is required otherwise, so `48000` cannot be misread.
/// - PARAMETER: an id from the parameter table (`cutoff`, `resonance`, `gain`).
/// - VALUE: as typed on the command line and read by the table (`8k`, `800 Hz`, `-6 dB`,
///   `-inf`); it may contain spaces. Out-of-range values are refused, not clamped.
/// - `ramp DURATION`: glide length; `ramp 0` jumps. Without it the engine's default
///   smoothing applies, as for a knob.
///
/// Events may come in any order; events at the same sample apply in file order.
public enum AutomationParser {
    /// Parses the bytes of a file named `path` (for messages).
    ///
    /// - Throws: ``AudioFileError/automation(path:line:reason:)`` naming the first bad line.
    public static func parse(_ bytes: [UInt8], path: String, table: ParameterTable) throws(AudioFileError) -> Automation {
        var events: [AutomationEvent] = []
        var lineNumber = 0
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }  // UTF-8 byte order mark
        for rawLine in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            guard let line = String(validating: rawLine, as: UTF8.self) else {
                throw .automation(path: path, line: lineNumber, reason: "not UTF-8 text")
            }
            do throws(LineError) {
                if let event = try parseLine(line, number: lineNumber, table: table) { events.append(event) }
            } catch {
                throw .automation(path: path, line: lineNumber, reason: error.reason)
            }
        }
        return Automation(path: path, events: events)
    }

    /// Parses text (for tests and callers that already hold the file).
    public static func parse(_ text: String, path: String, table: ParameterTable) throws(AudioFileError) -> Automation {
        try parse(Array(text.utf8), path: path, table: table)
    }

    struct LineError: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// One line: nil for a blank or comment line.
    static func parseLine(_ line: String, number: Int, table: ParameterTable) throws(LineError) -> AutomationEvent? {
        let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
        if words.isEmpty { return nil }
        guard words.count >= 3 else {
            throw LineError("expected TIME PARAMETER VALUE [ramp DURATION], got '\(words.joined(separator: " "))'")
        }
        let time = try parseTime(words[0], what: "time")
        let parameter: ParameterIndex
        do { parameter = try table.index(of: words[1]) } catch { throw LineError(error.description) }
        var valueWords = Array(words[2...])
        var ramp: AutomationTime?
        if let r = valueWords.firstIndex(where: { $0.lowercased() == "ramp" }) {
            let after = valueWords[(r + 1)...]
            guard after.count == 1 else {
                throw LineError(after.isEmpty ? "'ramp' needs a duration, e.g. 'ramp 2s'"
                    : "expected one duration after 'ramp', got '\(after.joined(separator: " "))'")
            }
            ramp = try parseTime(after.first!, what: "ramp")
            valueWords.removeSubrange(r...)
        }
        guard !valueWords.isEmpty else { throw LineError("missing value for \(table[parameter].id)") }
        let value: Double
        do { value = try table[parameter].parse(valueWords.joined(separator: " ")) } catch { throw LineError(error.description) }
        return AutomationEvent(time: time, parameter: parameter, value: value, ramp: ramp, line: number)
    }

    /// `1.5s`, `250ms`, `72000smp` or `0`.
    static func parseTime(_ word: String, what: String) throws(LineError) -> AutomationTime {
        let text = word.lowercased()
        let hint = "write seconds (1.5s), milliseconds (250ms) or whole samples (72000smp)"
        if text == "0" { return .frames(0) }
        if text.hasSuffix("smp") {
            guard let n = Int64(text.dropLast(3)), n >= 0 else {
                throw LineError("invalid \(what) '\(word)': samples are a whole number ≥ 0 (72000smp)")
            }
            return .frames(n)
        }
        let number: Substring, scale: Double  // units per second
        if text.hasSuffix("ms") { number = text.dropLast(2); scale = 1_000 }
        else if text.hasSuffix("s") { number = text.dropLast(1); scale = 1 }
        else if DecimalText.number(text) != nil { throw LineError("\(what) '\(word)' has no unit: \(hint)") }
        else { throw LineError("invalid \(what) '\(word)': \(hint)") }
        guard let value = DecimalText.number(number) else { throw LineError("invalid \(what) '\(word)': \(hint)") }
        guard value >= 0 else { throw LineError("invalid \(what) '\(word)': must not be negative") }
        return .seconds(value / scale)  // dividing keeps 250ms exactly 0.25 s
    }

}
