import Synchronization

/// The plug-in libraries this process opened (LADSPA, DSSI, VST2, VST3, CLAP), each once, by
/// path, with the result of the format's one-time set-up of it (CLAP's `clap_entry.init`,
/// VST3's `ModuleEntry`). They are never closed: a plug-in's descriptors and factories point
/// into its library for as long as the process may make instances, and some libraries free
/// them in destructors that run on `dlclose`.
package enum LoadedLibraries {
    private static let opened = Mutex<[String: Result<SharedLibrary, SharedLibrary.LoadFailure>]>([:])

    /// The library at `path`, loaded and readied by `setUp` the first time (whose failure is
    /// kept as the library's), or why it cannot be.
    package static func open(
        _ path: String, setUp: (SharedLibrary) -> String? = { _ in nil }
    ) -> Result<SharedLibrary, SharedLibrary.LoadFailure> {
        opened.withLock { libraries in
            if let known = libraries[path] { return known }
            var result = SharedLibrary.load(path)
            if case .success(let library) = result, let problem = setUp(library) {
                result = .failure(SharedLibrary.LoadFailure(reason: problem))
            }
            libraries[path] = result
            return result
        }
    }
}
