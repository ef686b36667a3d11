/// An error that says in one line why a command failed, and with which exit status
/// (sysexits.h: 64 usage, 65 bad data, 66 no input, 69 unavailable, 70 internal, 73 cannot
/// create, 74 I/O).
///
/// Commands throw these and print nothing themselves: `detent`'s `main` writes the line once,
/// as `detent: …` on stderr, and exits with the status. A batch keeps going after one job's,
/// with the same line and status (`CommandFailure`).
package protocol ExitStatusError: Error, CustomStringConvertible {
    var exitCode: Int32 { get }
}
