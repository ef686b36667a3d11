/// A file in Detent's cache folder (`$XDG_CACHE_HOME/detent`, else `~/.cache/detent`): a
/// shortcut that is never needed, only trusted, so every failure here is quiet — a missing
/// cache folder, an unreadable file, a full disk — and the caller reads what the cache would
/// have spared it.
///
/// A cache file is replaced whole: written under a temporary name beside it, then renamed
/// into place, so that two processes at once never see half of one.
package enum CacheFile {
    /// The path of the cache file `name`, or nil without a cache folder (no `HOME`).
    package static func path(_ name: String) -> String? {
        Environment.cacheFolder.map { "\($0)/\(name)" }
    }

    /// The lines of the file at `path` when its first line is `header`; nil when there is no
    /// such file, it is larger than `limit` bytes, or it is of another layout.
    package static func lines(_ path: String, header: String, limit: Int = 64 << 20) -> [Substring]? {
        guard let bytes = try? BoundedFileReader.read(path: path, limit: limit) else { return nil }
        // Split on the bytes: a split by characters would weigh every character of a large
        // index (the VST2 one holds megabytes of parameters) for grapheme clusters.
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).map { Substring($0) }
        guard lines.first == Substring(header) else { return nil }
        return Array(lines.dropFirst())
    }

    /// Writes `text` to a temporary file beside `path` and renames it into place; gives up
    /// quietly on any failure (the next run reads what the cache holds again).
    package static func write(_ text: String, to path: String) {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        guard !folder.isEmpty, (try? FolderEntries.make(folder, mode: 0o755)) != nil else { return }
        guard let (temporary, fd) = try? TemporaryFile.create(prefix: path + ".") else { return }
        let written = (try? DescriptorIO.writeAll(fd, Array(text.utf8))) != nil
        let closed = (try? DescriptorIO.close(fd)) != nil
        guard written, closed, (try? FileNaming.name(temporary, as: path, replacing: true)) != nil else {
            PathString.remove(temporary)
            return
        }
    }

    /// A field of a cache line must hold neither of its separators.
    package static func fits(_ field: String) -> Bool {
        !field.contains("\t") && !field.contains("\n")
    }
}
