import Glibc

/// The process environment, read the one way every module reads it.
public enum Environment {
    /// The value of `name`, or nil when it is unset or not valid UTF-8.
    public static func value(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        return String(validatingCString: raw)
    }

    /// This machine's host name (what another machine on the network may know it by), or nil.
    public static var hostName: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }
}
