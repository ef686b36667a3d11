import Synchronization

/// What changed, told to whoever listens, who sleeps until then: the way back from a host to
/// its surfaces (OSC, the browser panel, a session manager) without any of them looking on a
/// timer. Each publication bumps a generation and adds its kinds to every subscriber's
/// pending set; a subscriber whose set was empty is woken. A subscriber that is slow only
/// finds more kinds in one set: publications coalesce, never queue.
///
/// ```swift
/// let feed = ChangeFeed<HostChanges>()
/// let changes = feed.subscribe()
/// feed.publish(.values)                        // any thread but the audio thread
/// let what = changes.next(timeout: nil)        // [.values], at once
/// ```
///
/// A rate (send at most every 20 ms) is the subscriber's: it waits with a deadline only while
/// something is held back, and otherwise for ever. Not for the audio thread, which posts a
/// semaphore instead, and a thread of the host's publishes what it brought.
package final class ChangeFeed<Changes: OptionSet & Sendable>: Sendable
where Changes.RawValue: FixedWidthInteger & Sendable {
    private struct Listener {
        var pending: Changes.RawValue
        let wake: Semaphore
    }

    private struct State {
        var generation: UInt64 = 0
        var listeners: [Int: Listener] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// How many publications there have been.
    package var generation: UInt64 { state.withLock { $0.generation } }

    /// Tells every subscriber that `changes` happened.
    package func publish(_ changes: Changes) {
        guard !changes.isEmpty else { return }
        let woken = state.withLock { s -> [Semaphore] in
            s.generation &+= 1
            var woken: [Semaphore] = []
            for (id, var listener) in s.listeners {
                if listener.pending == 0 { woken.append(listener.wake) }
                listener.pending |= changes.rawValue
                s.listeners[id] = listener
            }
            return woken
        }
        for wake in woken { wake.signal() }
    }

    /// A new subscriber, which hears of every publication from now on. `wake` is posted when
    /// its pending set stops being empty: pass one of the caller's to wait for the feed and
    /// other things at once — and then ``Subscription/take()`` after each wake, or no
    /// publication posts it again.
    package func subscribe(waking wake: Semaphore = Semaphore(0)) -> Subscription {
        let id = state.withLock { s -> Int in
            defer { s.nextID += 1 }
            s.listeners[s.nextID] = Listener(pending: 0, wake: wake)
            return s.nextID
        }
        return Subscription(feed: self, id: id, wake: wake)
    }

    fileprivate func take(_ id: Int) -> Changes {
        state.withLock { s -> Changes in
            guard var listener = s.listeners[id] else { return [] }
            defer { listener.pending = 0; s.listeners[id] = listener }
            return Changes(rawValue: listener.pending)
        }
    }

    fileprivate func unsubscribe(_ id: Int) {
        _ = state.withLock { $0.listeners.removeValue(forKey: id) }
    }

    /// One listener's end: what was published since it last looked. Unsubscribes when it goes.
    package final class Subscription: Sendable {
        private let feed: ChangeFeed
        private let id: Int
        private let wake: Semaphore

        fileprivate init(feed: ChangeFeed, id: Int, wake: Semaphore) {
            self.feed = feed
            self.id = id
            self.wake = wake
        }

        deinit { feed.unsubscribe(id) }

        /// What was published since the last look, without waiting (empty: nothing).
        package func take() -> Changes { feed.take(id) }

        /// What was published since the last look, waiting for it at most `timeout` (nil:
        /// until something is, or ``interrupt()``). Empty when the time ran out or it was
        /// interrupted.
        package func next(timeout: Duration?) -> Changes {
            let taken = take()
            if !taken.isEmpty { return taken }
            if let timeout {
                guard timeout > .zero else { return [] }
                _ = wake.wait(timeout: timeout)
            } else {
                wake.wait()
            }
            return take()
        }

        /// Wakes a ``next(timeout:)`` waiting now (or the next one), with nothing to tell.
        package func interrupt() { wake.signal() }
    }
}
