import BinaryPlugins
import CVst3
import Platform
import Synchronization

/// The VST3 modules this process entered, each once, by bundle path: the library loaded and
/// kept by ``BinaryLibraries`` (never closed, and its `ModuleExit` never called, since
/// instances may exist until the process ends), `ModuleEntry` called with its handle as it is
/// loaded, and its factory taken.
enum VST3Modules {
    /// A module's factory, shared by every thread that makes instances (under the plug-in
    /// lifecycle lock).
    struct Module: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private static let opened = Mutex<[String: Result<Module, SharedLibrary.LoadFailure>]>([:])

    /// The module of the bundle or shared object at `path`, or why it cannot be entered.
    static func open(_ path: String) -> Result<Module, SharedLibrary.LoadFailure> {
        opened.withLock { modules in
            if let known = modules[path] { return known }
            let result = enter(path)
            modules[path] = result
            return result
        }
    }

    private static func enter(_ path: String) -> Result<Module, SharedLibrary.LoadFailure> {
        let file = sharedObject(path)
        guard PathString.isRegularFile(file) else {
            return .failure(SharedLibrary.LoadFailure(reason: "\(file) is missing (no build for this machine)"))
        }
        let library: SharedLibrary
        let opened = LoadedLibraries.open(file) { library in
            let reason = failure { _ = detent_vst3_module_enter(library.handle, $0, $1) }
            return reason.isEmpty ? nil : reason
        }
        switch opened {
        case .success(let loaded): library = loaded
        case .failure(let failure): return .failure(failure)
        }
        var module: OpaquePointer?
        let reason = failure { module = detent_vst3_module_open(library.handle, $0, $1) }
        guard let module else { return .failure(SharedLibrary.LoadFailure(reason: reason)) }
        return .success(Module(pointer: module))
    }

    /// The shared object of a bundle (`NAME.vst3/Contents/ARCH-linux/NAME.so`), or `path`
    /// itself when it is a file.
    static func sharedObject(_ path: String) -> String {
        guard PathString.isFolder(path) else { return path }
        let stem = PathString.split(PathString.name(of: path)).stem
        return "\(path)/Contents/\(BinaryFolders.architecture)-linux/\(stem).so"
    }
}

/// A C string of a fixed-size `char` array (a tuple in Swift), read up to its first zero.
func text<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { bytes in
        let end = bytes.firstIndex(of: 0) ?? bytes.count
        return String(decoding: bytes[..<end], as: UTF8.self)
    }
}

/// Runs `body` with a buffer for a C function's failure message, and returns the message.
func failure(_ body: (UnsafeMutablePointer<CChar>, Int) -> Void) -> String {
    let reason = UnsafeMutablePointer<CChar>.allocate(capacity: 256)
    defer { reason.deallocate() }
    reason[0] = 0
    body(reason, 256)
    return String(cString: reason)
}
