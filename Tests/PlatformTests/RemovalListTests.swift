import Foundation
import Testing
import TestSupport
@testable import Platform

@Suite("Paths removed when the program ends at once")
struct RemovalListTests {
    @Test("listed paths are removed, forgotten ones are kept, and the list says when it is empty")
    func removesWhatIsListed() throws {
        let folder = TemporaryFolder()
        for name in ["a.tmp", "b.tmp", "c.tmp"] { folder.write(name, text: name) }
        let list = RemovalList(capacity: 4)
        #expect(list.isEmpty)
        let a = try #require(list.register(folder.file("a.tmp")))
        let b = try #require(list.register(folder.file("b.tmp")))
        _ = try #require(list.register(folder.file("c.tmp")))
        #expect(a != b)
        #expect(!list.isEmpty)
        list.forget(slot: b)
        list.removeAll()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["b.tmp"])
    }

    @Test("a path listed while every slot is taken is not listed; a slot given back is used again")
    func fullList() throws {
        let list = RemovalList(capacity: 2)
        let first = try #require(list.register("/nonexistent/1"))
        _ = try #require(list.register("/nonexistent/2"))
        #expect(list.register("/nonexistent/3") == nil)
        list.forget(slot: first)
        #expect(list.register("/nonexistent/3") == first)
    }
}
