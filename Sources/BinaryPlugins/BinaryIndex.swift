import Platform
import TextFormats

/// What a scan found in each binary of a format, kept between runs in Detent's cache folder
/// (`vst2-index`, `vst3-index`, `clap-index`): a binary is trusted to hold what the index says
/// while its device, inode, size and modification time are those recorded, so `detent
/// plugins` opens no binary and starts no child while nothing changed. Failures are kept too
/// (a binary that crashed or hung while loading is not tried again until it changes). The
/// file is rewritten whole under a temporary name and renamed into place
/// (``CacheFile/write(_:to:)``); missing or unreadable, every binary is scanned again.
enum BinaryIndex {
    static let header = "detent-binary-index 5"

    static func file(_ format: String) -> String? { CacheFile.path("\(format.lowercased())-index") }

    /// Per binary: its stamp and plug-ins. Layout: the header, then for each binary a line
    /// `L<TAB>path<TAB>stamp` followed by one line `P<TAB>summary<TAB>parameters` per plug-in
    /// (``ListedPlugin``: compact JSON holds no tab), the parameters kept as text until needed.
    static func load(_ file: String) -> [String: (stamp: String, plugins: [ListedPlugin])]? {
        guard let lines = CacheFile.lines(file, header: header) else { return nil }
        var entries: [String: (stamp: String, plugins: [ListedPlugin])] = [:]
        var current: String?
        for line in lines {
            let fields = line.utf8.split(separator: UInt8(ascii: "\t"), maxSplits: 2, omittingEmptySubsequences: false).map { Substring($0) }
            if fields.count == 3, fields[0] == "L" {
                current = String(fields[1])
                entries[String(fields[1])] = (String(fields[2]), [])
            } else if fields.count == 3, fields[0] == "P", let path = current,
                      let summary = try? JSONParser.parse(Array(fields[1].utf8)),
                      let plugin = ListedPlugin(summary: summary, parametersJSON: String(fields[2])) {
                entries[path]?.plugins.append(plugin)
            } else {
                return nil
            }
        }
        return entries
    }

    static func save(_ binaries: [(path: String, stamp: String, plugins: [ListedPlugin])], to file: String) {
        var text = header + "\n"
        for binary in binaries where CacheFile.fits(binary.path) {
            text += "L\t\(binary.path)\t\(binary.stamp)\n"
            for plugin in binary.plugins { text += "P\t\(plugin.summaryJSON.compactText)\t\(plugin.parametersJSON)\n" }
        }
        CacheFile.write(text, to: file)
    }
}
