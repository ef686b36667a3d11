import Foundation
import Testing
import TestSupport
@testable import Platform

@Suite("Copying a file over a path")
struct FileCopyTests {
    @Test("a symbolic link is replaced by a copy of its target, whole, and no temporary file is left")
    func linkBecomesCopy() throws {
        let folder = TemporaryFolder()
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: URL(fileURLWithPath: folder.file("target.bin")))
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.bin"), withDestinationPath: folder.file("target.bin"))
        try FileCopy.copy(folder.file("link.bin"), over: folder.file("link.bin"))
        let type = try FileManager.default.attributesOfItem(atPath: folder.file("link.bin"))[.type] as? FileAttributeType
        #expect(type == .typeRegular)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("link.bin"))) == Data(bytes))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["link.bin", "target.bin"])
    }

    @Test("a source that cannot be opened names the call, and the destination stays as it was")
    func missingSource() throws {
        let folder = TemporaryFolder()
        folder.write("kept.txt", text: "old\n")
        #expect(throws: SystemCallError("open", .noSuchFileOrDirectory)) {
            try FileCopy.copy(folder.file("absent"), over: folder.file("kept.txt"))
        }
        #expect(try String(contentsOfFile: folder.file("kept.txt"), encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["kept.txt"])
    }
}
