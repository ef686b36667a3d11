import Platform

/// Tab in the file prompt: the path typed so far completed as a shell completes it. The last
/// part is completed from the names in its folder — as far as every match agrees, with a `/`
/// after a folder that is the only match — and when several names remain they are offered
/// to choose from. `~/` stands for the home folder, and stays as typed. Hidden names are
/// offered only when the part typed starts with a dot.
///
/// ```swift
/// PathCompletion.complete("Samples/hal")  // text "Samples/hall", candidates ["hall.wav", "hall-long.flac"]
/// ```
public struct PathCompletion: Sendable, Equatable {
    /// The text after completion (unchanged when nothing matches).
    public var text: String
    /// The names still possible when more than one is, sorted; empty otherwise.
    public var candidates: [String]

    package static func complete(_ typed: String, home: String? = Environment.value("HOME"),
                                currentFolder: String = ".") -> PathCompletion {
        let slash = typed.lastIndex(of: "/")
        let folderPart = slash.map { String(typed[...$0]) } ?? ""
        let namePart = slash.map { String(typed[typed.index(after: $0)...]) } ?? typed
        var folder = folderPart.isEmpty ? currentFolder : folderPart
        if let home, folder == "~/" || folder.hasPrefix("~/") { folder = home + folder.dropFirst() }
        else if !folderPart.hasPrefix("/") && !folderPart.isEmpty { folder = currentFolder + "/" + folderPart }
        let names = ((try? FolderEntries.names(in: folder)) ?? [])
            .filter { $0.hasPrefix(namePart) && (namePart.hasPrefix(".") || !$0.hasPrefix(".")) }
            .sorted()
        guard let first = names.first else { return PathCompletion(text: typed, candidates: []) }
        if names.count == 1 {
            let isFolder = PathString.isFolder(folder + "/" + first)
            return PathCompletion(text: folderPart + first + (isFolder ? "/" : ""), candidates: [])
        }
        var common = first
        for name in names.dropFirst() {
            while !name.hasPrefix(common) { common.removeLast() }
        }
        return PathCompletion(text: folderPart + common, candidates: names)
    }
}
