import Platform

/// Why a render could not be done, as one line a person can act on.
///
/// Every case names the file it is about, so the command line prints `detent: <description>`
/// and nothing else. The exit status follows the BSD `sysexits.h` convention that shell
/// scripts already know: 64 for a usage mistake, 65 for bad data, 74 for an I/O failure.
///
/// ```swift
/// AudioFileError.isDirectory(path: "takes").description
/// // "takes: is a folder, not an audio file"
/// ```
public enum AudioFileError: ExitStatusError, Equatable, Sendable {
    /// The file cannot be opened (missing, no permission): the system's reason.
    case cannotOpen(path: String, reason: String)
    /// A folder was given where an audio file was expected.
    case isDirectory(path: String)
    /// libsndfile recognises no audio format in the file.
    case notAudio(path: String)
    /// The file looks like audio but cannot be decoded: malformed header, unsupported
    /// encoding, impossible header values.
    case unreadable(path: String, reason: String)
    /// The file holds no audio at all (an empty FLAC or MP3 stream, a 0-frame WAV): there is
    /// nothing to render, and many containers cannot even be written empty.
    case empty(path: String)
    /// The file ends before the audio its header promises.
    case truncated(path: String, reason: String)
    /// Decoding failed part-way through the data.
    case corrupt(path: String, afterFrames: Int64, reason: String)
    /// A stream (`/dev/stdin`, a FIFO) was given without `-o` or `--out-dir`: there is no
    /// folder beside it to put the output in.
    case streamNeedsOutput(path: String)
    /// `--normalize` was given for a stream, which can be read only once: it measures the
    /// input's render first and renders it again.
    case streamCannotNormalize(path: String)
    /// The output exists and `--force` was not given.
    case outputExists(path: String)
    /// The output would replace the input it is rendered from.
    case outputIsInput(path: String, input: String)
    /// The output is a file the batch reads: another job's input, or any job's key, graph,
    /// automation, MIDI file… (it would be destroyed before, or after, a job reads it).
    case outputIsRead(path: String, role: ReadFileRole)
    /// Two inputs of one batch would be rendered to the same output.
    case outputCollision(path: String, first: String, second: String)
    /// The folder the output should go into does not exist (or is not a folder).
    case outputFolderMissing(path: String)
    /// The requested container or encoding cannot hold this audio.
    case formatNotWritable(path: String, reason: String)
    /// `--quality`, `--bitrate` or `--compression` cannot apply to the output's format.
    case encoderSetting(path: String, reason: String)
    /// Creating, writing or renaming the output failed.
    case writeFailed(path: String, reason: String)
    /// An automation file is malformed: the line (1-based) and the reason.
    case automation(path: String, line: Int, reason: String)
    /// An automation file is valid but cannot apply to this input (e.g. a ramp too long).
    case automationDoesNotFit(path: String, input: String, reason: String)
    /// The render was stopped by a signal (Ctrl-C, SIGTERM); its output was removed.
    case cancelled(input: String, output: String)
    /// `--loudness` or `--normalize` was asked for and libebur128 cannot be loaded.
    case loudnessUnavailable(path: String, reason: String)
    /// The processor could not be made ready for the file (a plug-in that fails to start).
    case processorFailed(input: String, reason: String)
    /// A file read beside the input (a key, a named input, a file parameter's) that is a
    /// FIFO, device or socket: it is opened to be checked, then again to be read.
    case notRegularFile(path: String)
    /// A side-chain key or a graph's named input whose sample rate is not the input's.
    case keyRate(path: String, rate: Int, input: String, inputRate: Int)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "\(path): cannot open: \(reason)"
        case .isDirectory(let path): "\(path): is a folder, not an audio file"
        case .notAudio(let path): "\(path): not an audio file (no format libsndfile reads)"
        case .unreadable(let path, let reason): "\(path): cannot read audio: \(reason)"
        case .empty(let path): "\(path): holds no audio (0 frames)"
        case .truncated(let path, let reason): "\(path): truncated: \(reason)"
        case .corrupt(let path, let frames, let reason):
            "\(path): corrupt audio data after frame \(frames): \(reason)"
        case .streamNeedsOutput(let path): "\(path): is a stream; name the output with -o or --out-dir"
        case .streamCannotNormalize(let path):
            "\(path): is a stream, which can be read only once; --normalize reads its input twice (render it to a file first)"
        case .outputExists(let path): "\(path): already exists (use --force to overwrite it)"
        case .outputIsInput(let path, let input): "\(path): is the input \(input) itself; choose another output"
        case .outputIsRead(let path, .input): "\(path): is an input of another job of this batch; choose another output"
        case .outputIsRead(let path, let role): "\(path): is \(role.rawValue) this render reads; choose another output"
        case .outputCollision(let path, let first, let second):
            "\(path): would be written for both \(first) and \(second)"
        case .outputFolderMissing(let path): "\(path): no such folder"
        case .formatNotWritable(let path, let reason): "\(path): cannot write this format: \(reason)"
        case .encoderSetting(let path, let reason): "\(path): \(reason)"
        case .writeFailed(let path, let reason): "\(path): cannot write: \(reason)"
        case .automation(let path, let line, let reason): "\(path):\(line): \(reason)"
        case .automationDoesNotFit(let path, let input, let reason): "\(path): does not fit \(input): \(reason)"
        case .loudnessUnavailable(let path, let reason):
            "\(path): cannot measure loudness: libebur128 cannot be loaded (\(reason)); install libebur128-1"
        case .cancelled(let input, let output): "\(input): render interrupted; \(output) was not written"
        case .processorFailed(let input, let reason): "\(input): the processor cannot start: \(reason)"
        case .notRegularFile(let path):
            "\(path): is not a regular file (a FIFO, device or socket); a file read beside the input is opened more than once: save it to a file"
        case .keyRate(let path, let rate, let input, let inputRate):
            "\(path): at \(rate) Hz, but \(input) is at \(inputRate) Hz; resample it to \(inputRate) Hz"
        }
    }

    /// The process exit status for this problem (`sysexits.h`).
    public var exitCode: Int32 {
        switch self {
        case .streamNeedsOutput, .streamCannotNormalize, .outputExists, .outputIsInput, .outputIsRead, .outputCollision, .formatNotWritable, .encoderSetting: 64  // EX_USAGE
        case .notAudio, .unreadable, .empty, .truncated, .corrupt, .automation, .automationDoesNotFit, .keyRate, .notRegularFile: 65  // EX_DATAERR
        case .cannotOpen, .isDirectory, .outputFolderMissing, .writeFailed: 74  // EX_IOERR
        case .processorFailed: 65  // EX_DATAERR: this processor cannot run this audio
        case .loudnessUnavailable: 69  // EX_UNAVAILABLE
        case .cancelled: 130  // 128 + SIGINT; the command line reports the actual signal
        }
    }
}
