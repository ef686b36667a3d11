import Glibc
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM during a render.
///
/// The handler only records which signal came — about all a signal handler may safely do —
/// and renders poll ``received`` between blocks, remove their temporary files and stop. The
/// handler uninstalls itself when it runs (`SA_RESETHAND`), so a second Ctrl-C ends a render
/// that is stuck (say, reading from a pipe that never delivers) at once.
enum InterruptSignal {
    /// The signal number received, or 0.
    static let received = Atomic<Int32>(0)

    static func install() {
        _ = received.load(ordering: .relaxed)  // initialised before a handler can touch it
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            InterruptSignal.received.store(signal, ordering: .relaxed)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = Int32(SA_RESTART) | Int32(bitPattern: UInt32(SA_RESETHAND))
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
