import TextFormats
import Parameters
import Platform

/// Why a preset could not be read, found, saved or deleted.
///
/// The description is one line naming the file (or the preset) and the problem, ready to
/// print on stderr: `~/.config/detent/presets/Dark.json: line 4, column 15: expected ',' or '}'
/// after the value of "cutoff", found '"'`. ``category`` tells a command which exit status fits.
public struct PresetError: ExitStatusError, Sendable, Hashable {
    /// The conventional exit status of its category.
    public var exitCode: Int32 { category.exitCode }

    /// The file concerned (a path, or `factory preset Dark.json`), nil when the problem is
    /// about a name rather than a file.
    public let source: String?
    public let problem: Problem

    public init(_ problem: Problem, source: String? = nil) {
        self.problem = problem
        self.source = source
    }

    /// One line, with any control character (from a file name or a JSON key) made visible
    /// so that printing it cannot disturb the terminal.
    public var description: String {
        PresetName.printable(source.map { "\($0): \(problem)" } ?? problem.description)
    }

    /// Who has to act: the person typing the command, the file's content, or the system.
    public enum Category: Sendable, Hashable {
        /// A name or option was wrong (no such preset, already exists, read-only, unsafe name).
        case usage
        /// A file's content is not a valid preset.
        case data
        /// Reading, writing or renaming a file failed.
        case io

        /// The conventional exit status: usage 64, bad data 65, I/O 74 (sysexits.h).
        public var exitCode: Int32 {
            switch self {
            case .usage: 64
            case .data: 65
            case .io: 74
            }
        }
    }

    public var category: Category {
        switch problem {
        case .invalidName, .notFound, .alreadyExists, .nameClash, .fileExists, .factoryReadOnly: .usage
        case .io: .io
        case .malformedJSON, .tooLarge, .notAnObject, .missingField, .wrongType, .notFinite, .otherProcessor,
             .duplicateParameter, .newerFormat, .invalidFormatVersion: .data
        }
    }

    public enum Problem: Sendable, Hashable, CustomStringConvertible {
        /// The text is not JSON; carries the line and column of the first mistake.
        case malformedJSON(JSONParseError)
        case tooLarge(limit: Int)
        case notAnObject(found: String)
        case missingField(String)
        case wrongType(field: String, expected: String, found: String)
        /// `NaN`, `Infinity`, or a number too large for a `Double`.
        case notFinite(field: String, text: String)
        /// The same parameter given twice (ids are case-insensitive).
        case duplicateParameter(String)
        /// The preset belongs to another processor (a plug-in's preset read for the built-in engine).
        case otherProcessor(found: String, expected: String)
        case newerFormat(found: Int, newestKnown: Int)
        case invalidFormatVersion(String)
        case invalidName(name: String, reason: String)
        case notFound(String)
        case alreadyExists(String)
        /// Saving `name` would replace `existing`, a different preset whose name differs only in case.
        case nameClash(name: String, existing: String)
        case fileExists(path: String)
        case factoryReadOnly(String)
        /// A system call failed: what was being done and the system's reason.
        case io(String)

        public var description: String {
            switch self {
            case .malformedJSON(let error):
                "malformed JSON at \(error)"
            case .tooLarge(let limit):
                "larger than \(limit) bytes, which no preset is"
            case .notAnObject(let found):
                "expected a JSON object with the preset's fields, found \(found)"
            case .missingField(let field):
                "missing the \"\(field)\" field"
            case .wrongType(let field, let expected, let found):
                "\"\(field)\" must be \(expected), found \(found)"
            case .notFinite(let field, let text):
                "\"\(field)\" is \(text), which is not a finite number"
            case .otherProcessor(let found, let expected):
                "belongs to processor \(JSONWriter.quoted(found)), not \(JSONWriter.quoted(expected))"
            case .duplicateParameter(let id):
                "the parameter '\(id)' is given more than once"
            case .newerFormat(let found, let newest):
                "written in preset format \(found), but this Detent reads formats up to \(newest); update Detent to read it"
            case .invalidFormatVersion(let text):
                "\"formatVersion\" must be a whole number of 0 or more, found \(text)"
            case .invalidName(let name, let reason):
                "invalid preset name \(PresetName.quoted(name)): \(reason)"
            case .notFound(let name):
                "no preset named \(PresetName.quoted(name)) (see 'detent preset list')"
            case .alreadyExists(let name):
                "a user preset named \(PresetName.quoted(name)) already exists (use --force to replace it)"
            case .nameClash(let name, let existing):
                "\(PresetName.quoted(name)) clashes with the user preset \(PresetName.quoted(existing)) "
                    + "(names are compared ignoring case; use --force to replace it)"
            case .fileExists(let path):
                "\(path) already exists (use --force to replace it)"
            case .factoryReadOnly(let name):
                "\(PresetName.quoted(name)) is a factory preset, which cannot be changed or deleted"
            case .io(let detail):
                detail
            }
        }
    }
}
