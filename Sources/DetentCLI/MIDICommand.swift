import RenderJobs
import ArgumentParser
import Control
import Dispatch
import JackHost
import Platform
import Synchronization
import Rig

/// `detent midi`: help with MIDI controllers.
struct MIDICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "midi",
        abstract: "Help with MIDI controllers.",
        subcommands: [MIDIMonitorCommand.self])
}

/// `detent midi monitor`: what a controller sends, one message per line, in the terms a
/// mapping uses (channel, CC number, NRPN number), until Ctrl-C.
struct MIDIMonitorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Show the MIDI messages that reach a JACK MIDI input, decoded, one per line, until Ctrl-C.",
        discussion: """
            Opens a JACK client with a port midi_in and prints each message that arrives: \
            notes, control changes (with NRPN and RPN selections and their 14-bit values), \
            program changes, pitch bend, pressure. Connect a controller with --connect, or \
            with any patchbay.
            """)

    @Option(help: "The JACK server to join (default: $JACK_DEFAULT_SERVER, else 'default').")
    var server: String?

    @Option(help: "The JACK client name.")
    var name = "detent-monitor"

    @Option(help: ArgumentHelp("Connect midi_in from the MIDI ports matching a regular expression.", valueName: "regex"))
    var connect: String?

    func run() throws {
        let monitor: MIDIMonitor
        do {
            monitor = try MIDIMonitor(name: name, server: server, connect: connect)
        } catch {
            if case .invalidPattern = error { throw CommandFailure(error.description, exitCode: 64) }
            throw CommandFailure(error.description, exitCode: 1)
        }
        defer { monitor.close() }
        LineWriter.standardError.line("detent: listening on '\(monitor.name):midi_in'; Ctrl-C stops")
        let stop = Semaphore(0)
        let signals = try LiveCommand.stopOnSignals { stop.signal() }
        defer { signals.stop() }
        var text = MIDIMessageText()
        var running = true
        while running {
            running = !stop.wait(timeout: .milliseconds(20))
            let (messages, lost) = monitor.take()
            for message in messages {
                print(message.bytes.first == 0xF0 ? "system exclusive, \(message.size) bytes" : text.describe(message.bytes))
            }
            if lost > 0 { LineWriter.standardError.line("detent: warning: \(lost) messages came faster than they could be shown") }
            ThisProcess.flushOutput()
        }
    }
}
