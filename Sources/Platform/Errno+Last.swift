import Glibc
import SystemPackage

extension Errno {
    /// The calling thread's `errno` now: the reason the last failed C call gave, for the calls
    /// that do not go through ``systemCall(_:)`` (a `stat` that may fail, a library that sets
    /// `errno`). Its `description` is the system's text (`strerror`), which error messages show.
    package static var last: Errno { Errno(rawValue: Glibc.errno) }
}
