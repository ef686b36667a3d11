import CLadspa
import Synchronization

/// The plug-in libraries this process opened, each once, by path. They are never closed: a
/// descriptor points into its library for as long as the process may instantiate it, and
/// some LADSPA libraries free their descriptors in destructors that run on `dlclose`.
enum LadspaLibraries {
    private static let opened = Mutex<[String: Result<LibraryHandle, LibraryFailure>]>([:])

    struct LibraryFailure: Error, Sendable { let reason: String }

    /// The library at `path`, or why it cannot be loaded (the loader's message).
    static func open(_ path: String) -> Result<LibraryHandle, LibraryFailure> {
        opened.withLock { libraries in
            if let known = libraries[path] { return known }
            var message = [CChar](repeating: 0, count: 512)
            let result: Result<LibraryHandle, LibraryFailure>
            if let library = detent_ladspa_open(path, &message, UInt32(message.count)) {
                result = .success(LibraryHandle(pointer: library))
            } else {
                result = .failure(LibraryFailure(reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
            }
            libraries[path] = result
            return result
        }
    }
}

/// An opened library (`dlopen`'s handle), shared by every thread of the process.
struct LibraryHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
}
