/// The parameters of the built-in processor: a resonant lowpass followed by a gain stage.
///
/// Its table is the one Detent has always had; `DSP`'s `Processor.lowpassGain` pairs it with
/// the engine's own render code. It lives here, beneath the engine, because the factory
/// presets (module `Presets`) are written for it. The static indices name its rows for the
/// code that wires the filter (and for tests); everything else finds rows through the table.
public enum LowpassGain {
    /// The processor's stable identifier. A preset without a `processor` field belongs to it
    /// (every preset written before processors had names did).
    public static let identifier = "detent:lowpass-gain"

    /// The rows, in the order the render code reads them.
    public static let table: ParameterTable = try! ParameterTable([
        ParameterSpec(
            id: "cutoff", name: "Cutoff", unit: .hertz,
            range: 20...20_000, taper: .logarithmic, defaultValue: 1_000,
            smoothing: .multiplicative, midiController: 74),  // GM2 "brightness"
        ParameterSpec(
            id: "resonance", name: "Resonance", unit: .quality,
            range: 0.5...10, taper: .logarithmic, defaultValue: 0.707,
            smoothing: .linear, midiController: 71),  // GM2 "resonance"
        ParameterSpec(
            id: "gain", name: "Gain", unit: .decibels,
            range: -60...12, taper: .linear, defaultValue: 0,
            smoothing: .linear, minimumIsSilence: true, midiController: 7, glidesInAmplitude: true),  // "channel volume"
    ])
}

extension ParameterIndex {
    /// The built-in processor's cutoff frequency (Hz).
    public static var cutoff: ParameterIndex { ParameterIndex(0) }
    /// The built-in processor's resonance (Q).
    public static var resonance: ParameterIndex { ParameterIndex(1) }
    /// The built-in processor's gain (dB).
    public static var gain: ParameterIndex { ParameterIndex(2) }
}
