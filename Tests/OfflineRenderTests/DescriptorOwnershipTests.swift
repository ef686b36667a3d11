import TestSupport
import Foundation
import Glibc
import Synchronization
import Testing
@testable import OfflineRender

/// Parallel renders open and close files on many threads at once, so a descriptor closed
/// twice is not a harmless EBADF: between the two closes another thread may have been given
/// the same number, and the second close takes that thread's file away (an unrelated render's
/// input, or a preset being saved). libsndfile closes the descriptor it was given when an
/// open fails, whatever `close_desc` says, so ownership has to be settled on Detent's side.
@Suite("Descriptor ownership", .serialized)
struct DescriptorOwnershipTests {
    /// What this process's open descriptors refer to, as paths. Other tests run alongside,
    /// so a test looks only for paths inside its own folder.
    static func openPaths() throws -> [String] {
        try folderContents("/proc/self/fd").compactMap { name in
            var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink("/proc/self/fd/" + name, &target, target.count - 1)
            return n > 0 ? String(decoding: target[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        }
    }

    @Test("opens that fail, for reading and for writing, leave no descriptor open")
    func failedOpensLeakNothing() throws {
        let folder = TemporaryFolder()
        let notAudio = folder.write("notes.wav", text: "these are not samples\n")
        for _ in 0..<20 {
            #expect(throws: AudioFileError.notAudio(path: notAudio)) { try SoundFileReader(path: notAudio) }
            let descriptor = open(folder.file("x.opus"), O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            try #require(descriptor >= 0)
            #expect(throws: (any Error).self) {
                try SoundFileWriter(descriptor: descriptor, path: folder.file("x.opus"),
                                    format: AudioFormat(.ogg, .opus), sampleRate: 44_100, channels: 2)
            }
            #expect(close(descriptor) == 0, "the caller's descriptor stays the caller's")
        }
        let folderPath = URL(fileURLWithPath: folder.path).resolvingSymlinksInPath().path
        #expect(try Self.openPaths().filter { $0.hasPrefix(folderPath + "/") } == [])
    }

    /// One thread keeps opening files that libsndfile refuses while another keeps opening
    /// /dev/null and checks, before closing it, that its descriptor still refers to /dev/null.
    /// A stray second close on the failing side lands on the checker's descriptor sooner or
    /// later (half the runs of 20,000 opens caught it, so this makes 100,000); with ownership
    /// right it never can.
    @Test("a failed open never closes a descriptor that another thread has just opened")
    func failedOpensCloseNothingElse() throws {
        let folder = TemporaryFolder()
        let notAudio = folder.write("notes.wav", text: "these are not samples\n")
        var null = stat()
        try #require(stat("/dev/null", &null) == 0)
        let nullIdentity = (device: null.st_rdev, inode: null.st_ino)
        let done = Atomic<Bool>(false)
        let stolen = Atomic<Int>(0)
        let checks = Atomic<Int>(0)

        let checker = Thread {
            while !done.load(ordering: .acquiring) {
                let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { continue }
                for _ in 0..<5 {
                    var st = stat()
                    if fstat(fd, &st) != 0 || st.st_rdev != nullIdentity.device || st.st_ino != nullIdentity.inode {
                        stolen.add(1, ordering: .relaxed)
                        break
                    }
                }
                checks.add(1, ordering: .relaxed)
                // A descriptor closed under it since the last check makes its own close fail.
                if close(fd) != 0 { stolen.add(1, ordering: .relaxed) }
            }
        }
        checker.start()
        // Wait until the checker is running, so the opens below overlap with it.
        try waitUntil("the checking thread runs") { checks.load(ordering: .relaxed) > 0 }
        for _ in 0..<100_000 {
            _ = try? SoundFileReader(path: notAudio)
        }
        done.store(true, ordering: .releasing)
        #expect(stolen.load(ordering: .relaxed) == 0, "descriptors closed under another thread, of \(checks.load(ordering: .relaxed)) checked")
        #expect(checks.load(ordering: .relaxed) > 0)
    }
}
