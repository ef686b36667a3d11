import Parameters
import DSP

/// What the panel drives: an engine running live, or nothing at all while shaping a preset.
///
/// The panel calls ``send(_:_:)`` for every value a knob reports and polls the rest every
/// ``refreshInterval`` seconds. Everything but `send` is optional: a host without audio
/// answers nil, and the panel leaves out what it cannot show (meters, the status fields) —
/// which is all the difference between `detent panel` and the panel over a live engine.
///
/// ```swift
/// final class LiveHost: PanelHost {
///     func send(_ id: ParameterIndex, _ value: Double) { engine.controls.send(ParameterChange(id, value)) }
///     var refreshInterval: Double? { 1.0 / 30 }
///     func status() -> PanelStatus { PanelStatus(clientName: "detent", sampleRate: 48_000, …) }
///     func meters() -> [MeterReading]? { … }
/// }
/// ```
public protocol PanelHost: AnyObject {
    /// A knob moved: pass its value on (to the engine's queue, or to nothing).
    func send(_ id: ParameterIndex, _ value: Double)

    /// The value each parameter is set to now, by anyone (the panel, MIDI, typed commands);
    /// nil when only this panel changes values. A value that changes without the panel having
    /// sent it moves the knob there.
    func currentValues() -> [ParameterIndex: Double]?

    /// The header's status fields; all nil without audio.
    func status() -> PanelStatus

    /// One reading per output channel since the previous call; nil without audio.
    func meters() -> [MeterReading]?

    /// How often to poll ``currentValues()``, ``status()`` and ``meters()`` (seconds); nil when
    /// nothing changes unless the panel changes it.
    var refreshInterval: Double? { get }

    /// The MIDI controller number each parameter answers to; nil without a MIDI input (the
    /// panel then offers no MIDI learn).
    func midiControllers() -> [ParameterIndex: Int]?

    /// Gives parameter `id` the controller `number`; a parameter that had it loses it.
    func assignMIDIController(_ number: Int, to id: ParameterIndex)

    /// How many control changes have arrived on the channel listened to, mapped or not, and
    /// the last one's number; nil without a MIDI input. MIDI learn waits for the count to move.
    func lastMIDIControl() -> (count: UInt64, controller: Int)?
}

extension PanelHost {
    public func currentValues() -> [ParameterIndex: Double]? { nil }
    public func status() -> PanelStatus { PanelStatus() }
    public func meters() -> [MeterReading]? { nil }
    public var refreshInterval: Double? { nil }
    public func midiControllers() -> [ParameterIndex: Int]? { nil }
    public func assignMIDIController(_ number: Int, to id: ParameterIndex) {}
    public func lastMIDIControl() -> (count: UInt64, controller: Int)? { nil }
}
