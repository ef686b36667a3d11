import Platform
import Synchronization

/// How a batch's worker processes (``RenderWorker``) start.
///
/// Right after the batch is planned, while it is the process's only thread, each batch
/// thread's worker is a copy of the process (``Spawn/copyOfThisProcess(keeping:as:)``) that
/// already holds the plan and the plug-ins found for it: on a batch of short files, starting
/// the program again — a new process, the argument parser, finding the plug-ins — would be
/// much of what a worker costs. A worker that replaces one that crashed is this program
/// started again, with the batch's own command line and `--render-worker`, and plans the
/// batch itself.
package final class RenderWorkerLaunch: Sendable {
    /// A started worker: its process and the socket to it.
    package struct Worker: Sendable {
        package let pid: ProcessID
        package let channel: LineSocket
    }

    private let arguments: [String]
    private let waiting = Mutex<[Worker]>([])

    /// The launch for `arguments` (the command line after the program's name, starting with
    /// the subcommand), or nil when it names none.
    package init?(arguments: [String]) {
        guard let render = arguments.firstIndex(of: "render") else { return nil }
        var worker = arguments
        // Right after the subcommand: after a `--`, the flag would be taken for an input.
        worker.insert("--render-worker", at: render + 1)
        self.arguments = worker
    }

    /// Makes `count` workers as copies of this process, which serve `plan` of `command`, for
    /// ``take()`` to hand out. Call before any other thread starts (none are made otherwise).
    package func copyWorkers(_ count: Int, serving plan: BatchPlan, of command: RenderOptions) {
        for _ in 0..<count {
            guard let (channel, theirs) = try? LineSocket.pair() else { return }
            defer { try? DescriptorIO.close(theirs) }
            guard let pid = try? Spawn.copyOfThisProcess(keeping: theirs, as: RenderWorker.socket) else { return }
            if pid == 0 {
                RenderWorker.serve(command, plan: plan)
                ThisProcess.exitNow(0)
            }
            waiting.withLock { $0.append(Worker(pid: pid, channel: channel)) }
        }
    }

    /// A worker started before, or a new one.
    package func take() throws(SystemCallError) -> Worker {
        if let worker = waiting.withLock({ $0.popLast() }) { return worker }
        return try start()
    }

    /// Ends the workers never taken: their sockets close, and each exits when it reads the end.
    package func dismissWaiting() {
        let unused = waiting.withLock { list in
            defer { list = [] }
            return list
        }
        for worker in unused {
            worker.channel.close()
            _ = Spawn.wait(worker.pid)
        }
    }

    private func start() throws(SystemCallError) -> Worker {
        let (channel, theirs) = try LineSocket.pair()
        defer { try? DescriptorIO.close(theirs) }
        // Swift's crash backtracer off: a plug-in's crash is told in one line, not a report.
        let pid = try Spawn.start("/proc/self/exe", arguments, environment: ["SWIFT_BACKTRACE": "enable=no"],
                                  descriptors: [0, 1, 2, theirs])
        return Worker(pid: pid, channel: channel)
    }
}
