import Platform
import TextFormats

/// Why a plug-in could not be found or made ready, in any format. Each message is one line.
public enum PluginError: ExitStatusError, Equatable, Sendable {
    /// No installed plug-in has that identifier or name; the closest names follow.
    case unknown(String, closest: [String])
    /// More than one plug-in matches the name.
    case ambiguous(String, candidates: [String])
    /// The plug-in is installed but Detent cannot host it.
    case notHostable(name: String, reason: String)
    /// Its library refused to make an instance.
    case instantiationFailed(name: String)
    /// Its library cannot be loaded (a broken installation: a missing library or symbol).
    case libraryFailed(name: String, reason: String)
    /// lilv, which Detent opens when it first hosts a plug-in, cannot be loaded.
    case hostLibraryMissing(reason: String)
    /// Its ports cannot be connected to this many channels.
    case channels(name: String, inputs: Int, channels: Int)
    /// Its parameter table could not be built (two ports share a symbol, say).
    case table(name: String, reason: String)
    /// The processors cannot be joined into a chain as given (a repeated slot name, say).
    case chain(reason: String)
    /// A chain file cannot be read or names no chain.
    case chainFile(path: String, reason: String)
    /// Its state could not be saved (a folder that cannot be written, say).
    case stateNotSaved(name: String, reason: String)

    public var description: String {
        switch self {
        case .unknown(let text, let closest):
            "no installed plug-in is called '\(TerminalText.printable(text, limit: 200))'"
                + (closest.isEmpty ? "; `detent plugins` lists them" : " (closest: \(closest.joined(separator: ", ")))")
        case .ambiguous(let text, let candidates):
            "'\(TerminalText.printable(text, limit: 200))' matches \(candidates.count) plug-ins; give a full name or an identifier (\(candidates.prefix(6).joined(separator: ", "))\(candidates.count > 6 ? ", …" : ""))"
        case .notHostable(let name, let reason):
            "\(name) cannot be hosted: it \(reason)"
        case .instantiationFailed(let name):
            "\(name) failed to start (its library refused to make an instance)"
        case .libraryFailed(let name, let reason):
            "\(name) is installed but its library cannot be loaded: \(reason)"
        case .hostLibraryMissing(let reason):
            "LV2 hosting needs lilv, which cannot be loaded (\(reason)); install liblilv-0-0"
        case .channels(let name, let inputs, let channels):
            "\(name) has \(inputs) audio \(inputs == 1 ? "input" : "inputs") and the audio has \(channels) \(channels == 1 ? "channel" : "channels"); "
                + "Detent connects equal counts, or runs a mono plug-in once per channel"
        case .table(let name, let reason):
            "\(name): \(reason)"
        case .chain(let reason):
            reason
        case .chainFile(let path, let reason):
            "\(path): \(reason)"
        case .stateNotSaved(let name, let reason):
            "\(name)'s state cannot be saved: \(reason)"
        }
    }

    /// The exit status: a name that matches nothing (or too much) is a usage error (64); a
    /// plug-in that cannot run here is bad data (65).
    public var exitCode: Int32 {
        switch self {
        case .unknown, .ambiguous, .chain: 64
        case .notHostable, .instantiationFailed, .libraryFailed, .channels, .table, .chainFile: 65
        case .hostLibraryMissing: 69
        case .stateNotSaved: 73
        }
    }
}
