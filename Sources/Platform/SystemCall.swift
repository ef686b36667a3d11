import Glibc
import SystemPackage

/// A system call that failed: which one, and the system's reason.
///
/// A bare `Errno` says "Bad file descriptor" and leaves the reader to guess whether it was the
/// `write`, the `poll` or the `fsync`; naming the call (as swift-nio's `IOError` does) makes
/// a line in a log or a bug report enough to find the code. Messages meant for users, which
/// already say what was being done ("cannot write out.wav"), show ``errno`` alone.
package struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The call's name, as in its manual page (`write`, `pipe2`, `pthread_create`).
    package let call: String
    package let errno: Errno

    package init(_ call: String, _ errno: Errno) {
        self.call = call
        self.errno = errno
    }

    /// The calling thread's `errno` now, for `call`, which just failed.
    package static func last(_ call: String) -> SystemCallError { SystemCallError(call, Errno.last) }

    /// `write: No space left on device`.
    package var description: String { "\(call): \(errno)" }

    /// What the system says of error number `code` (`Address already in use`), for an error a
    /// library reports by number.
    package static func reason(errno code: Int32) -> String { Errno(rawValue: code).description }
}

/// Runs one system call that reports failure as -1 with the reason in `errno`, calling it
/// again while it fails with `EINTR`, and turns any other failure into a
/// ``SystemCallError`` naming `name`.
///
/// A signal arriving while a call blocks makes it fail with `EINTR` although nothing went
/// wrong; every blocking call in the package goes through here, so that rule lives in one
/// place instead of one loop per call site (the style of swift-nio's `syscall(blocking:)`).
///
/// ```swift
/// let count = try systemCall("read") { read(fd, buffer, size) }
/// ```
@discardableResult
package func systemCall<Result: FixedWidthInteger & SignedInteger>(
    _ name: String, _ call: () -> Result
) throws(SystemCallError) -> Result {
    while true {
        let result = call()
        if result != -1 { return result }
        let code = Glibc.errno
        if code != EINTR { throw SystemCallError(name, Errno(rawValue: code)) }
    }
}
