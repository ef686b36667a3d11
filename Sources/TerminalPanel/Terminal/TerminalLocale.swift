/// Whether the terminal's locale can show Unicode: what decides, without `--ascii`, between
/// braille knobs and the ASCII fallback.
///
/// The C library's rule picks the locale: `LC_ALL`, else `LC_CTYPE`, else `LANG`, the first
/// set and not empty. With none set, the C locale applies, which has no UTF-8. Braille, `−`
/// and `∞` sent to a terminal in such a locale come out as mojibake, so the panel draws ASCII.
///
/// ```swift
/// TerminalLocale.isUTF8(["LANG": "C"])              // false
/// TerminalLocale.isUTF8(["LANG": "en_GB.UTF-8"])    // true
/// ```
public enum TerminalLocale {
    /// The locale this environment selects for characters names UTF-8.
    public static func isUTF8(_ environment: [String: String]) -> Bool {
        let name = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let lowered = name.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8")
    }
}
