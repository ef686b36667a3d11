import TextFormats
import Parameters

/// A named set of parameter values, as stored in a preset file.
///
/// A preset is plain data; reading one from JSON (validation, migration, warnings) is
/// ``PresetCodec``'s job, and storing one is ``PresetStore``'s.
///
/// ```swift
/// var preset = Preset(name: "Dark")
/// preset.values[.cutoff] = 2_500
/// let text = PresetCodec.encode(preset)
/// ```
public struct Preset: Sendable, Hashable {
    /// The format this release writes, and the newest it reads. Older formats are migrated
    /// on read (``PresetMigration``); newer ones are refused, since their meaning is unknown.
    public static let formatVersion = 1

    /// The name of the preset that sets the startup values and the reset-to-default targets.
    public static let defaultName = "Default"

    /// Free text, shown as given. The file name is derived from it (``PresetFileName``).
    public var name: String
    public var author: String?
    public var comment: String?
    /// A value for every parameter.
    public var values: ParameterValues
    /// The processor the values belong to (``Parameters/ProcessorIdentifier/builtIn`` or a
    /// plug-in URI); written to the file only for processors other than the built-in, so
    /// presets of the built-in engine keep the form they always had.
    public var processor: String
    /// The MIDI mapping saved with the preset (the mapping file's document, see the live
    /// host's `MIDIControls`), kept exactly as read: the Presets module does not interpret it,
    /// so a preset written by a later release survives being saved again by this one.
    public var midi: JSONValue?
    /// The processor's own state beyond its values (an LV2 plug-in's), if the preset keeps it.
    public var state: SavedState?
    /// Which of its plug-ins ran in processes of their own when it was saved live (`detent
    /// live --isolate`'s plan: `each`, `together`, `drive+eq,verb`); `detent live --preset`
    /// starts them so unless told otherwise. Nil: saved in process.
    public var isolate: String?

    public init(
        name: String, author: String? = nil, comment: String? = nil,
        values: ParameterValues, processor: String = LowpassGain.identifier, midi: JSONValue? = nil,
        state: SavedState? = nil
    ) {
        self.state = state
        self.processor = processor
        self.name = name
        self.author = author
        self.comment = comment
        self.values = values
        self.midi = midi
    }
}
