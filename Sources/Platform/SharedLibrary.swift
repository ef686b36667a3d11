import CRealtime
import Glibc

/// A shared library loaded into this process (`dlopen`): a plug-in's, found by path.
///
/// Loading runs the library's constructors, and some switch the calling thread's
/// floating-point mode (flush-to-zero, denormals-are-zero) for their own reasons; the mode
/// the caller had is given back, so loading a plug-in never changes how the host's own
/// arithmetic rounds. `RTLD_LOCAL` keeps the library's names out of the program's scope, so
/// another library never binds to them by accident; `RTLD_NOW` finds a missing symbol at
/// load, where it can be reported, rather than at the first call.
package struct SharedLibrary: @unchecked Sendable {
    /// `dlopen`'s handle.
    package let handle: UnsafeMutableRawPointer

    /// Why a library cannot be loaded: the loader's own message (a missing file, a missing
    /// dependency or symbol, the wrong architecture).
    package struct LoadFailure: Error, Sendable, Equatable {
        package let reason: String
        package init(reason: String) { self.reason = reason }
    }

    /// Loads the library at `path` (a path: no search of the loader's folders).
    package static func load(_ path: String) -> Result<SharedLibrary, LoadFailure> {
        _ = dlerror()
        let mode = detent_denormals_off()
        let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL)
        detent_denormals_restore(mode)
        guard let handle else {
            return .failure(LoadFailure(reason: dlerror().map { String(cString: $0) } ?? "\(path) cannot be loaded"))
        }
        return .success(SharedLibrary(handle: handle))
    }

    /// The address of the function or variable called `name`, nil when the library has none.
    package func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        dlsym(handle, name)
    }

    /// Unloads the library (its destructors run). Only for a library nothing points into.
    package func unload() {
        dlclose(handle)
    }
}
