import Foundation
import Testing
import TestSupport

/// The binary formats' index holds what the format's folders hold: a plug-in named by its path
/// outside them is read on its own and leaves the index as it was.
@Suite("The plug-in index")
struct PluginIndexTests {
    @Test("a CLAP named by its path outside the folders is read, and the index of the installed ones stays whole")
    func aPluginByPathLeavesTheIndex() throws {
        let folder = TemporaryFolder()
        let cache = ["XDG_CACHE_HOME": folder.file("cache")]
        let listed = try Detent.run(["plugins", "--format", "clap"], in: folder.path, extra: cache)
        #expect(listed.status == 0, "\(listed.stderr)")
        let index = folder.file("cache/detent/clap-index")
        let before = try String(contentsOfFile: index, encoding: .utf8)
        #expect(before.contains("/usr/lib/clap/ZamComp.clap"))
        let plugin = try LinkedPlugin.clap.get()
        let params = try Detent.run(["params", "--plugin", plugin], in: folder.path, extra: cache)
        #expect(params.status == 0 && params.stdout.contains("follow"), "\(params.stderr)")
        #expect(try String(contentsOfFile: index, encoding: .utf8) == before, "the index was rewritten")
        let again = try Detent.run(["plugins", "--format", "clap"], in: folder.path, extra: cache)
        #expect(again.stdout == listed.stdout)
    }
}
