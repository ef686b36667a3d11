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
///     func send(_ id: ParameterID, _ value: Double) { engine.controls.send(ParameterChange(id, value)) }
///     var refreshInterval: Double? { 1.0 / 30 }
///     func status() -> PanelStatus { PanelStatus(clientName: "detent", sampleRate: 48_000, …) }
///     func meters() -> [MeterReading]? { … }
/// }
/// ```
public protocol PanelHost: AnyObject {
    /// A knob moved: pass its value on (to the engine's queue, or to nothing).
    func send(_ id: ParameterID, _ value: Double)

    /// The value each parameter is set to now, by anyone (the panel, MIDI, typed commands);
    /// nil when only this panel changes values. A value that changes without the panel having
    /// sent it moves the knob there.
    func currentValues() -> [ParameterID: Double]?

    /// The header's status fields; all nil without audio.
    func status() -> PanelStatus

    /// One reading per output channel since the previous call; nil without audio.
    func meters() -> [MeterReading]?

    /// How often to poll ``currentValues()``, ``status()`` and ``meters()`` (seconds); nil when
    /// nothing changes unless the panel changes it.
    var refreshInterval: Double? { get }
}

extension PanelHost {
    public func currentValues() -> [ParameterID: Double]? { nil }
    public func status() -> PanelStatus { PanelStatus() }
    public func meters() -> [MeterReading]? { nil }
    public var refreshInterval: Double? { nil }
}

/// The header's view of a running engine. Every field is optional; the header shows those set.
public struct PanelStatus: Sendable, Hashable {
    /// The JACK client's name.
    public var clientName: String?
    /// Frames per second.
    public var sampleRate: Double?
    /// Frames per period.
    public var bufferSize: Int?
    /// The audio thread's load, in percent.
    public var dspLoad: Double?
    /// Buffer under- and overruns since the start.
    public var xruns: Int?

    public init(clientName: String? = nil, sampleRate: Double? = nil, bufferSize: Int? = nil,
                dspLoad: Double? = nil, xruns: Int? = nil) {
        self.clientName = clientName
        self.sampleRate = sampleRate
        self.bufferSize = bufferSize
        self.dspLoad = dspLoad
        self.xruns = xruns
    }

    /// True when no field is set (no audio).
    public var isEmpty: Bool {
        clientName == nil && sampleRate == nil && bufferSize == nil && dspLoad == nil && xruns == nil
    }
}

/// One output channel's level over the interval since the previous reading (linear amplitude,
/// 1 = full scale).
public struct MeterReading: Sendable, Hashable {
    /// How the meter is labelled (`L`, `R`, `3`).
    public var label: String
    public var peak: Double
    public var rms: Double

    public init(label: String, peak: Double, rms: Double) {
        self.label = label
        self.peak = peak
        self.rms = rms
    }
}

/// The host of `detent panel`: no audio. It keeps the last value sent for each parameter, so
/// the panel edits a preset and nothing else.
public final class NoAudioHost: PanelHost {
    public private(set) var values: [ParameterID: Double]
    /// Every value sent, in order (what a live host would have queued).
    public private(set) var sent: [(ParameterID, Double)] = []

    public init(values: [ParameterID: Double] = [:]) {
        self.values = values
    }

    public func send(_ id: ParameterID, _ value: Double) {
        values[id] = value
        sent.append((id, value))
    }
}
