import Glibc
import Testing
import TestSupport
@testable import Platform

@Suite("Bounded file reader")
struct BoundedFileReaderTests {
    @Test("a file up to the limit is read whole")
    func underLimit() throws {
        let folder = TemporaryFolder()
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let path = folder.write("data", bytes)
        #expect(try BoundedFileReader.read(path: path, limit: 200_000) == bytes)
        #expect(try BoundedFileReader.read(path: folder.write("empty", []), limit: 0) == [])
    }

    @Test("a file over the limit is refused as too large")
    func overLimit() {
        let folder = TemporaryFolder()
        let path = folder.write("data", [UInt8](repeating: 1, count: 1_001))
        #expect(throws: BoundedFileReader.Failure.tooLarge(limit: 1_000)) {
            try BoundedFileReader.read(path: path, limit: 1_000)
        }
    }

    @Test("an endless file is refused without reading it all")
    func endless() {
        #expect(throws: BoundedFileReader.Failure.tooLarge(limit: 4_096)) {
            try BoundedFileReader.read(path: "/dev/zero", limit: 4_096)
        }
    }

    @Test("a missing file, a folder and a path through a file fail with the system's reason")
    func systemFailures() {
        let folder = TemporaryFolder()
        let file = folder.write("file", [1])
        #expect(throws: BoundedFileReader.Failure.system(.noSuchFileOrDirectory)) {
            try BoundedFileReader.read(path: folder.file("missing"), limit: 10)
        }
        #expect(throws: BoundedFileReader.Failure.system(.isDirectory)) {
            try BoundedFileReader.read(path: folder.path, limit: 10)
        }
        // Opened exactly as given: the trailing slash is kept, so this is not the file.
        #expect(throws: BoundedFileReader.Failure.system(.notDirectory)) {
            try BoundedFileReader.read(path: file + "/", limit: 10)
        }
    }
}
