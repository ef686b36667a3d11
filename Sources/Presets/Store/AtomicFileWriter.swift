import Parameters
import Platform

/// Writes a file so that readers only ever see the old content or the whole new content.
///
/// The bytes go to a hidden temporary file in the same folder (`.Dark.json.1f3a….tmp`),
/// which is flushed to the disk (`fsync`) and then renamed over the destination; `rename`
/// within one file system is atomic. A failure at any step removes the temporary file and
/// leaves the destination untouched; a crash can at worst leave a hidden `.tmp` file behind,
/// which listings ignore and a later save removes: the writer holds a lock on its temporary
/// file until the file has its name (see ``AbandonedEntries``). Two writers racing on one destination each rename a complete file,
/// so the last rename wins and the file is always one of them, whole.
///
/// Without `replacing`, the temporary file is hard-linked to the destination instead of
/// renamed, which fails if the destination exists, even if it appeared a moment ago.
///
/// ```swift
/// try AtomicFileWriter().write(Array(text.utf8), to: "/home/me/.config/detent/presets/Dark.json", replacing: true)
/// ```
public struct AtomicFileWriter: Sendable {
    package let calls: any FileSystemCalls

    /// A writer through the system's own calls.
    public init() { self.init(calls: SystemFileCalls()) }

    /// A writer through `calls` (tests replace them to inject failures).
    package init(calls: any FileSystemCalls) {
        self.calls = calls
    }

    /// Writes `bytes` to `path` atomically.
    ///
    /// - Parameter replacing: whether an existing file at `path` may be replaced.
    /// - Throws: ``PresetError/Problem/fileExists(path:)`` when `path` exists and `replacing`
    ///   is false; ``PresetError/Problem/io(_:)`` naming the step that failed otherwise.
    public func write(_ bytes: [UInt8], to path: String, replacing: Bool) throws(PresetError) {
        let (temporary, fd, claim) = try createTemporaryFile(beside: path)
        // The claim outlives the descriptor written through, which closes before the rename.
        defer { if let claim { try? DescriptorIO.close(claim) } }
        do throws(PresetError) {
            try writeAll(bytes, to: fd, path: path)
            guard calls.fsync(fd) == 0 else { throw Self.failure("flushing to disk", .last, path: path) }
        } catch {
            _ = calls.close(fd)
            _ = calls.unlink(temporary)
            throw error
        }
        guard calls.close(fd) == 0 else {
            let reason = Errno.last
            _ = calls.unlink(temporary)
            throw Self.failure("closing the file", reason, path: path)
        }
        do throws(PresetError) {
            try moveIntoPlace(temporary, path, replacing: replacing)
        } catch {
            _ = calls.unlink(temporary)
            throw error
        }
        syncDirectory(of: path)
    }

    /// Creates a new, empty, uniquely named hidden file in `path`'s folder, claimed for this
    /// writer: the file, its descriptor, and a duplicate of that which holds the claim (nil
    /// when none could be made: the file is written all the same).
    private func createTemporaryFile(beside path: String) throws(PresetError) -> (String, Int32, Int32?) {
        let (folder, name) = Self.split(path)
        for _ in 0..<16 {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 16)
            let temporary = folder + "/." + name + "." + suffix + ".tmp"
            // 0666 lets the umask decide the permissions, as for any file the user creates.
            let fd = calls.open(temporary, .writeOnly, options: [.create, .exclusiveCreate],
                                permissions: [.ownerReadWrite, .groupReadWrite, .otherReadWrite])
            if fd >= 0 {
                // A clean-up that removed it between its creation and the claim: another name.
                guard AbandonedEntries.claim(fd, at: temporary) else {
                    _ = calls.close(fd)
                    continue
                }
                return (temporary, fd, try? DescriptorIO.duplicate(fd))
            }
            let reason = Errno.last
            if reason != .fileExists { throw Self.failure("creating a temporary file", reason, path: path) }
        }
        throw Self.failure("creating a temporary file", .fileExists, path: path)
    }

    private func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(PresetError) {
        do {
            var written = 0
            try DescriptorIO.writeAll(fd, bytes, written: &written, using: calls.write)
        } catch {
            throw Self.failure("writing", error.errno, path: path)
        }
    }

    private func moveIntoPlace(_ temporary: String, _ path: String, replacing: Bool) throws(PresetError) {
        do {
            try FileNaming.name(temporary, as: path, replacing: replacing, calls: calls)
        } catch {
            switch error {
            case .exists: throw PresetError(.fileExists(path: path))
            case .failed(let step, let reason): throw Self.failure(step, reason, path: path)
            }
        }
    }

    /// Flushes the folder so the rename itself survives a power cut. Best effort: some file
    /// systems refuse `fsync` on a folder, and the new content is already in place.
    private func syncDirectory(of path: String) {
        let fd = calls.open(Self.split(path).folder, .readOnly, options: .directory, permissions: [])
        guard fd >= 0 else { return }
        _ = calls.fsync(fd)
        _ = calls.close(fd)
    }

    /// A failed step: nothing was changed, since the destination is only touched by the
    /// final rename or link.
    private static func failure(_ step: String, _ reason: Errno, path: String) -> PresetError {
        .system("cannot save (\(step) failed; nothing was changed)", reason, path: path)
    }

    /// The file a temporary file called `entry` (`.Dark.json.1f3a….tmp`) was to become
    /// (`Dark.json`), else nil.
    public static func destination(ofTemporary entry: String) -> String? {
        guard entry.hasPrefix("."), entry.hasSuffix(".tmp") else { return nil }
        let inner = entry.dropFirst().dropLast(4)
        guard let dot = inner.lastIndex(of: "."), dot > inner.startIndex else { return nil }
        let suffix = inner[inner.index(after: dot)...]
        guard !suffix.isEmpty, suffix.allSatisfy(\.isHexDigit) else { return nil }
        return String(inner[..<dot])
    }

    /// The folder and the last component of `path` (`.` when it has no folder).
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}
