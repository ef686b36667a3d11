import CPlatform
import Glibc

/// A new file with a unique name, made the one way the package makes one: `mkostemp`, so the
/// name cannot be taken by another process between choosing and creating it, and close-on-exec
/// from the start, so no program the process starts holds an unfinished file open.
package enum TemporaryFile {
    /// Creates `prefix` followed by six random characters (mode 0600), open for reading and
    /// writing; returns its path and descriptor.
    package static func create(prefix: String) throws(SystemCallError) -> (path: String, descriptor: Int32) {
        var template = Array((prefix + "XXXXXX").utf8CString)
        let fd = try systemCall("mkostemp") { template.withUnsafeMutableBufferPointer { detent_mkstemp_cloexec($0.baseAddress!) } }
        return (template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, fd)
    }

    /// Creates the folder `prefix` followed by six random characters (mode 0700); returns its
    /// path.
    package static func createFolder(prefix: String) throws(SystemCallError) -> String {
        var template = Array((prefix + "XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { throw .last("mkdtemp") }
        return String(cString: made)
    }
}
