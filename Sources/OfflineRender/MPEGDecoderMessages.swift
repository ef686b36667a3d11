/// The lines libmpg123, libsndfile's MP3 decoder, prints on stderr by itself.
///
/// libsndfile does not set libmpg123's quiet flag and offers no way to, so libmpg123 reports
/// every odd frame it meets: `[src/libmpg123/parse.c:…] warning: …`, `Note: Trying to
/// resync...`, and its four `Warning: ` lines about a stream whose Xing header disagrees with
/// it (`Warning: Xing stream size off by more than 1%, …`) or whose frames change on the way
/// (`… Frankenstein stream?`). A render's own line for the file says what matters, so front
/// ends drop these (``Platform/LibraryMessages``) and keep every other line a library prints.
public enum MPEGDecoderMessages {
    /// True for a line that libmpg123 printed.
    public static func isOwn(_ line: String) -> Bool {
        line.contains("libmpg123") || line.hasPrefix("Note: ")
            || (line.hasPrefix("Warning: ") && (line.contains("Xing") || line.contains("Frankenstein")))
    }
}
