import RenderJobs
import Control
import ArgumentParser
import Live
import Platform
import OSC
import WebBridge
import Rig

/// `--http PORT`, `--http-bind ADDRESS` and `--http-token TOKEN`: the browser panel, for
/// `detent live` and `detent panel` alike (docs/web.md).
struct WebOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Serve the browser panel and OSCQuery on this TCP port, 0 for any free one (docs/web.md).", valueName: "port"))
    var http: Int?

    @Option(help: ArgumentHelp("The address the browser panel listens on (default 127.0.0.1: this machine only; "
                               + "any other needs a token).", valueName: "address"))
    var httpBind: String?

    @Option(help: ArgumentHelp("The token every request to the browser panel must carry (default: none on 127.0.0.1, "
                               + "else a new one each start, printed in the start-up URL).", valueName: "token"))
    var httpToken: String?

    func validate() throws {
        if let problem = try settings?.problem { throw ValidationError(problem) }
    }

    /// The settings when `--http` is given; nil otherwise. `--http-bind` and `--http-token`
    /// alone are a usage error.
    var settings: WebSettings? {
        get throws(ValidationError) {
            guard let http else {
                if httpBind != nil || httpToken != nil { throw ValidationError("--http-bind and --http-token need --http PORT") }
                return nil
            }
            let bind = httpBind ?? "127.0.0.1"
            if !OSCServer.isAddress(bind) { throw ValidationError("--http-bind '\(bind)': not an IP address (127.0.0.1, 0.0.0.0, ::1, …)") }
            return WebSettings(port: http, bind: bind, token: httpToken)
        }
    }

    /// The server when `--http` is given (the program `detent-web`, see ``WebPanelProcess``),
    /// its URL said on standard error; a port that cannot be had is one line and status 1,
    /// a missing `detent-web` one line and status 69.
    func start(host: any WebPanelHost, changes: ChangeFeed<HostChanges>, title: String, oscPort: Int?, oscAddress: String?,
               log: @escaping @Sendable (String) -> Void) throws -> WebPanelProcess? {
        guard let settings = try settings else { return nil }
        guard let program = WebPanelProcess.programPath() else {
            throw CommandFailure("--http: the web panel's server, \(WebBridge.program), is neither beside detent nor on PATH",
                                 exitCode: 69)
        }
        do {
            let server = try WebPanelProcess(program: program, start: WebBridge.Start(
                settings: settings, title: title, oscPort: oscPort, oscAddress: oscAddress), host: host, changes: changes, log: log)
            LineWriter.standardError.line("detent: web panel at \(server.url)")
            return server
        } catch {
            throw CommandFailure(error.description, exitCode: 1)
        }
    }
}
