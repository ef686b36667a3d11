import Platform
import AudioEngine
import Foundation
import Testing
import Parameters
import TestSupport
@testable import Presets

/// System calls that fail at one chosen step of a save, like a full disk or a dying process.
final class FailingCalls: FileSystemCalls, @unchecked Sendable {
    enum Step: Sendable, CustomStringConvertible {
        /// `write` accepts this many bytes in all, then fails with ENOSPC.
        case write(afterBytes: Int)
        case fsync, close, rename
        /// Like `write`, but the clean-up `unlink` does nothing: the process "died" mid-save.
        case crash(afterBytes: Int)
        /// `link` is not supported by the file system (EPERM): the writer must fall back.
        case noHardLinks

        var description: String {
            switch self {
            case .write(let n): "write fails after \(n) bytes"
            case .fsync: "fsync fails"
            case .close: "close fails"
            case .rename: "rename fails"
            case .crash(let n): "process dies after \(n) bytes"
            case .noHardLinks: "no hard links"
            }
        }
    }

    let step: Step
    private let real = SystemFileCalls()
    private let lock = NSLock()
    private var written = 0
    private var failedOnce = false

    init(_ step: Step) { self.step = step }

    /// Bytes accepted by `write` before the failure.
    var bytesWritten: Int { lock.withLock { written } }

    /// True the first time only: later calls (the folder's `fsync`) pass through.
    private func failNow() -> Bool {
        lock.withLock {
            defer { failedOnce = true }
            return !failedOnce
        }
    }

    func open(_ path: String, _ access: FileDescriptor.AccessMode, options: FileDescriptor.OpenOptions,
              permissions: FilePermissions) -> Int32 {
        real.open(path, access, options: options, permissions: permissions)
    }

    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        switch step {
        case .write(let limit), .crash(let limit):
            return lock.withLock {
                let allowed = min(bytes.count, limit - written)
                guard allowed > 0 else {
                    errno = ENOSPC
                    return -1
                }
                let n = real.write(fd, UnsafeRawBufferPointer(rebasing: bytes[..<allowed]))
                written += max(n, 0)
                return n
            }
        default:
            return real.write(fd, bytes)
        }
    }

    func fsync(_ fd: Int32) -> Int32 {
        if case .fsync = step, failNow() {
            errno = EIO
            return -1
        }
        return real.fsync(fd)
    }

    func close(_ fd: Int32) -> Int32 {
        let result = real.close(fd)
        if case .close = step, failNow() {
            errno = EIO
            return -1
        }
        return result
    }

    func rename(_ from: String, _ to: String) -> Int32 {
        if case .rename = step {
            errno = EXDEV
            return -1
        }
        return real.rename(from, to)
    }

    func link(_ from: String, _ to: String) -> Int32 {
        if case .noHardLinks = step {
            errno = EPERM
            return -1
        }
        return real.link(from, to)
    }

    func unlink(_ path: String) -> Int32 {
        if case .crash = step { return 0 }
        return real.unlink(path)
    }
}

@Suite("Atomic saves: nothing is ever half-written")
struct AtomicSaveTests {
    private let old = Preset(name: "Pad", comment: "the old version", values: ParameterValues(table: LowpassGain.table, [.cutoff: 300, .gain: -3]))
    private let new = Preset(name: "Pad", comment: "the new version, which must never appear half-written",
                             values: ParameterValues(table: LowpassGain.table, [.cutoff: 4_000, .resonance: 2, .gain: 6]))

    private func systemText(_ code: Int32) -> String { String(cString: strerror(code)) }

    @Test("a save failing at any step leaves the old file intact and no temporary file behind", arguments: [
        (FailingCalls.Step.write(afterBytes: 40), "writing", ENOSPC),
        (.write(afterBytes: 0), "writing", ENOSPC),
        (.fsync, "flushing to disk", EIO),
        (.close, "closing the file", EIO),
        (.rename, "renaming the temporary file", EXDEV),
    ])
    func interrupted(step: FailingCalls.Step, what: String, code: Int32) throws {
        let root = TemporaryFolder()
        let path = try makeStore(in: root.path).save(old, replacing: false)
        let oldText = try readFile(path)

        let calls = FailingCalls(step)
        let failing = makeStore(in: root.path, calls: calls)
        #expect(throws: PresetError(.io("cannot save (\(what) failed; nothing was changed): \(systemText(code))"), source: path)) {
            try failing.save(new, replacing: true)
        }
        if case .write(let limit) = step {
            #expect(calls.bytesWritten == limit)  // it failed midway, not before starting
            #expect(limit < PresetCodec.encode(new).utf8.count)
        }
        #expect(try readFile(path) == oldText)
        #expect(try folderContents(failing.userDirectory) == ["Pad.json"])
        #expect(try failing.load(named: "Pad").preset == old)
    }

    @Test("a process dying mid-save leaves the old file intact; its leftover is ignored")
    func crash() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let path = try store.save(old, replacing: false)
        let oldText = try readFile(path)
        let dying = makeStore(in: root.path, calls: FailingCalls(.crash(afterBytes: 50)))
        #expect(throws: PresetError.self) { try dying.save(new, replacing: true) }

        let contents = try folderContents(store.userDirectory)
        #expect(contents.count == 2 && contents.last == "Pad.json")
        #expect(contents.first?.hasPrefix(".Pad.json.") == true && contents.first?.hasSuffix(".tmp") == true)
        #expect(try readFile(path) == oldText)
        #expect(try store.list().filter { $0.origin.path != nil }.map(\.name) == ["Pad"])
        #expect(try store.load(named: "Pad").preset == old)
    }

    @Test("the next save removes what dying saves left; a temporary file a running save holds stays")
    func leftoversRemoved() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        try store.save(old, replacing: false)
        let dying = makeStore(in: root.path, calls: FailingCalls(.crash(afterBytes: 50)))
        #expect(throws: PresetError.self) { try dying.save(new, replacing: true) }
        // A save running in another process: its temporary file is locked.
        let running = store.userDirectory + "/.Other.json.5eed.tmp"
        try writeFile("being written", to: running)
        let fd = open(running, O_RDONLY)
        defer { close(fd) }
        #expect(DescriptorIO.lockExclusively(fd))
        #expect(try folderContents(store.userDirectory).count == 3)

        try store.save(new, replacing: true)
        #expect(try folderContents(store.userDirectory) == [".Other.json.5eed.tmp", "Pad.json"])
        #expect(AtomicFileWriter.destination(ofTemporary: ".Pad.json.1f3a.tmp") == "Pad.json")
        #expect(AtomicFileWriter.destination(ofTemporary: ".Pad.json.tmp") == nil)
        #expect(AtomicFileWriter.destination(ofTemporary: ".Pad.json.x1.tmp") == nil)
    }

    @Test("without hard links, a no-replace write falls back to check-then-rename")
    func noHardLinks() throws {
        let root = TemporaryFolder()
        let writer = AtomicFileWriter(calls: FailingCalls(.noHardLinks))
        let path = root.file("out.json")
        try writer.write(Array("first".utf8), to: path, replacing: false)
        #expect(try readFile(path) == "first")
        #expect(throws: PresetError(.fileExists(path: path))) {
            try writer.write(Array("second".utf8), to: path, replacing: false)
        }
        #expect(try readFile(path) == "first")
        #expect(try folderContents(root.path) == ["out.json"])
    }

    @Test("a write into a missing folder fails with the reason and creates nothing")
    func missingFolder() throws {
        let root = TemporaryFolder()
        let path = root.file("missing/out.json")
        #expect(throws: PresetError(.io("cannot save (creating a temporary file failed; nothing was changed): \(systemText(ENOENT))"), source: path)) {
            try AtomicFileWriter().write(Array("x".utf8), to: path, replacing: true)
        }
        #expect(try folderContents(root.path).isEmpty)
    }

    @Test("two threads saving one preset over and over: readers only ever see one whole version")
    func concurrentSaves() throws {
        let root = TemporaryFolder()
        let store = makeStore(in: root.path)
        let path = try store.save(old, replacing: false)
        let versions = [old, new]
        let rounds = 200
        let seen = Results()
        DispatchQueue.concurrentPerform(iterations: 3) { worker in
            for _ in 0..<rounds {
                do throws(PresetError) {
                    if worker < 2 {
                        try store.save(versions[worker], replacing: true)
                    } else {
                        let loaded = try store.load(named: "Pad")
                        if !versions.contains(loaded.preset) { seen.append(PresetError(.io("saw a mixed version"))) }
                    }
                } catch {
                    seen.append(error)
                }
            }
        }
        #expect(seen.all.isEmpty)
        let final = try store.load(named: "Pad")
        #expect(versions.contains(final.preset))
        #expect(try readFile(path) == PresetCodec.encode(final.preset))
        #expect(try folderContents(store.userDirectory) == ["Pad.json"])
    }
}
