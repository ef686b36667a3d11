/// Test plug-ins of the project's own, compiled from C into a shared library by the system's
/// compiler with lilv's (and so LV2's) headers, and the folders `includes` names (CLAP's, from
/// Debian's dpf-source): the one way the tests build one.
public enum PluginCompiler {
    /// Where dpf-source puts the CLAP, VST3 (travesty) and VST2 interface headers.
    public static let formatHeaders = "/usr/share/dpf/distrho/src"

    /// Compiles `source` (a path under the package) into the library `output`; the compiler's
    /// complaint when it fails, nil when it succeeds.
    public static func compile(_ source: String, into output: String, optimization: String = "-O2",
                               includes: [String] = []) throws -> String? {
        let flags = try ChildProcess.run("/usr/bin/pkg-config", ["--cflags", "lilv-0"])
        let compiled = try ChildProcess.run("/usr/bin/cc", [optimization, "-shared", "-fPIC", "-o", output, packageRoot + "/" + source]
            + flags.stdoutText.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init) + includes.map { "-I" + $0 })
        return compiled.status.exited == 0 ? nil : "cc: \(compiled.stderrText)"
    }
}
