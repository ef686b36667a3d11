import CPlatform
import Glibc
import SystemPackage

/// The one way the package makes a pipe: `pipe2` with close-on-exec set atomically, so no
/// program another thread starts (a JACK client library may fork and exec helpers) inherits
/// an end, even for an instant. (Swift's Glibc module does not import `pipe2`, a GNU
/// extension; CPlatform calls it.)
package enum Pipe {
    /// A new pipe's ends; both non-blocking when `nonBlocking`.
    package static func make(nonBlocking: Bool = false) throws(SystemCallError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        try systemCall("pipe2") { detent_pipe_cloexec(&ends) }
        if nonBlocking {
            for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        }
        return (ends[0], ends[1])
    }
}
