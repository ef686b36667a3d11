import Platform
import OfflineRender
import AudioEngine
import Parameters
import Presets
import Rig

/// Turns a job's options into its ``RenderSettings``, reading each processor, preset, automation
/// and MIDI file once however many jobs share it: a manifest of 10,000 lines through one chain
/// finds the plug-ins once, and a preset's warnings are printed once, not per job.
///
/// The command line without a manifest is one job's options shared by all its files, resolved
/// by the same code, so a manifest line and the same options typed render the same file.
package final class JobSettings {
    private var processors: [String: Result<(processor: Processor, store: PresetStore), CommandFailure>] = [:]
    private var presetValues: [String: [ParameterIndex: Double]] = [:]
    private var presetStates: [String: SavedState?] = [:]
    private var automations: [String: Automation] = [:]
    private var midiFiles: [String: MIDIFile] = [:]
    private var warnedSources: Set<String> = []

    /// The settings `options` describe for one file (its container and encoding come with
    /// the file's ``RenderJob``).
    ///
    /// - Throws: the first problem, as the error that says it (``UsageError``,
    ///   ``PluginError``, ``PresetError``, ``AudioFileError``, ``MIDIFileError``,
    ///   `ValidationError`); see ``CommandFailure``.
    package func settings(for options: RenderOptions) throws -> RenderSettings {
        let key = options.plugin.key
        let (processor, store) = try self.processor(for: options)
        var settings = RenderSettings()
        settings.processor = processor
        try addMIDI(to: &settings, options: options, processor: processor)
        // (From MIDI alone there is no input file for the output not to depend on.)
        if processor.isSource, !options.rendersMIDIAlone, warnedSources.insert(key + "\u{0}" + String(options.midi != nil)).inserted {
            Console.warning("\(processor.name) has no audio input: its output does not depend on the input file"
                + (processor.acceptsMIDI && options.midi == nil ? ", and it plays no notes without --midi FILE" : ""))
        }
        settings.sidechains = try SidechainChoice.resolve(options.sidechains, processor: processor)
            + SidechainChoice.resolveInputs(options.namedInputs, processor: processor, warn: warnedSources.insert(key + "\u{0}inputs").inserted)
        settings.subtype = try options.encoding
        try addStart(to: &settings, options: options, processor: processor, store: store)
        settings.dither = try options.encoder.ditherMode
        settings.encoder = options.encoder.settings
        settings.keepsMetadata = !options.noMetadata
        settings.overwrite = options.force
        settings.blockFrames = options.blockFrames
        if let controlInterval = options.controlInterval { settings.controlInterval = controlInterval }
        if let kernelFrames = options.kernelFrames { settings.kernelFrames = kernelFrames }
        settings.beatsPerMinute = options.bpm
        settings.channels = options.channels
        settings.tail = try options.tailSetting
        settings.normalize = try options.normalizeTarget
        settings.measures = try options.measureSetting
        if let automation = options.automation {
            settings.automation = try self.automation(automation, key: key, table: processor.table)
        }
        return settings
    }

    /// The processor `options` name and its presets, found once per processor: a failure is
    /// kept too, and thrown again for every job that names it.
    private func processor(for options: RenderOptions) throws -> (processor: Processor, store: PresetStore) {
        let key = options.plugin.key
        let found: Result<(processor: Processor, store: PresetStore), CommandFailure>
        if let known = processors[key] {
            found = known
        } else {
            do { found = .success(try options.plugin.resolved()) } catch { found = .failure(CommandFailure(error)) }
            processors[key] = found
        }
        return try found.get()
    }

    /// The job's MIDI: refuses a processor with only MIDI in and out where audio is asked of
    /// it, a `--midi-out` for one with no MIDI output, and a `--midi` for one that takes none;
    /// the MIDI file is read once per path.
    private func addMIDI(to settings: inout RenderSettings, options: RenderOptions, processor: Processor) throws {
        if processor.isMIDIOnly && options.rendersMIDIAlone {
            throw UsageError("\(processor.name) has only MIDI in and out: it makes no audio for -o \(options.output ?? "")"
                + " (render its MIDI with --midi-out alone)")
        }
        if processor.isMIDIOnly && !(options.inputs.isEmpty && options.batch.manifest == nil) {
            throw UsageError("\(processor.name) has only MIDI in and out: render it with no input file "
                + "(detent render --plugin URI --midi IN.mid --midi-out OUT.mid)")
        }
        if let midiOut = options.midiOut {
            guard processor.makesMIDI else { throw UsageError("--midi-out \(midiOut): \(processor.name) has no MIDI output") }
            settings.midiOut = midiOut
        }
        if let midi = options.midi {
            guard processor.acceptsMIDI else { throw UsageError("--midi \(midi): \(processor.name) takes no MIDI") }
            settings.midiPath = midi
            if let file = midiFiles[midi] {
                settings.midi = file
            } else {
                settings.midi = try MIDIFile.read(path: midi)
                midiFiles[midi] = settings.midi
            }
        }
    }

    /// What the job's processor starts from: the preset's values and saved state, read once
    /// per processor and preset, then the job's `--set`s over them — files chosen (checked now,
    /// loaded at prepare) and values.
    private func addStart(to settings: inout RenderSettings, options: RenderOptions, processor: Processor,
                          store: PresetStore) throws {
        // The preset's values once per processor and preset; each job's `--set`s over them
        // (what `StartingValueOptions.values` gives with the sets, without reading the preset again).
        let presetKey = options.plugin.key + "\u{0}" + (options.starting.preset ?? "\u{0}")
        let preset: [ParameterIndex: Double]
        if let known = presetValues[presetKey] {
            preset = known
        } else {
            var bare = options.starting
            bare.sets = options.plugin.startingSets
            preset = try bare.values(store: store, chainFile: options.plugin.startingPreset, processor: processor)
            presetValues[presetKey] = preset
        }
        // File parameters' `--set`s choose files (checked now, loaded at prepare); the rest are values.
        let (paths, sets) = try FileSettings.split(options.starting.sets, processor: processor)
        if !paths.isEmpty { settings.processor = try processor.settingFiles(paths) }
        // The preset's saved state (a plug-in's LV2 state), restored before the files over it.
        let state: SavedState?
        if let known = presetStates[presetKey] {
            state = known
        } else {
            state = try PresetStates.starting(options.starting.preset ?? options.plugin.startingPreset, store: store,
                                              processor: processor)
            presetStates[presetKey] = state
        }
        if let state { settings.processor = settings.processor.settingState(state) }
        settings.startingValues = preset.merging(try assignments(sets, table: store.scope.table)) { $1 }
    }

    /// The automation file at `path`, read once per processor (`key`) and path.
    private func automation(_ path: String, key: String, table: ParameterTable) throws -> Automation {
        let automationKey = key + "\u{0}" + path
        if let loaded = automations[automationKey] { return loaded }
        let automation = try Automation.load(path: path, table: table)
        automations[automationKey] = automation
        return automation
    }
}
