/// The `Presets` module; its contents arrive with its own issue.
public enum PresetsModule {}
