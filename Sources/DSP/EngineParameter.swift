/// The facts of a parameter the audio thread needs, copied from its table row into plain
/// values (the row's strings must not be touched there: copying them costs reference counts).
struct EngineParameter: BitwiseCopyable {
    var lowerBound: Double
    var upperBound: Double
    var silenceFloor: Double
    var unit: ParameterUnit

    init(_ spec: ParameterSpec) {
        lowerBound = spec.range.lowerBound
        upperBound = spec.range.upperBound
        silenceFloor = spec.silenceFloor
        unit = spec.unit
    }

    init() {
        lowerBound = 0
        upperBound = 0
        silenceFloor = 0
        unit = .quality
    }

    /// `value` clamped to the range and mapped into the engine domain (dB → amplitude).
    @_noLocks
    func engineValue(_ value: Double) -> Double {
        let v = min(max(value, lowerBound), upperBound)
        return ParameterSpec.engineValue(v, unit: unit, silenceBelow: silenceFloor)
    }
}
