import Glibc

/// Port-name patterns for `--connect-inputs` / `--connect-outputs`, and how matching ports
/// pair with Detent's own.
///
/// JACK matches port names with POSIX extended regular expressions (`regcomp` with
/// `REG_EXTENDED`); a pattern is compiled the same way up front so a typo fails at start-up
/// with the reason, not silently as "no ports matched".
package enum PortPattern {
    package static func validate(_ pattern: String, option: String) throws(LiveHostError) {
        var regex = regex_t()
        let code = regcomp(&regex, pattern, REG_EXTENDED | REG_NOSUB)
        defer { if code == 0 { regfree(&regex) } }
        guard code == 0 else {
            var buffer = [CChar](repeating: 0, count: 256)
            regerror(code, &regex, &buffer, buffer.count)
            let reason = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw .invalidPattern(option: option, pattern: pattern, reason: reason)
        }
    }

    /// Pairs Detent's ports with the ports that matched: the k-th of ours with the k-th
    /// match; when fewer ports matched than Detent has, the matches repeat (a mono source
    /// feeds every input). Extra matches are left alone.
    ///
    /// ```swift
    /// PortPattern.pairs(ours: ["in_1", "in_2"], theirs: ["system:capture_1"])
    /// // [("in_1", "system:capture_1"), ("in_2", "system:capture_1")]
    /// ```
    package static func pairs(ours: [String], theirs: [String]) -> [(ours: String, theirs: String)] {
        guard !theirs.isEmpty else { return [] }
        return ours.indices.map { (ours[$0], theirs[$0 % theirs.count]) }
    }
}
