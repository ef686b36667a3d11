import TestSupport
import Parameters
import AudioEngine
import Testing
@testable import KnobKit

/// Knobs whose arithmetic is exact, so laws can be checked with `==`.
enum Fixture {
    /// 0 … 1, linear, default 0.5: a value equals its normalised position exactly.
    static func unitScale() throws -> KnobScale {
        try KnobScale(name: "Level", range: 0...1, defaultValue: 0.5)
    }

    /// A knob on ``unitScale()`` at `value` (travel 8 rows, 200 px, the default behaviour).
    static func unitKnob(
        value: Double = 0.5, behavior: KnobBehavior = KnobBehavior(), appearance: KnobAppearance = KnobAppearance()
    ) throws -> Knob {
        Knob(scale: try unitScale(), value: value, behavior: behavior, appearance: appearance)
    }

    /// A behaviour for circular drags.
    static var circular: KnobBehavior {
        var b = KnobBehavior()
        b.dragStyle = .circular
        return b
    }

    /// The point at `degrees` clockwise from 12 o'clock, `radius` rows from a centre at (40, 12),
    /// in cells with the default aspect of 2 (so x is stretched by 2).
    static func cellPoint(degrees: Double, radius: Double = 3) -> KnobPoint {
        let p = KnobArc.point(atAngle: degrees * Double.pi / 180, radius: radius)
        return KnobPoint(x: center.x + p.x * 2, y: center.y + p.y)
    }

    static let center = KnobPoint(x: 40, y: 12)
}


/// The scales laws are checked on: every table row, and plain ranges (linear, bipolar, logarithmic).
enum ScaleCase: CaseIterable, CustomTestStringConvertible {
    case cutoff, resonance, gain, mix, offset, rate

    func make() throws -> KnobScale {
        switch self {
        case .cutoff: KnobScale(.cutoff)
        case .resonance: KnobScale(.resonance)
        case .gain: KnobScale(.gain)
        case .mix:
            try KnobScale(name: "Mix", range: 0...100, defaultValue: 50, format: KnobNumberFormat(decimals: 1, unit: "%"))
        case .offset:
            try KnobScale(name: "Offset", range: -1...1, defaultValue: 0, format: KnobNumberFormat(decimals: 3))
        case .rate:
            try KnobScale(name: "Rate", range: 0.1...40, defaultValue: 1, taper: .logarithmic,
                          format: KnobNumberFormat(decimals: 2, unit: "Hz"))
        }
    }

    var testDescription: String { "\(self)" }
}

extension Knob {
    /// A knob for a row of the built-in table.
    init(_ id: ParameterIndex, value: Double? = nil, arc: KnobArc = .standard,
         behavior: KnobBehavior = KnobBehavior(), appearance: KnobAppearance = KnobAppearance()) {
        self.init(LowpassGain.table[id], value: value, arc: arc, behavior: behavior, appearance: appearance)
    }
}

extension KnobScale {
    /// The scale of a row of the built-in table.
    init(_ id: ParameterIndex) { self.init(LowpassGain.table[id]) }
}
