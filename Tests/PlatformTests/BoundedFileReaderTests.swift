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

    @Test("a failure reads as a sentence, not as the enum's case")
    func descriptions() {
        #expect(BoundedFileReader.Failure.tooLarge(limit: 1 << 20).description == "larger than 1 MB")
        #expect(BoundedFileReader.Failure.tooLarge(limit: 64 << 10).description == "larger than 64 KB")
        #expect(BoundedFileReader.Failure.tooLarge(limit: 1_000).description == "larger than 1000 bytes")
        #expect(BoundedFileReader.Failure.system(.isDirectory).description == "Is a directory")
        #expect(BoundedFileReader.RegularFileFailure.failed(.tooLarge(limit: 1 << 20)).description == "cannot be read (larger than 1 MB)")
    }

    @Test("a file that must be regular: a FIFO with no writer, a device or a folder is refused at once, a file read whole")
    func regularFiles() throws {
        let folder = TemporaryFolder()
        let fifo = folder.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: BoundedFileReader.RegularFileFailure.notRegular(.pipe)) { try BoundedFileReader.readRegularFile(path: fifo, limit: 10) }
        #expect(throws: BoundedFileReader.RegularFileFailure.notRegular(.characterDevice)) {
            try BoundedFileReader.readRegularFile(path: "/dev/zero", limit: 10)
        }
        #expect(throws: BoundedFileReader.RegularFileFailure.notRegular(.folder)) { try BoundedFileReader.readRegularFile(path: folder.path, limit: 10) }
        #expect(throws: BoundedFileReader.RegularFileFailure.failed(.system(.noSuchFileOrDirectory))) {
            try BoundedFileReader.readRegularFile(path: folder.file("missing"), limit: 10)
        }
        #expect(try BoundedFileReader.readRegularFile(path: folder.write("file", [1, 2, 3]), limit: 10) == [1, 2, 3])
        #expect(BoundedFileReader.RegularFileFailure.notRegular(.pipe).description == "is a FIFO, not a regular file")
    }
}
