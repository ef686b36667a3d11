/// What sort of control a parameter is: a continuous knob, or one of the stepped kinds a
/// plug-in declares (LV2's `toggled`, `integer`, `enumeration`).
///
/// Stepped kinds never glide — the engine jumps to each new value, since a value between two
/// steps means nothing — and every value they hold is one of their steps: ``ParameterSpec/clamp(_:)``
/// snaps to the nearest.
public enum ParameterKind: Sendable, Hashable {
    /// Any value in the range.
    case continuous
    /// Off (the range minimum) or on (the maximum); shown as `off`/`on`.
    case toggle
    /// Whole numbers in the range.
    case integer
    /// One of a list of labelled values, shown by label (`Lowpass`, `Highpass`).
    case enumeration([ScalePoint])

    /// The kind's name in tables and JSON.
    public var name: String {
        switch self {
        case .continuous: "continuous"
        case .toggle: "toggle"
        case .integer: "integer"
        case .enumeration: "enumeration"
        }
    }

    /// True for every kind but `continuous`.
    public var isStepped: Bool { self != .continuous }
}

/// One labelled value of an enumeration.
public struct ScalePoint: Sendable, Hashable {
    public let value: Double
    public let label: String

    public init(_ value: Double, _ label: String) {
        self.value = value
        self.label = label
    }
}
