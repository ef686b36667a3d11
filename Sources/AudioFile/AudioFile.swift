/// The `AudioFile` module; its contents arrive with its own issue.
public enum AudioFileModule {}
