import Foundation

/// A condition a test waited for that did not come to hold in time.
public struct Timeout: Error, CustomStringConvertible {
    public let what: String
    public init(what: String) { self.what = what }
    public var description: String { "timed out waiting until \(what)" }
}

/// Polls `condition` every few milliseconds until it holds; throws after `timeout` seconds.
/// For states that announce themselves to nothing a test could wait on (a JACK graph, a
/// counter in another thread): a condition polled, never a fixed sleep standing in for one.
public func waitUntil(_ what: String, timeout: Double = 10, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() > deadline {
            // Said at once too: a crash while the test unwinds would otherwise hide it.
            FileHandle.standardError.write(Data("timed out waiting until \(what)\n".utf8))
            throw Timeout(what: what)
        }
        usleep(2_000)
    }
}
