#if canImport(Glibc)
import Glibc
#endif

/// The glibc functions ``ChildProcess`` needs that the Swift `Glibc` module does not import:
/// they are GNU extensions, declared only under `_GNU_SOURCE`, which the module is built
/// without. Each is looked up once by name in the C library (loaded anyway) and called
/// through a C function pointer of its declared type. glibc has had all of them since 2.34.
enum GlibcExtensions {
    /// `pipe2(2)`: a pipe whose two descriptors get `flags` (O_CLOEXEC) as they are made, with
    /// no moment at which a concurrent spawn could inherit them.
    nonisolated(unsafe) static let pipe2 = function(
        "pipe2", as: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)

    /// `posix_spawn_file_actions_addchdir_np`: the child changes directory before it runs,
    /// without a shell in between.
    nonisolated(unsafe) static let addChdir = function(
        "posix_spawn_file_actions_addchdir_np",
        as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)

    /// `posix_spawn_file_actions_addclosefrom_np`: the child closes every descriptor from the
    /// given one up, whether or not it is close-on-exec.
    nonisolated(unsafe) static let addCloseFrom = function(
        "posix_spawn_file_actions_addclosefrom_np",
        as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)

    /// `POSIX_SPAWN_SETSID` from spawn.h: the child calls setsid() before the file actions run.
    static let spawnSetSID: Int32 = 0x80

    private static func function<F>(_ name: String, as type: F.Type) -> F {
        guard let address = dlsym(nil, name) else { fatalError("the C library has no \(name) (glibc 2.34 or later needed)") }
        return unsafeBitCast(address, to: type)
    }
}
