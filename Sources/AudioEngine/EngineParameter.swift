import Parameters

/// The facts of a parameter the audio thread needs, copied from its table row into plain
/// values (the row's strings must not be touched there: copying them costs reference counts).
struct EngineParameter: BitwiseCopyable {
    var lowerBound: Double
    var upperBound: Double
    var silenceFloor: Double
    var unit: ParameterUnit
    /// Decibels travel as amplitude (``ParameterSpec/glidesInAmplitude``); otherwise values
    /// stay in their unit.
    var amplitude: Bool
    /// A stepped parameter (toggle, integer, enumeration): every change is a jump.
    var jumps: Bool
    /// While it glides, an external kernel gets this parameter's value at the frames of the
    /// engine's timeline where `frame & controlMask == 0` (its control interval − 1).
    var controlMask: Int64 = Engine.externalInterval - 1

    init(_ spec: ParameterSpec) {
        lowerBound = spec.range.lowerBound
        upperBound = spec.range.upperBound
        silenceFloor = spec.silenceFloor
        unit = spec.unit
        amplitude = spec.glidesInAmplitude
        jumps = spec.smoothing == .none
    }

    init() {
        lowerBound = 0
        upperBound = 0
        silenceFloor = 0
        unit = .quality
        amplitude = false
        jumps = false
    }

    /// `value` clamped to the range and mapped into the engine domain (dB → amplitude).
    @_noLocks
    func engineValue(_ value: Double) -> Double {
        let v = min(max(value, lowerBound), upperBound)
        return ParameterSpec.engineValue(v, unit: unit, silenceBelow: silenceFloor, amplitude: amplitude)
    }
}
