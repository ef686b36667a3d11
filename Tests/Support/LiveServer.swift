import Foundation

/// A private server for `detent live` run as a program: jackd2's dummy driver or a headless
/// PipeWire, so the same test runs on both. Everything a test needs goes through programs
/// (detent itself, JACK's `jack_lsp`), each given the server's environment: PipeWire's libjack
/// is chosen when a program starts, so the test process never joins the server itself.
public protocol LiveServer: AnyObject, Sendable {
    /// What detent calls the server in its messages (`detent-test-…`, or `default`).
    var serverName: String { get }
    /// The environment a client of this server runs with.
    var clientEnvironment: [String: String] { get }
    /// The arguments that point `detent live` at this server.
    var liveArguments: [String] { get }
    func start() throws
    func stop()
    func kill(signal: Int32)
    /// The ports whose names match `pattern` (a regular expression), as `jack_lsp` lists them.
    func ports(matching pattern: String) -> [String]
}

/// The servers the live tests run on: jackd2 always, PipeWire where its daemon can start.
public enum LiveServerKind: String, Sendable, CaseIterable {
    case jackd2, pipewire

    public static var available: [LiveServerKind] { PipeWireServer.canStart ? [.jackd2, .pipewire] : [.jackd2] }

    public func start() throws -> any LiveServer {
        switch self {
        case .jackd2: try JackServer()
        case .pipewire: try PipeWireServer()
        }
    }
}

extension JackServer: LiveServer {
    public var serverName: String { name }
    public var clientEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["JACK_DEFAULT_SERVER"] = name
        environment["JACK_NO_START_SERVER"] = "1"
        return environment
    }
    public var liveArguments: [String] { ["--server", name] }
    public func kill(signal: Int32) { kill(signal: signal, reclaim: true) }
    public func ports(matching pattern: String) -> [String] {
        let listed = try? ChildProcess.run("/usr/bin/jack_lsp", [], environment: clientEnvironment)
        return (listed?.stdoutText ?? "").split(separator: "\n").map(String.init)
            .filter { $0.range(of: pattern, options: .regularExpression) != nil }
    }
}

extension PipeWireServer: LiveServer {
    public var serverName: String { "default" }
    public var liveArguments: [String] { [] }
}
