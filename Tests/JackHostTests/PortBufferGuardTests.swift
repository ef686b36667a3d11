import CJack
import Foundation
import Glibc
import Testing
import TestSupport

/// The guarded steps the process callback reads and writes port buffers with (CJack.h): memory
/// unmapped or read-only under a step fails that step, not the program; a fault anywhere else
/// still ends the program by its signal.
@Suite struct PortBufferGuardTests {
    static let page = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Two pages mapped, the first filled with `value`, the second unmapped again: a hole
    /// right after the first, as a port buffer the server took back leaves.
    static func pageBeforeAHole(filledWith value: Float) -> UnsafeMutablePointer<Float> {
        let mapping = mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
        #expect(mapping != MAP_FAILED)
        munmap(mapping + page, page)
        let floats = mapping.bindMemory(to: Float.self, capacity: page / 4)
        floats.initialize(repeating: value, count: page / 4)
        return floats
    }

    @Test func aCopyOfMappedMemoryCopiesIt() {
        detent_port_guard_install()
        let from = (0..<1024).map { Float($0) / 1024 }
        var into = [Float](repeating: -1, count: 1024)
        #expect(detent_guarded_copy(&into, from, 1024) == 0)
        #expect(into == from)
    }

    @Test func aCopyThatRunsIntoUnmappedMemoryFailsAndTheProgramGoesOn() {
        detent_port_guard_install()
        let floats = Self.pageBeforeAHole(filledWith: 0.5)
        defer { munmap(floats, Self.page) }
        let count = Self.page / 4 * 2
        var into = [Float](repeating: 0, count: count)
        #expect(detent_guarded_copy(&into, floats, UInt32(count)) == -1)
        // Again, and from another thread: each step has its own way back.
        #expect(detent_guarded_copy(&into, floats, UInt32(count)) == -1)
        let other = DispatchQueue(label: "other")
        let result = other.sync { () -> Int32 in
            var again = [Float](repeating: 0, count: count)
            return detent_guarded_copy(&again, floats, UInt32(count))
        }
        #expect(result == -1)
        #expect(detent_guarded_copy(&into, floats, UInt32(Self.page / 4)) == 0, "a copy within the mapping works after faults")
    }

    @Test func aCopyIntoReadOnlyMemoryFails() {
        detent_port_guard_install()
        let mapping = mmap(nil, Self.page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
        defer { munmap(mapping, Self.page) }
        let from = [Float](repeating: 1, count: 16)
        #expect(detent_guarded_copy(mapping.assumingMemoryBound(to: Float.self), from, 16) == -1)
        #expect(mapping.load(as: Float.self) == 0)
    }

    /// A MIDI port's messages are read from the buffer `jack_port_get_buffer` gave, and
    /// written into it: both inside the guard, so a buffer taken back under the callback
    /// silences that cycle's MIDI instead of ending the program (these reads and writes were
    /// outside it, and a fault in them was a crash).
    @Test func midiReadFromOrWrittenToUnmappedMemoryFailsAndTheProgramGoesOn() throws {
        #expect(detent_jack_load() == nil, "libjack loads")
        detent_port_guard_install()
        let mapping = mmap(nil, Self.page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
        defer { munmap(mapping, Self.page) }
        var events = [DetentPortMIDIEvent](repeating: DetentPortMIDIEvent(), count: 16)
        var bytes = [UInt8](repeating: 0, count: 256)
        #expect(detent_jack_read_midi_buffer(mapping, &events, 16, &bytes, 256) == -1)
        let note: [UInt8] = [0x90, 60, 100]
        note.withUnsafeBufferPointer { note in
            var out = [DetentPortMIDIEvent(frame: 0, size: 3, bytes: note.baseAddress)]
            #expect(detent_jack_write_midi_buffer(mapping, &out, 1) == -1)
        }
        // And the guard is ready for the next step.
        #expect(detent_jack_read_midi_buffer(mapping, &events, 16, &bytes, 256) == -1)
        #expect(detent_jack_read_midi_buffer(nil, &events, 16, &bytes, 256) == 0, "no buffer: no messages")
    }

    /// The handler is installed by every live client; a segmentation fault that is not a
    /// guarded step's (here one sent to the program) still ends it by that signal. (The Swift
    /// runtime's backtracer, which would take it first, is off: after its backtrace it lets a
    /// sent signal go, and a test waiting for the end would wait for the end of the input.)
    @Test func aLiveDetentStillEndsByASegmentationFaultOutsideTheSteps() throws {
        let server = try JackServer()
        var environment = server.clientEnvironment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let detent = try LiveProgram(server.liveArguments + ["--headless", "--no-midi"], environment: environment)
        try detent.waitForMessage("'detent' on JACK server '\(server.serverName)'")
        #expect(detent.child.signal(SIGSEGV))
        let status = detent.child.wait(seconds: 20)
        #expect(status?.signal == SIGSEGV)
    }
}
