import ArgumentParser
import Isolation
import Platform
import RenderJobs

/// `detent slot REQUEST`: serves one isolated plug-in slot for a `detent live --isolate` (or
/// any engine that isolates its plug-ins), over the shared memory on its descriptor 3. Not for
/// people: the host starts it and talks to it (``IsolatedSlot``); it is hidden from help.
struct SlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slot", abstract: "Serves one isolated plug-in slot (started by detent itself).", shouldDisplay: false)

    @Argument(help: .hidden)
    var request: String

    func run() throws {
        ThisProcess.exitNow(SlotService.serve(request: request))
    }
}
