import ArgumentParser
import Platform
import RenderJobs

/// `detent words REFERENCE IDENTIFIER`: answers for the words of a plug-in that a host runs
/// in an isolated slot, so that asking them loads the plug-in here and not in the host
/// (``WordsService``). Not for people: the host starts it; it is hidden from help.
struct WordsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "words", abstract: "Answers for an isolated plug-in's own words (started by detent itself).",
        shouldDisplay: false)

    @Argument(help: .hidden)
    var reference: String

    @Argument(help: .hidden)
    var identifier: String

    func run() throws {
        ThisProcess.exitNow(WordsService.serve(reference: reference, identifier: identifier))
    }
}
