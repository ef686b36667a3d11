import CLadspa
import AudioEngine
import Foundation
@testable import Ladspa
import Parameters
import PluginFormats
import Testing
import TestSupport

/// Discovery never crashes on what it finds: a file that is not a library, a library without
/// the entry point, and descriptors that are malformed or refuse to instantiate are each one
/// "not hostable" line; and DSSI's MIDI arrives as ALSA sequencer events at their frames.
@Suite("LADSPA discovery")
struct LadspaDiscoveryTests {
    /// A LADSPA library with three descriptors: a port both input and output, no label, and a
    /// well-formed gain whose `instantiate` refuses.
    static let source = #"""
    #include <ladspa.h>
    #include <stddef.h>
    static const LADSPA_PortDescriptor both[] = { LADSPA_PORT_INPUT | LADSPA_PORT_OUTPUT | LADSPA_PORT_AUDIO };
    static const LADSPA_PortDescriptor good[] = { LADSPA_PORT_INPUT | LADSPA_PORT_AUDIO, LADSPA_PORT_OUTPUT | LADSPA_PORT_AUDIO };
    static const char *names[] = { "In", "Out" };
    static const LADSPA_PortRangeHint hints[] = { { 0, 0, 0 }, { 0, 0, 0 } };
    static LADSPA_Handle refuse(const LADSPA_Descriptor *d, unsigned long rate) { return NULL; }
    static void connect(LADSPA_Handle h, unsigned long p, LADSPA_Data *d) {}
    static void run(LADSPA_Handle h, unsigned long n) {}
    static const LADSPA_Descriptor descriptors[] = {
        { 9001, "both", 0, "Both ways", "", "", 1, both, names, hints, NULL, refuse, connect, NULL, run, NULL, NULL, NULL, NULL },
        { 9002, NULL, 0, "No label", "", "", 2, good, names, hints, NULL, refuse, connect, NULL, run, NULL, NULL, NULL, NULL },
        { 9003, "refuses", 0, "Refuses", "", "", 2, good, names, hints, NULL, refuse, connect, NULL, run, NULL, NULL, NULL, NULL },
    };
    const LADSPA_Descriptor *ladspa_descriptor(unsigned long i) { return i < 3 ? &descriptors[i] : NULL; }
    """#

    @Test("a broken file, a library without ladspa_descriptor and malformed descriptors are not hostable, with the reason")
    func brokenLibraries() throws {
        let folder = TemporaryFolder()
        folder.write("broken.c", text: Self.source)
        let built = try ChildProcess.run("/usr/bin/cc", ["-shared", "-fPIC", "-o", folder.file("broken.so"), folder.file("broken.c")])
        try #require(built.status.exited == 0, "cc: \(built.stderrText)")
        folder.write("text.so", text: "not a library\n")

        let text = LadspaDiscovery.library(folder.file("text.so"), flavor: .ladspa)
        #expect(text.count == 1 && text[0].unhostableReason?.hasPrefix("cannot be loaded: ") == true)
        let math = LadspaDiscovery.library("/usr/lib/x86_64-linux-gnu/libm.so.6", flavor: .ladspa)
        #expect(math.count == 1 && math[0].unhostableReason == "is not a LADSPA library (no ladspa_descriptor)")

        let plugins = LadspaDiscovery.library(folder.file("broken.so"), flavor: .ladspa)
        try #require(plugins.count == 3)
        #expect(plugins[0].unhostableReason?.contains("port 0 is not one of input/output") == true)
        #expect(plugins[1].unhostableReason?.contains("no label") == true)
        #expect(plugins[2].isHostable)
        #expect(throws: PluginError.notHostable(name: "Both ways", reason: plugins[0].unhostableReason!)) {
            try Processor.ladspa(plugins[0])
        }
        // Hostable as described, but its instantiate refuses: an error at prepare, not a crash.
        let refuses = try Processor.ladspa(plugins[2])
        let engine = Engine(processor: refuses)
        #expect(throws: PluginError.instantiationFailed(name: "Refuses")) {
            try engine.prepare(sampleRate: 48_000, maxFrames: 256, channels: 1)
        }
        // And a reference by file and label finds it outside the search path.
        #expect(try LadspaCatalog.find(folder.file("broken.so") + ":refuses", flavor: .ladspa)?.uniqueID == 9003)
    }

    @Test("MIDI messages become ALSA sequencer events at their frames; program changes and bank selects are left out")
    func dssiEvents() {
        // An atom sequence: [atom header][body: unit, pad][events: frames (8), size, type, data padded to 8].
        var bytes: [UInt8] = []
        func le32(_ v: UInt32) { bytes += withUnsafeBytes(of: v.littleEndian, Array.init) }
        func event(_ frame: Int64, _ midi: [UInt8]) {
            bytes += withUnsafeBytes(of: frame.littleEndian, Array.init)
            le32(UInt32(midi.count)); le32(1)
            bytes += midi + [UInt8](repeating: 0, count: (8 - midi.count % 8) % 8)
        }
        le32(0); le32(2); le32(0); le32(0)
        event(0, [0x90, 60, 100])
        event(5, [0x91, 62, 0])          // velocity 0: a note-off
        event(7, [0xC0, 3])              // a program change: left out
        event(9, [0xB0, 0, 1])           // bank select: left out
        event(11, [0xB2, 7, 90])
        event(13, [0xE0, 0x00, 0x40])    // pitch bend centre: 0
        let bodySize = UInt32(bytes.count - 8)
        bytes.replaceSubrange(0..<4, with: withUnsafeBytes(of: bodySize.littleEndian, Array.init))
        var events = [snd_seq_event_t](repeating: snd_seq_event_t(), count: 8)
        var dropped: UInt32 = 0
        let count = bytes.withUnsafeBytes { raw in
            events.withUnsafeMutableBufferPointer { out in
                detent_dssi_events(raw.baseAddress!.assumingMemoryBound(to: LV2_Atom_Sequence.self), out.baseAddress!, 8, &dropped)
            }
        }
        #expect(count == 4 && dropped == 0)
        #expect(events[0].type == UInt8(SND_SEQ_EVENT_NOTEON.rawValue) && events[0].time.tick == 0)
        #expect(events[0].data.note.note == 60 && events[0].data.note.velocity == 100)
        #expect(events[1].type == UInt8(SND_SEQ_EVENT_NOTEOFF.rawValue) && events[1].time.tick == 5 && events[1].data.note.channel == 1)
        #expect(events[2].type == UInt8(SND_SEQ_EVENT_CONTROLLER.rawValue) && events[2].time.tick == 11)
        #expect(events[2].data.control.param == 7 && events[2].data.control.value == 90 && events[2].data.control.channel == 2)
        #expect(events[3].type == UInt8(SND_SEQ_EVENT_PITCHBEND.rawValue) && events[3].data.control.value == 0)
    }

    @Test("DSSI synths are found with their programs")
    func dssiSynths() throws {
        let synths = LadspaCatalog.installed(.dssi)
        let hexter = try #require(synths.first { $0.label == "hexter" })
        #expect(hexter.isSynth && hexter.isHostable && hexter.programs.count >= 32)
        let processor = try Processor.ladspa(hexter)
        #expect(processor.acceptsMIDI && processor.isSource)
        #expect(processor.table.find("program") != nil)
    }
}
