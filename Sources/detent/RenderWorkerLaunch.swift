import Glibc
import Platform
import Synchronization

/// How a batch's worker processes (``RenderWorker``) start: this program again, with the
/// batch's own command line and `--render-worker`.
///
/// Workers can be started before the batch is planned (``prestart(_:)``), so that their
/// start — a new process, the argument parser, finding the plug-ins — runs beside the
/// batch's own planning rather than after it: on a batch of short files that start is much
/// of what a worker costs.
final class RenderWorkerLaunch: Sendable {
    /// A started worker: its process and the socket to it.
    struct Worker: Sendable {
        let pid: pid_t
        let channel: LineSocket
    }

    private let arguments: [String]
    private let waiting = Mutex<[Worker]>([])

    /// The launch for `arguments` (the command line after the program's name, starting with
    /// the subcommand), or nil when it names none.
    init?(arguments: [String]) {
        guard let render = arguments.firstIndex(of: "render") else { return nil }
        var worker = arguments
        // Right after the subcommand: after a `--`, the flag would be taken for an input.
        worker.insert("--render-worker", at: render + 1)
        self.arguments = worker
    }

    /// Starts `count` workers now, for ``take()`` to hand out; any that cannot start are left
    /// for ``take()`` to try again.
    func prestart(_ count: Int) {
        for _ in 0..<count {
            guard let worker = try? start() else { return }
            waiting.withLock { $0.append(worker) }
        }
    }

    /// A worker started before, or a new one.
    func take() throws(Errno) -> Worker {
        if let worker = waiting.withLock({ $0.popLast() }) { return worker }
        return try start()
    }

    /// Ends the workers never taken: their sockets close, and each exits when it reads the end
    /// (not waited for: one still starting would hold the batch up).
    func dismissWaiting() {
        let unused = waiting.withLock { list in
            defer { list = [] }
            return list
        }
        unused.forEach { $0.channel.close() }
    }

    private func start() throws(Errno) -> Worker {
        let (channel, theirs) = try LineSocket.pair()
        defer { close(theirs) }
        // Swift's crash backtracer off: a plug-in's crash is told in one line, not a report.
        let pid = try Spawn.start("/proc/self/exe", arguments, environment: ["SWIFT_BACKTRACE": "enable=no"],
                                  descriptors: [0, 1, 2, theirs])
        return Worker(pid: pid, channel: channel)
    }
}
