import OfflineRender
import Platform
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM during a render, taken on a thread of their own
/// (``SignalWatcher``).
///
/// The first signal is only recorded, and renders poll ``received`` (between blocks, and
/// while they wait for a stalled stream), remove their temporary files and stop. A second
/// signal ends the program at once, for a render stuck where it cannot look (a pipe that never
/// delivers its header); the thread removes the temporary files of renders under way first (``UnfinishedFiles``). So does the
/// first, while renders only wait for a stream's header.
package enum InterruptSignal {
    /// The signal number received, or 0.
    package static let received = Atomic<Int32>(0)
    /// The thread that takes the signals, once installed (for the program's life).
    private static let watcher = Mutex<SignalWatcher?>(nil)

    package static func install() {
        UnfinishedFiles.prepare()
        watcher.withLock { watcher in
            guard watcher == nil else { return }
            do {
                watcher = try SignalWatcher([Signals.interrupt, Signals.terminate], name: "interrupt") { signal in
                    let first = InterruptSignal.received.exchange(signal, ordering: .relaxed) == 0
                    if first && !UnfinishedFiles.onlyWaitingForInput { return }  // the renders stop and clean up
                    // A second signal, or one while renders wait for a stream's header (where
                    // they cannot look): nothing is half-written but the files registered, so
                    // they go and the program ends now.
                    UnfinishedFiles.removeAll()
                    if first {
                        LineWriter.standardError.line("detent: interrupted while waiting for input; nothing was written")
                    }
                    ThisProcess.exitNow(128 + signal)
                }
            } catch {
                Console.warning("cannot watch for Ctrl-C (\(error)); an interrupted render may leave a temporary file")
            }
        }
    }

    package static var isSet: Bool { received.load(ordering: .relaxed) != 0 }
}
