import Synchronization

/// A value computed once, on first use, from any thread.
package final class Lazy<Value: Sendable>: @unchecked Sendable {
    private let make: @Sendable () -> Value
    private let state = Mutex<Value?>(nil)

    package init(_ make: @escaping @Sendable () -> Value) { self.make = make }

    package var value: Value {
        state.withLock { stored in
            if let stored { return stored }
            let made = make()
            stored = made
            return made
        }
    }
}
