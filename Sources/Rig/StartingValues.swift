import AudioEngine
import Parameters
import Platform
import Presets

/// A mistake in what was asked, as the one line that explains it (exit status 64).
package struct UsageError: ExitStatusError {
    package var exitCode: Int32 { 64 }

    package let description: String
    package init(_ description: String) { self.description = description }
}

/// `--preset` and `--set`: the values a command, a render job or a Python chain starts from.
package struct StartingChoice: Sendable, Equatable {
    /// A preset by name or file; nil for the Default preset (or the `--chain` file's).
    package var preset: String?
    /// `ID=VALUE` assignments over the preset, in order (later ones of a parameter win).
    package var sets: [String] = []

    package init(preset: String? = nil, sets: [String] = []) {
        self.preset = preset
        self.sets = sets
    }

    /// The values to start from; see ``startingValues(preset:sets:store:)``. `chainFile`
    /// (`--chain`) is the preset when none is named.
    package func values(store: PresetStore = .standard(), chainFile: String? = nil, processor: Processor? = nil) throws -> [ParameterIndex: Double] {
        // A slot's own preset (`SLOT:NAME`) sets that slot over the chain's Default; --set last.
        if let preset, let processor, let slot = try SlotPresets.values(preset, in: processor) {
            return try startingValues(preset: nil, sets: [], store: store)
                .merging(slot) { $1 }.merging(assignments(sets, table: store.scope.table)) { $1 }
        }
        return try startingValues(preset: preset ?? chainFile, sets: sets, store: store)
    }
}

/// The parameter values a command starts from: the named preset's (`--preset NAME|PATH`),
/// or the Default preset's when none is named (a user "Default" overrides the factory one),
/// then each `--set` on top (later `--set`s of the same parameter win). Preset warnings
/// (clamped or unknown values) are printed here, once.
///
/// ```swift
/// try startingValues(preset: "Dark", sets: ["gain=-6dB"])
/// // [.cutoff: 2500, .resonance: 0.707, .gain: -6]
/// ```
///
/// - Throws: `PresetError` for a preset that cannot be found or read, `UsageError` for a
///   bad `--set`.
package func startingValues(preset: String?, sets: [String], store: PresetStore = .standard()) throws -> [ParameterIndex: Double] {
    let loaded = try preset.map { reference throws(PresetError) in try store.resolve(reference) } ?? store.defaultPreset()
    for warning in loaded.warnings { Console.warning(warning.description) }
    let values = Dictionary(uniqueKeysWithValues: loaded.values.ordered.map { ($0.id, $0.value) })
    return values.merging(try assignments(sets, table: store.scope.table)) { $1 }
}

/// Each `--set ID=VALUE` of `sets` (later ones of the same parameter win).
///
/// - Throws: `UsageError` naming the first that is not an assignment of the table.
package func assignments(_ sets: [String], table: ParameterTable) throws -> [ParameterIndex: Double] {
    var values: [ParameterIndex: Double] = [:]
    for assignment in sets {
        do {
            let (id, value) = try table.parseAssignment(assignment)
            values[id] = value
        } catch {
            throw UsageError("--set '\(assignment)': \(error.description)")
        }
    }
    return values
}
