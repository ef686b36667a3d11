import DSP

/// A mistake on the command line, as the one line that explains it (exit status 64).
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The parameter values a render starts from: the preset's, then each `--set` on top (later
/// `--set`s of the same parameter win).
///
/// Presets cannot be loaded yet, so the only preset is `Default` — the parameter table's
/// defaults — which is also what no `--preset` means. This is the one place that will look
/// presets up by name or path.
///
/// ```swift
/// try startingValues(preset: nil, sets: ["cutoff=800", "gain=-6dB"])
/// // [.cutoff: 800, .resonance: 0.707, .gain: -6]
/// ```
func startingValues(preset: String?, sets: [String]) throws(UsageError) -> [ParameterID: Double] {
    if let preset, preset.lowercased() != "default" {
        throw UsageError("--preset '\(preset)': presets cannot be loaded yet; only 'Default' (the parameter defaults) exists")
    }
    var values = Dictionary(uniqueKeysWithValues: ParameterID.allCases.map { ($0, $0.spec.defaultValue) })
    for assignment in sets {
        do {
            let (id, value) = try ParameterID.parseAssignment(assignment)
            values[id] = value
        } catch {
            throw UsageError("--set '\(assignment)': \(error.description)")
        }
    }
    return values
}
