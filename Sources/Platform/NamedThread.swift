import CPlatform
import Glibc
import SystemPackage

/// A POSIX thread running one closure, under a name `top -H`, `ps -L`, debuggers and
/// `/proc/self/task/*/comm` show (at most 15 bytes are kept, the kernel's limit).
///
/// The package's threads block on each other or on libraries (a render's reader and writer,
/// the live host's supervisor, a JACK close that may hang), which a pool of fixed width could
/// turn into a deadlock; so each gets a thread of its own, made here and nowhere else.
package struct NamedThread: Sendable {
    private let id: pthread_t

    /// Starts `body` on a new, joinable thread called `name`.
    ///
    /// - Throws: the system's reason when it has no thread to give (`EAGAIN`).
    package init(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemCallError) {
        id = try Self.start(name: name, detached: false, body)
    }

    /// Starts `body` on a new thread called `name` that nobody joins: its resources go back
    /// to the system when `body` returns.
    package static func detach(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemCallError) {
        _ = try start(name: name, detached: true, body)
    }

    /// Waits for the closure to return. Call once, and never from the thread itself.
    package func join() {
        pthread_join(id, nil)
    }

    /// True when called on this thread (which must not join itself).
    package var isCurrent: Bool { pthread_equal(id, pthread_self()) != 0 }

    private static func start(
        name: String, detached: Bool, _ body: @escaping @Sendable () -> Void
    ) throws(SystemCallError) -> pthread_t {
        final class Start {
            let name: String
            let body: @Sendable () -> Void
            init(_ name: String, _ body: @escaping @Sendable () -> Void) {
                self.name = name
                self.body = body
            }
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if detached { pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) }
        var id = pthread_t()
        let context = Unmanaged.passRetained(Start(name, body)).toOpaque()
        let created = pthread_create(&id, &attributes, { context in
            let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
            // Named from inside, before the body runs: the name is in place for all of it.
            _ = detent_name_current_thread(start.name)
            start.body()
            return nil
        }, context)
        guard created == 0 else {
            Unmanaged<Start>.fromOpaque(context).release()
            throw SystemCallError("pthread_create", Errno(rawValue: created))
        }
        return id
    }
}
