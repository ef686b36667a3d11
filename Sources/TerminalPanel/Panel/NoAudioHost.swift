import Parameters
import AudioEngine

/// The host of `detent panel`: no audio. It keeps the last value sent for each parameter, so
/// the panel edits a preset and nothing else.
public final class NoAudioHost: PanelHost {
    public private(set) var values: [ParameterIndex: Double]
    /// Every value sent, in order (what a live host would have queued).
    public private(set) var sent: [(ParameterIndex, Double)] = []

    public init(values: [ParameterIndex: Double] = [:]) {
        self.values = values
    }

    public func set(_ values: [ParameterIndex: Double]) {
        for (id, value) in values.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            self.values[id] = value
            sent.append((id, value))
        }
    }

    /// What the panel set: nothing else changes the values, so no knob ever moves by itself.
    public func targets() -> [ParameterIndex: Double] { values }
}
