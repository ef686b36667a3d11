#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// The tests' guard against a JACK metadata database whose lock a killed process left held:
/// removed before a server starts, but only when no process has it open.
@Suite("JACK metadata store")
struct JackMetadataStoreTests {
    @Test("a database some process maps is kept; one no process has open is removed")
    func clearsOnlyWhenUnused() throws {
        let folder = "/dev/shm/detent-test-db-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let region = folder + "/__db.001"
        #expect(FileManager.default.createFile(atPath: region, contents: Data(count: 4096)))
        let fd = open(region, O_RDWR)
        try #require(fd >= 0)
        let mapped = mmap(nil, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        close(fd)
        try #require(mapped != MAP_FAILED)
        #expect(JackMetadataStore.clearIfUnused(folder: folder) == false)
        #expect(FileManager.default.fileExists(atPath: region))
        munmap(mapped, 4096)
        #expect(JackMetadataStore.clearIfUnused(folder: folder))
        #expect(!FileManager.default.fileExists(atPath: folder))
    }
}
