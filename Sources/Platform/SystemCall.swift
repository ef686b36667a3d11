import Glibc
import SystemPackage

/// Runs one system call that reports failure as -1 with the reason in `errno`, calling it
/// again while it fails with `EINTR`, and turns any other failure into an `Errno`.
///
/// A signal arriving while a call blocks makes it fail with `EINTR` although nothing went
/// wrong; every blocking call in the package goes through here, so that rule lives in one
/// place instead of one loop per call site (the style of swift-nio's `syscall(blocking:)`).
///
/// ```swift
/// let count = try systemCall { read(fd, buffer, size) }
/// ```
@discardableResult
public func systemCall<Result: FixedWidthInteger & SignedInteger>(
    _ call: () -> Result
) throws(Errno) -> Result {
    while true {
        let result = call()
        if result != -1 { return result }
        let code = errno
        if code != EINTR { throw Errno(rawValue: code) }
    }
}
