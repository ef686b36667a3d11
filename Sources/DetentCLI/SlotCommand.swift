import ArgumentParser
import Isolation
import Platform
import RenderJobs

/// `detent slot SANDBOX`: serves a sandbox of isolated plug-in slots for a `detent live
/// --isolate` (or any engine that isolates its plug-ins): the slots its host adds over the
/// control socket on descriptor 4, each with its shared memory. Not for people: the host
/// starts it and talks to it (``IsolatedSlot``); it is hidden from help.
struct SlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slot", abstract: "Serves a sandbox of isolated plug-in slots (started by detent itself).", shouldDisplay: false)

    @Argument(help: .hidden)
    var request: String

    func run() throws {
        ThisProcess.exitNow(SlotService.serve(request: request))
    }
}
