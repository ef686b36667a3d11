/// A JSON document as a tree that keeps what a round trip must not lose: the order of an
/// object's members and each number exactly as it was written.
///
/// Presets keep fields they do not interpret (the reserved `midi` mappings) as a `JSONValue`,
/// so reading and saving a preset written by a later release gives back the same text for
/// those fields.
///
/// ```swift
/// let value = try JSONParser.parse(Array(#"{"cc": [74, 71]}"#.utf8))
/// value.member("cc")  // .array([.number("74"), .number("71")])
/// ```
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number as written (`0.707`, `2e4`). The parser also accepts `NaN`, `Infinity` and
    /// `-Infinity`, which some writers emit, so validation can name the field that holds one.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in document order; keys are unique (the parser refuses duplicates).
    case object([JSONMember])

    /// A number value written the shortest way that reads back to the same `Double`
    /// (`800`, not `800.0`): the one number style of everything Detent writes. JSON has no
    /// NaN or infinity, so a non-finite value is `null`.
    public static func number(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .null }
        if value == value.rounded(), abs(value) < 1e15 {
            return .number(String(Int64(value)))
        }
        return .number(String(value))
    }

    /// `value` rounded to `places` decimals first (durations, timings, decibels in summaries,
    /// where more digits would only be noise).
    public static func number(_ value: Double, places: Int) -> JSONValue {
        guard value.isFinite else { return .null }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return number((value * scale).rounded() / scale)
    }

    /// An integer count.
    public static func number<Integer: BinaryInteger>(_ value: Integer) -> JSONValue {
        .number(String(value))
    }

    /// A string, or `null` when there is none.
    public static func string(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }

    /// This value as one line of compact JSON.
    public var compactText: String { JSONWriter.text(of: self, pretty: false) }

    /// The value of a number, or nil for any other kind (`NaN` and `±Infinity` included as
    /// non-finite doubles; a literal too large for a `Double` reads as infinite).
    public var doubleValue: Double? {
        guard case .number(let text) = self else { return nil }
        return Double(text)
    }

    /// The member called `key` of an object, or nil.
    public func member(_ key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// What kind of value this is, for messages (`a string`, `an array`).
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
