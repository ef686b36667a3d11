import CPlatform
import Platform
import Web

// `detent-web PARENT`: the browser panel's server for `detent live --http` and `detent panel
// --http`, which start it with their end of a socket pair as descriptor 3 and answer its
// questions (``WebBridge``). It is not meant to be run by hand.
//
// It ends with `detent`: the death signal when `detent` ends, and the ends of the socket and of
// the change pipe (descriptor 4), which the next question or wait meets. Interrupts from the terminal are `detent`'s to
// handle; this program follows it down.
let arguments = CommandLine.arguments
guard arguments.count == 2, let parent = Int32(arguments[1]), DescriptorIO.isOpen(WebBridge.descriptor),
      DescriptorIO.isOpen(WebBridge.changesDescriptor) else {
    LineWriter.standardError.line("detent-web: started by 'detent live --http' and 'detent panel --http', not by hand")
    ThisProcess.exit(64)
}
_ = detent_die_with_parent(Signals.terminate, parent)
Signals.ignore([Signals.interrupt, Signals.hangUp, Signals.quit])

let socket = LineSocket(descriptor: WebBridge.descriptor)
guard case .line(let first) = socket.receive(waiting: 30_000), let start = WebBridge.Start(line: first) else {
    LineWriter.standardError.line("detent-web: no settings from detent")
    ThisProcess.exit(1)
}
let host = WebBridgeClient(socket: socket, changes: WakePipe(inheritedReadEnd: WebBridge.changesDescriptor))
let server: WebServer
do {
    server = try WebServer(settings: start.settings, host: host, title: start.title, oscPort: start.oscPort,
                           oscAddress: start.oscAddress, log: { host.log($0) })
} catch {
    host.notify([.init("op", .string("failed")), .init("message", .string(error.description))])
    ThisProcess.exit(1)
}
host.notify([.init("op", .string("ready")), .init("url", .string(server.url))])
// The server's threads do the work; this one only waits for the end.
while true { ThisProcess.waitForSignal() }
