import AudioFile
import Glibc
import Platform
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM during a render.
///
/// The first signal is only recorded — about all a signal handler may safely do — and
/// renders poll ``received`` (between blocks, and while they wait for a stalled stream),
/// remove their temporary files and stop. A second signal ends the program at once, for a
/// render stuck where it cannot look (a pipe that never delivers its header); the handler
/// removes the temporary files of renders under way first (``UnfinishedFiles``). So does the
/// first, while renders only wait for a stream's header.
enum InterruptSignal {
    /// The signal number received, or 0.
    static let received = Atomic<Int32>(0)

    static func install() {
        _ = received.load(ordering: .relaxed)  // initialised before a handler can touch it
        UnfinishedFiles.prepare()
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            let first = InterruptSignal.received.exchange(signal, ordering: .relaxed) == 0
            let waiting = UnfinishedFiles.onlyWaitingForInput
            if first && !waiting { return }  // the renders stop and clean up
            // A second signal, or one while renders wait for a stream's header (where they
            // cannot look): nothing is half-written but the files registered, so they go
            // and the program ends now.
            UnfinishedFiles.removeAll()
            if first {
                let line: StaticString = "detent: interrupted while waiting for input; nothing was written\n"
                _ = write(LineWriter.standardError.fileDescriptor, line.utf8Start, line.utf8CodeUnitCount)
            }
            _exit(128 + signal)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = Int32(SA_RESTART)
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        // A parent may hand these signals down blocked (some launchers and test runners do);
        // unblock them here, before any render thread inherits the mask.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    static var isSet: Bool { received.load(ordering: .relaxed) != 0 }
}
