import Glibc
import Parameters
import PluginFormats
import Platform
import Presets
import RenderJobs
import Rig

/// What a call of the C interface answers besides its value: a status a caller turns into its
/// own kind of error, and the one line that says what went wrong — the line the command line
/// would print for the same mistake.
enum CallStatus: Int32 {
    case ok = 0
    /// Anything else Detent refuses (a preset that cannot be read, a plug-in that fails).
    case failed = 1
    /// A value that is wrong: unparseable, out of a parameter's words, a wrong channel count.
    case badValue = 2
    /// A parameter id the chain does not have.
    case unknownParameter = 3
    /// The chain is being used by another thread.
    case busy = 4
    /// No installed plug-in answers to the reference, or several do.
    case pluginNotFound = 5
    /// A plug-in in a process of its own crashed, aborted or hung (an isolated chain's).
    case pluginCrashed = 6
    /// The call was interrupted from another thread (``EmbeddedChain/interrupt()``).
    case interrupted = 7
}

/// An error of the C interface: its status and line.
struct CallFailure: Error {
    let status: CallStatus
    let line: String

    init(_ status: CallStatus, _ line: String) {
        self.status = status
        self.line = line
    }

    /// The status and line of any error Detent throws.
    init(_ error: any Error) {
        switch error {
        case let error as CallFailure: self = error
        case let error as PluginError:
            switch error {
            case .unknown, .ambiguous: self.init(.pluginNotFound, error.description)
            case .chain: self.init(.badValue, error.description)
            default: self.init(.failed, error.description)
            }
        case let error as ParameterError:
            if case .unknownID = error { self.init(.unknownParameter, error.description) } else { self.init(.badValue, error.description) }
        case let error as UsageError: self.init(.badValue, error.description)
        case let error as any ExitStatusError: self.init(error.exitCode == 64 ? .badValue : .failed, error.description)
        default: self.init(.failed, String(describing: error))
        }
    }
}

/// Runs `body`, writing a failure's line to `error` (a string the caller frees with
/// `detent_free`) and returning its status.
func answer(_ message: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ body: () throws -> Void) -> Int32 {
    do {
        try body()
        return CallStatus.ok.rawValue
    } catch {
        let failure = CallFailure(error)
        message?.pointee = strdup(failure.line)
        return failure.status.rawValue
    }
}

/// A string handed to the caller, who frees it with `detent_free`.
func handed(_ text: String) -> UnsafeMutablePointer<CChar>? { strdup(text) }

/// Frees a string the interface handed out.
@_cdecl("detent_free")
public func detent_free(_ text: UnsafeMutablePointer<CChar>?) { free(text) }
