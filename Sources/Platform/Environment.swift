import Glibc

/// The process environment, read the one way every module reads it.
public enum Environment {
    /// The value of `name`, or nil when it is unset or not valid UTF-8.
    public static func value(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        return String(validatingCString: raw)
    }
}
