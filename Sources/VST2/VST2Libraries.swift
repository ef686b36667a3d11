import CVst2
import Platform
import Synchronization

/// The VST2 libraries this process opened, each once, by path. They are never closed: an
/// AEffect and the code it calls live in its library for as long as the plug-in is open, and
/// a library may be opened again for the next instance at any time.
enum VST2Libraries {
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
    /// The library's VST2 entry point (`VSTPluginMain`, else `main`), nil when it is not a
    /// VST2 plug-in.
    var vst2Entry: UnsafeMutableRawPointer? { detent_vst2_entry(handle) }
}
