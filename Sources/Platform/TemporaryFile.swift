import CPlatform

/// A new file with a unique name, made the one way the package makes one: `mkostemp`, so the
/// name cannot be taken by another process between choosing and creating it, and close-on-exec
/// from the start, so no program the process starts holds an unfinished file open.
public enum TemporaryFile {
    /// Creates `prefix` followed by six random characters (mode 0600), open for reading and
    /// writing; returns its path and descriptor.
    public static func create(prefix: String) throws(SystemCallError) -> (path: String, descriptor: Int32) {
        var template = Array((prefix + "XXXXXX").utf8CString)
        let fd = try systemCall("mkostemp") { template.withUnsafeMutableBufferPointer { detent_mkstemp_cloexec($0.baseAddress!) } }
        return (template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }, fd)
    }
}
