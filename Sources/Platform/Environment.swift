import Glibc

/// The process environment, read the one way every module reads it.
package enum Environment {
    /// The value of `name`, or nil when it is unset or not valid UTF-8.
    package static func value(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        return String(validatingCString: raw)
    }

    /// Every variable, by name (entries that are not valid UTF-8 or have no `=` left out): for
    /// code that takes the environment as a value, such as the terminal's settings.
    package static var all: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            if let text = String(validatingCString: pointer), let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }

    /// Where Detent keeps what it can make again (the real-time audit's runtime, the plug-in
    /// index): `$XDG_CACHE_HOME/detent`, or `~/.cache/detent`; nil with neither set.
    package static var cacheFolder: String? {
        if let xdg = value("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return xdg + "/detent" }
        guard let home = value("HOME"), !home.isEmpty else { return nil }
        return home + "/.cache/detent"
    }

    /// This machine's host name (what another machine on the network may know it by), or nil.
    package static var hostName: String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }
}
