import Glibc

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

    /// The first bytes of the containers libsndfile reads that are not MPEG audio: RIFF and
    /// RIFX WAV, RF64, BW64, Wave64 (`riff`), AIFF (`FORM`), FLAC, Ogg, AU and CAF.
    static let otherSignatures: [[UInt8]] = ["RIFF", "RIFX", "RF64", "BW64", "riff", "FORM", "fLaC", "OggS", ".snd", "caff"]
        .map { Array($0.utf8) }

    /// Whether libmpg123 may decode the input at `path`, and so print: false only for a
    /// regular file that starts with another container's signature. Filtering what it prints
    /// costs a thread and a pipe at start-up, a seventh of a one-second render's time, spared
    /// when no input can need it. A pipe or device (stdin) is not read ahead, nor even opened
    /// (a FIFO's writer would take the opening for the render's and lose its reader): true.
    public static func mayPrint(forInput path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return true }
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return true }
        defer { close(file) }
        var head = [UInt8](repeating: 0, count: 4)
        let count = head.withUnsafeMutableBytes { read(file, $0.baseAddress, 4) }
        return count != 4 || !otherSignatures.contains(head)
    }
}
