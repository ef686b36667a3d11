import RenderJobs
import ArgumentParser
import Platform
import TerminalPanel
import Rig

/// Opening the knob panel on this process's terminal and ending the command the way the panel
/// ended: shared by `detent panel` and `detent live`.
enum KnobPanelSession {
    /// The terminal, or one line and status 64 when there is none to draw on.
    static func openTerminal() throws -> TerminalSession {
        do {
            return try TerminalSession(environment: Environment.all)
        } catch {
            throw CommandFailure(error.description, exitCode: 64)
        }
    }

    /// The theme chosen by `--theme`, `DETENT_THEME` or `NO_COLOR`, or one line and status 64
    /// when `DETENT_THEME` names none. Asked before the terminal is taken.
    static func theme(_ chosen: ThemeStyle?) throws -> Theme {
        do {
            return try Theme.forEnvironment(Environment.all, chosen: chosen)
        } catch {
            throw CommandFailure(error.description, exitCode: 64)
        }
    }

    /// Draw with ASCII when asked to, or when the locale has no UTF-8 (`LANG=C`).
    static func ascii(_ asked: Bool) -> Bool {
        asked || !TerminalLocale.isUTF8(Environment.all)
    }

    /// Runs `panel` until it quits. `cleanUp` runs once the terminal is back and before any
    /// exit (to close a JACK client, print held messages). `quitSignals` end the command
    /// normally; any other signal ends it the way that signal would have, terminal restored.
    static func run(_ panel: Panel, on terminal: TerminalSession, theme: Theme, quitSignals: Set<Int32> = [],
                    cleanUp: () throws -> Void = {}) throws {
        let outcome: PanelApp.Outcome
        do {
            outcome = try PanelApp(panel: panel, terminal: terminal, theme: theme).run()
        } catch {
            try cleanUp()
            throw CommandFailure(error.description, exitCode: 74)
        }
        try cleanUp()
        switch outcome {
        case .quit:
            return
        case .signal(let signal) where quitSignals.contains(signal):
            return
        case .terminalGone:
            throw ExitCode(74)
        case .signal(let signal):
            Signals.dieOf(signal)
            throw ExitCode(128 + signal)
        }
    }
}
