import Platform

/// Why a command, or one job of a batch, failed: the one line that says so and its exit
/// status (sysexits.h: 64 usage, 65 bad data, 69 unavailable, 70 internal, 74 I/O).
///
/// A command's own reasons are thrown as these, and so is every kind of error a render can
/// meet — a bad option, a preset, a plug-in, an automation or MIDI file, the render itself,
/// a malformed manifest line — so that a batch reports each failed job the same way and goes
/// on with the others, and `main` reports a command's the same way (``ExitStatusError``).
package struct CommandFailure: ExitStatusError, Sendable {
    package let description: String
    package let exitCode: Int32

    package init(_ description: String, exitCode: Int32) {
        self.description = description
        self.exitCode = exitCode
    }

    /// The line and status `error` is told with when the command line caused it.
    package init(_ error: any Error) {
        switch error {
        case let error as CommandFailure: self = error
        case let error as any ExitStatusError: self.init(error.description, exitCode: error.exitCode)
        default: self.init("\(error)", exitCode: 70)
        }
    }

    /// The same for an error caused by line `line` of a manifest: the line named first, and a
    /// mistake in it counted as bad data (65) rather than bad usage, since the manifest is
    /// the data.
    package init(_ error: any Error, manifest: String, line: Int) {
        let failure = CommandFailure(error)
        self.init("\(manifest):\(line): \(failure.description)", exitCode: failure.exitCode == 64 ? 65 : failure.exitCode)
    }
}
