import ArgumentParser
import AudioFile
import Plugins
import Presets

/// Why one job of a batch did not render, as the one line that says so and its exit status
/// (sysexits.h: 64 usage, 65 bad data, 74 I/O).
///
/// Every kind of error a render can meet — a bad option, a preset, a plug-in, an automation
/// or MIDI file, the render itself, a malformed manifest line — becomes one of these, so a
/// batch reports each failed job the same way and goes on with the others.
struct JobFailure: Error, Sendable, CustomStringConvertible {
    let description: String
    let exitCode: Int32

    init(_ description: String, exitCode: Int32) {
        self.description = description
        self.exitCode = exitCode
    }

    /// The line and status `error` is told with when the command line caused it.
    init(_ error: any Error) {
        switch error {
        case let error as JobFailure: self = error
        case let error as AudioFileError: self.init(error.description, exitCode: error.exitCode)
        case let error as PresetError: self.init(error.description, exitCode: error.exitCode)
        case let error as PluginError: self.init(error.description, exitCode: error.exitCode)
        case let error as MIDIFileError: self.init(error.description, exitCode: 65)
        case let error as UsageError: self.init(error.description, exitCode: 64)
        case let error as ValidationError: self.init(error.message, exitCode: 64)
        default: self.init("\(error)", exitCode: 70)
        }
    }

    /// The same for an error caused by line `line` of a manifest: the line named first, and a
    /// mistake in it counted as bad data (65) rather than bad usage, since the manifest is
    /// the data.
    init(_ error: any Error, manifest: String, line: Int) {
        let failure = JobFailure(error)
        self.init("\(manifest):\(line): \(failure.description)", exitCode: failure.exitCode == 64 ? 65 : failure.exitCode)
    }
}
