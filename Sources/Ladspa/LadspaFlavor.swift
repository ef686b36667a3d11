import Platform

/// The two formats that share LADSPA's descriptor: LADSPA itself, and DSSI (a LADSPA
/// descriptor plus notes and programs). Each has its own search path and reference prefix.
public enum LadspaFlavor: String, Sendable, Hashable, CaseIterable {
    case ladspa = "LADSPA"
    case dssi = "DSSI"

    /// The prefix of its references and identifiers (`ladspa:1903:buttlow_iir`).
    public var prefix: String { self == .ladspa ? "ladspa:" : "dssi:" }

    /// The environment variable that names its folders.
    public var pathVariable: String { self == .ladspa ? "LADSPA_PATH" : "DSSI_PATH" }

    /// Where it looks when the variable is not set: the folders Debian's packages install to,
    /// then the local and the user's own.
    public var defaultPath: String {
        self == .ladspa ? "/usr/lib/ladspa:/usr/local/lib/ladspa:~/.ladspa" : "/usr/lib/dssi:/usr/local/lib/dssi:~/.dssi"
    }

    /// The folders searched, in order, `~` expanded.
    public var folders: [String] {
        let home = Environment.value("HOME") ?? ""
        let path = Environment.value(pathVariable) ?? defaultPath
        return path.split(separator: ":").map(String.init).filter { !$0.isEmpty }.map {
            $0 == "~" ? home : $0.hasPrefix("~/") ? home + $0.dropFirst() : $0
        }
    }
}
