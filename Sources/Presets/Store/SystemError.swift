import Parameters

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's text for an `errno` value, for one-line messages.
enum SystemError {
    static func text(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// The I/O error naming `path`: what could not be done, then the system's reason
    /// (`cannot read: No such file or directory`).
    static func failure(_ what: String, code: Int32, path: String) -> PresetError {
        PresetError(.io("\(what): \(text(code))"), source: path)
    }
}
