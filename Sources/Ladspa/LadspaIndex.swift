import Platform

/// The IDs and labels each library of a search path holds, kept between runs in Detent's
/// cache folder (`ladspa-index`, `dssi-index`), so that a reference by ID or label —
/// `ladspa:1903`, a preset's `ladspa:1903:buttlow_iir` — opens the one library that has it
/// rather than every library installed (135 here, at about 0.15 ms each, and DSSI's are
/// instantiated to read their programs).
///
/// A library is trusted to hold what the index says while its device, inode, size and
/// modification time are those recorded; any other (new, rebuilt, reinstalled) is read again
/// and the index rewritten whole under a temporary name, then renamed into place, so that two
/// processes never see half of one. The index is only a shortcut: missing, unreadable or
/// unwritable, every library is read as before.
enum LadspaIndex {
    /// One descriptor as the index knows it.
    struct Stub: Equatable, Sendable, LadspaNaming {
        let flavor: LadspaFlavor
        let path: String
        let index: Int
        let uniqueID: UInt
        let label: String
        var identifier: String { "\(flavor.prefix)\(uniqueID):\(label)" }
    }

    /// The first line of an index file: a file of another layout is ignored (and replaced).
    static let header = "detent-ladspa-index 1"

    /// The index file for `flavor`, or nil without a cache folder.
    static func file(_ flavor: LadspaFlavor) -> String? {
        CacheFile.path("\(flavor.rawValue.lowercased())-index")
    }

    /// Every descriptor of `flavor`'s path, in the order the listing reads them. A library
    /// the index does not know as it is now is read, and its plug-ins put in `read`, so that
    /// no library is read twice.
    static func stubs(_ flavor: LadspaFlavor, read: inout [String: [LadspaPlugin]]) -> [Stub] {
        let file = file(flavor)
        let known = file.flatMap { load($0, flavor: flavor) } ?? [:]
        var stubs: [Stub] = []
        var now: [(path: String, stamp: String, stubs: [Stub])] = []
        var changed = false
        for path in LadspaDiscovery.libraryPaths(flavor) {
            let stamp = FileStatus(path: path)?.version
            if let stamp, let entry = known[path], entry.stamp == stamp {
                stubs += entry.stubs
                now.append((path, stamp, entry.stubs))
                continue
            }
            let plugins = LadspaDiscovery.library(path, flavor: flavor)
            read[path] = plugins
            let own = plugins.map { Stub(flavor: flavor, path: path, index: $0.index, uniqueID: $0.uniqueID, label: $0.label) }
            stubs += own
            changed = true
            // A name the file's lines cannot hold is read every time.
            if let stamp, ([path] + own.map(\.label)).allSatisfy(CacheFile.fits) {
                now.append((path, stamp, own))
            }
        }
        if let file, changed || now.count != known.count { save(now, to: file) }
        return stubs
    }

    /// The index at `file`: for each library path, its stamp and descriptors; nil when there
    /// is none, or it is of another layout.
    ///
    /// Layout: the header, then for each library a line `L<TAB>path<TAB>stamp` followed by
    /// one line `P<TAB>index<TAB>uniqueID<TAB>label` per descriptor.
    static func load(_ file: String, flavor: LadspaFlavor) -> [String: (stamp: String, stubs: [Stub])]? {
        guard let lines = CacheFile.lines(file, header: header) else { return nil }
        var entries: [String: (stamp: String, stubs: [Stub])] = [:]
        var current: String?
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if fields.count == 3, fields[0] == "L" {
                current = fields[1]
                entries[fields[1]] = (fields[2], [])
            } else if fields.count == 4, fields[0] == "P", let path = current, let index = Int(fields[1]),
                      let id = UInt(fields[2]) {
                entries[path]?.stubs.append(Stub(flavor: flavor, path: path, index: index, uniqueID: id, label: fields[3]))
            } else {
                return nil
            }
        }
        return entries
    }

    /// Writes the index whole (see ``CacheFile/write(_:to:)``).
    static func save(_ libraries: [(path: String, stamp: String, stubs: [Stub])], to file: String) {
        var text = header + "\n"
        for library in libraries {
            text += "L\t\(library.path)\t\(library.stamp)\n"
            for stub in library.stubs { text += "P\t\(stub.index)\t\(stub.uniqueID)\t\(stub.label)\n" }
        }
        CacheFile.write(text, to: file)
    }
}

/// What a reference by ID or label is matched against: a plug-in read from its library, or
/// the index's note of one.
protocol LadspaNaming {
    var flavor: LadspaFlavor { get }
    var path: String { get }
    var index: Int { get }
    var uniqueID: UInt { get }
    var label: String { get }
    /// `ladspa:ID:LABEL`.
    var identifier: String { get }
}

extension LadspaPlugin: LadspaNaming {}
