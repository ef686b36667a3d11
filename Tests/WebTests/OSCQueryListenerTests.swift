import AudioEngine
import Parameters
import Testing
import WebBridge
@testable import Web

/// OSCQuery's LISTEN without a socket: the commands read, the OSC messages written.
@Suite struct OSCQueryListenerTests {
    @Test func anOSCMessageIsItsAddressTypeTagsAndBigEndianFloat() {
        // "/a" + NUL padded to 4, ",f" + NUL padded to 4, then 1.0 as 0x3F800000.
        #expect(OSCQueryNamespace.message("/a", 1) == [0x2F, 0x61, 0, 0, 0x2C, 0x66, 0, 0, 0x3F, 0x80, 0, 0])
        // An address of four characters takes four more bytes for its NUL.
        #expect(OSCQueryNamespace.message("/abc", -2).count == 8 + 4 + 4)
    }

    @Test func commandsAreReadAndOthersAreNot() {
        #expect(OSCQueryListener.read(#"{"COMMAND":"LISTEN","DATA":"/detent/param/gain"}"#) == .listen("/detent/param/gain"))
        #expect(OSCQueryListener.read(#"{"COMMAND":"IGNORE","DATA":"/detent/param/gain"}"#) == .ignore("/detent/param/gain"))
        #expect(OSCQueryListener.read(#"{"COMMAND":"FLY","DATA":"/"}"#) == nil)
        #expect(OSCQueryListener.read("LISTEN /detent/param/gain") == nil)
    }

    @Test func onlyListenedChangesAreSentWithTheirCurrentValue() {
        let table = LowpassGain.table
        let listener = OSCQueryListener()
        #expect(listener.apply(.listen("/detent/param/gain"), table: table))
        #expect(!listener.apply(.listen("/detent/param/nothing"), table: table))
        listener.markChanged(["gain", "cutoff"])
        let snapshot = WebSnapshot(processor: .lowpassGain, generation: 0, targets: [.gain: -6, .cutoff: 900])
        #expect(listener.take(snapshot) == [.binary(OSCQueryNamespace.message("/detent/param/gain", -6))])
        #expect(listener.take(snapshot).isEmpty)
        #expect(listener.apply(.ignore("/detent/param/gain"), table: table))
        listener.markChanged(["gain"])
        listener.markPathsChanged()
        #expect(listener.take(snapshot) == [.text(#"{"COMMAND":"PATH_CHANGED","DATA":"/detent/param"}"#)])
    }
}
