import AudioEngine
import Isolation
import Platform
import PluginFormats
import Rig
import Synchronization

/// Serves an isolated slot's sandbox: the plug-ins its host adds, each found from its request
/// (`SlotRequest`) with its files and state, over shared memory, until the host lets it go.
/// The one body of `detent slot` and of Python's `detent._slot` (through `detent_serve_slot`),
/// so that a slot is served alike whichever program the host started.
package enum SlotService {
    /// The exit status the serving process ends with: the server's, 2 when the sandbox's
    /// description is not one this build reads (said on standard error).
    package static func serve(request json: String) -> Int32 {
        guard let sandbox = SandboxRequest(json: json) else {
            Console.error("slot: the request is not one this detent reads")
            return 2
        }
        // A plug-in is looked up in the catalogue once per sandbox: Python's whole-signal calls
        // make their plug-ins anew in the same sandbox at every call, and reading the index
        // each time cost more than the call's audio.
        let found = Mutex<[String: Processor]>([:])
        let status = SlotServer.serve(priority: sandbox.priority) { request in
            var processor: Processor
            if let known = found.withLock({ $0[request.reference] }) {
                processor = known
            } else {
                processor = try ProcessorReference.processor(request.reference)
                // A file that holds another plug-in now is not the one the host runs.
                guard processor.identifier == request.identifier else {
                    throw PluginError.notHostable(name: processor.name, reason: "\(request.reference) no longer holds \(request.identifier)")
                }
                found.withLock { $0[request.reference] = processor }
            }
            if !request.files.isEmpty { processor = try processor.settingFiles(request.files) }
            return processor.settingState(request.state)
        }
        ThisProcess.flushOutput()
        return status
    }
}
