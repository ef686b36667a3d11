/// Why the live host could not start. Each message is one line that names the problem and,
/// where there is one, the fix.
package enum LiveHostError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No JACK server answered (`server` is the name asked for, nil for the default).
    case noServer(server: String?)
    /// `--exact-name` was given and a client of that name exists.
    case nameTaken(String)
    /// The server refused the client for another reason (JACK's status bits).
    case openFailed(name: String, status: UInt32)
    case portRegistration(String)
    case activationFailed(String)
    case invalidChannels(Int)
    case invalidSmoothing(Double)
    case invalidPattern(option: String, pattern: String, reason: String)
    /// The processor could not be made ready for the server's format.
    case processorFailed(String)
    /// libjack cannot be loaded (the loader's reason).
    case libraryMissing(String)
    /// libjack is still closing a client whose server died: a new client would wait for it.
    case libraryBusy

    package var description: String {
        switch self {
        case .noServer(let server?):
            "no JACK server named '\(server)' is running; start it with `jackd -n \(server) -d alsa` "
                + "(or `-d dummy` without a sound card)"
        case .noServer(nil):
            "no JACK server is running; start one with `jackd -d alsa` (or `jackd -d dummy` without "
                + "a sound card), or run Detent under PipeWire with `pw-jack detent live`"
        case .nameTaken(let name):
            "the JACK client name '\(name)' is already taken; choose another --name, or drop "
                + "--exact-name to let JACK add a suffix"
        case .openFailed(let name, let status):
            "JACK refused the client '\(name)' (status 0x\(String(status, radix: 16)))"
        case .portRegistration(let port):
            "could not register the JACK port '\(port)'"
        case .activationFailed(let name):
            "could not activate the JACK client '\(name)'"
        case .invalidChannels(let n):
            "invalid channel count \(n): expected \(LiveHostOptions.channelRange.lowerBound) … "
                + "\(LiveHostOptions.channelRange.upperBound)"
        case .invalidSmoothing(let ms):
            "invalid smoothing time \(ms) ms: expected 0 … \(LiveHostOptions.maximumSmoothingMilliseconds) ms"
        case .invalidPattern(let option, let pattern, let reason):
            "invalid \(option) pattern '\(pattern)': \(reason)"
        case .processorFailed(let reason):
            "the processor cannot start: \(reason)"
        case .libraryMissing(let reason):
            "JACK's library cannot be loaded (\(reason)); install jackd2, or PipeWire's pipewire-jack"
        case .libraryBusy:
            "the JACK library has not finished closing the lost client; trying again later"
        }
    }
}
