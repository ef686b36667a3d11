/// Preset files as they exist on disk, kept as text so the tests can write them where needed.
enum PresetFixtures {
    /// A format-0 preset, as the first preset files were written: no `formatVersion`, values
    /// under `parameters`, the resonance under `q`. It must keep loading in every release.
    static let format0Warm = """
        {
          "name": "Warm Pad",
          "author": "Early Adopter",
          "comment": "Saved before preset files had a format version.",
          "parameters": {
            "cutoff": 1800,
            "q": 1.2,
            "gain": -4.5
          }
        }

        """

    /// The same preset in format 0 with an out-of-range value and a parameter unknown today.
    static let format0Odd = """
        {"name": "Odd", "parameters": {"Q": 40, "drive": 2}}
        """
}
