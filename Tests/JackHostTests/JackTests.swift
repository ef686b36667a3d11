import Testing

/// Every test that talks to a JACK server, one at a time.
///
/// libjack (JACK2) keeps one set of globals per process, tied to one server: clients of
/// one process on two servers at once corrupt each other, and closing several clients of a
/// process after their server died can crash libjack. So these tests run serially, each on
/// its own private server, and close their other clients before they stop or kill one.
/// (`detent live` itself has one client per process.)
@Suite(.serialized) enum JackTests {}
