import Isolation
import Platform

/// Serves one isolated slot from its request (`SlotRequest`'s JSON): the plug-in the request
/// names, with its files and state, over the shared memory on descriptor 3, until the host
/// lets it go. The one body of `detent slot` and of Python's `detent._slot` (through
/// `detent_serve_slot`), so that a slot is served alike whichever program the host started.
package enum SlotService {
    /// The exit status the serving process ends with: the server's, 1 when the plug-in cannot
    /// be made, 2 when the request is not one this build reads. A problem is one line on
    /// standard output (which the host reads) starting `error:`.
    package static func serve(request json: String) -> Int32 {
        guard let request = SlotRequest(json: json) else {
            print("error: detent slot: the request is not one this detent reads")
            ThisProcess.flushOutput()
            return 2
        }
        do {
            var processor = try ProcessorReference.processor(request.identifier)
            if !request.files.isEmpty { processor = try processor.settingFiles(request.files) }
            processor = processor.settingState(request.state)
            let status = SlotServer.serve(processor, format: request.format, priority: request.priority)
            ThisProcess.flushOutput()
            return status
        } catch {
            print("error: \(error)")
            ThisProcess.flushOutput()
            return 1
        }
    }
}
