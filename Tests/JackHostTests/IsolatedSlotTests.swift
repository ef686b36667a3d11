import TestSupport
import AudioEngine
import Foundation
import Isolation
import Parameters
import LV2
import Testing

extension JackTests {
    /// Plug-ins in processes of their own, live on a private jackd: what comes out equals the
    /// plug-in run in process, sample for sample.
    @Suite struct IsolatedSlotTests {
        static func launcher() throws -> SlotLauncher { SlotLauncher(program: try BuiltProducts.detent) }

        @Test(arguments: [
            "http://drobilla.net/plugins/mda/Overdrive",        // stereo, direct
            "http://plugin.org.uk/swh-plugins/buttlow_iir",     // mono, one instance per channel
            "http://lsp-plug.in/plugins/lv2/compressor_stereo", // a worker, meters
        ])
        func anIsolatedPlugInPlaysAsInProcess(uri: String) throws {
            let plugin = try LivePluginTests.processor(uri)
            let f = try LivePluginTests.expectLiveEqualsOffline(plugin.isolated(try Self.launcher()), reference: plugin)
            #expect(f.host.status().outputs.map(\.id) == plugin.outputs.map(\.id))
        }
    }
}
