/// The `KnobKit` module; its contents arrive with its own issue.
public enum KnobKitModule {}
