import Platform
import Testing

/// The feed a host tells its surfaces through: publications wake sleepers, coalesce, and
/// reach every subscriber once.
@Suite struct ChangeFeedTests {
    struct Kinds: OptionSet, Sendable {
        let rawValue: UInt32
        static let values = Kinds(rawValue: 1)
        static let chain = Kinds(rawValue: 2)
    }

    @Test("each subscriber hears every publication once, coalesced into one set")
    func coalesces() {
        let feed = ChangeFeed<Kinds>()
        let a = feed.subscribe(), b = feed.subscribe()
        #expect(a.take().isEmpty)
        feed.publish(.values)
        feed.publish(.chain)
        feed.publish(.values)
        #expect(feed.generation == 3)
        #expect(a.next(timeout: nil) == [.values, .chain])
        #expect(a.take().isEmpty)
        #expect(b.take() == [.values, .chain])
    }

    @Test("a sleeping subscriber is woken by a publication from another thread, and an interrupt ends a wait with nothing")
    func wakes() throws {
        let feed = ChangeFeed<Kinds>()
        let subscription = feed.subscribe()
        let publisher = try NamedThread(name: "publisher") { feed.publish(.chain) }
        // Long enough never to be what ends the wait on a loaded machine.
        #expect(subscription.next(timeout: .seconds(60)) == .chain)
        publisher.join()
        subscription.interrupt()
        #expect(subscription.next(timeout: .seconds(60)).isEmpty)
        #expect(subscription.next(timeout: .milliseconds(1)).isEmpty)
    }

    @Test("a subscription that goes stops hearing; a shared semaphore wakes for the feed and for others")
    func sharedWake() {
        let feed = ChangeFeed<Kinds>()
        let attention = Semaphore(0)
        var subscription: ChangeFeed<Kinds>.Subscription? = feed.subscribe(waking: attention)
        feed.publish(.values)
        #expect(attention.tryWait())
        #expect(subscription?.take() == .values)
        subscription = nil
        feed.publish(.values)
        #expect(!attention.tryWait())
    }
}
