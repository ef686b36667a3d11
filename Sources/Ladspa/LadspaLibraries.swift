import CLadspa
import Platform
import Synchronization

/// The plug-in libraries this process opened, each once, by path. They are never closed: a
/// descriptor points into its library for as long as the process may instantiate it, and
/// some LADSPA libraries free their descriptors in destructors that run on `dlclose`.
enum LadspaLibraries {
    private static let opened = Mutex<[String: Result<SharedLibrary, SharedLibrary.LoadFailure>]>([:])

    /// The library at `path`, or why it cannot be loaded (the loader's message).
    static func open(_ path: String) -> Result<SharedLibrary, SharedLibrary.LoadFailure> {
        opened.withLock { libraries in
            if let known = libraries[path] { return known }
            let result = SharedLibrary.load(path)
            libraries[path] = result
            return result
        }
    }
}

extension SharedLibrary {
    /// The library's `ladspa_descriptor` entry point, nil when it has none.
    var ladspaEntry: LADSPA_Descriptor_Function? {
        symbol("ladspa_descriptor").map { unsafeBitCast($0, to: LADSPA_Descriptor_Function.self) }
    }

    /// The library's `dssi_descriptor` entry point, nil when it has none.
    var dssiEntry: DSSI_Descriptor_Function? {
        symbol("dssi_descriptor").map { unsafeBitCast($0, to: DSSI_Descriptor_Function.self) }
    }
}
