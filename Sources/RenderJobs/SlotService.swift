import Isolation
import Platform
import Rig

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
        let status = SlotServer.serve(priority: sandbox.priority) { request in
            var processor = try ProcessorReference.processor(request.identifier)
            if !request.files.isEmpty { processor = try processor.settingFiles(request.files) }
            return processor.settingState(request.state)
        }
        ThisProcess.flushOutput()
        return status
    }
}
