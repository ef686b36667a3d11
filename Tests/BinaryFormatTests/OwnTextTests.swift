import AudioEngine
@testable import BinaryPlugins
import Parameters
import PluginFormats
import Rig
import Testing

/// A plug-in's own words for its values: shown where Detent knows a row only as 0…1, and read
/// where Detent's own parser does not take what was typed (`--set ratio=4:1`).
@Suite("A plug-in's own text for its values")
struct OwnTextTests {
    static func processor(_ reference: String) throws -> Processor {
        try InstalledPlugins.catalogue.find(reference).processor()
    }

    static func row(_ processor: Processor, _ id: String) throws -> ParameterSpec {
        processor.table[try processor.table.index(of: id)]
    }

    /// The number a text begins with.
    static func number(_ text: String) -> Double? {
        Double(text.prefix { "-+.0123456789".contains($0) })
    }

    @Test("a VST2 row Detent knows only as 0…1 shows the plug-in's text, and takes a value in it")
    func vst2Display() throws {
        // LSP's Compressor Mono: its attack time follows a curve of its own, so its row is 0…1.
        let attack = try Self.row(try Self.processor("vst2:1650946937"), "attack_time")
        #expect(attack.range == 0...1 && attack.unit == .none && attack.kind == .continuous)
        let shown = attack.format(attack.defaultValue)
        #expect(shown == "20.0 ms", "the plug-in's text at its default: \(shown)")
        // DPF- and LSP-built VST2 plug-ins read no text themselves: the value whose display
        // shows the number typed is found.
        for typed in ["30 ms", "30ms", "125 ms"] {
            let value = try attack.parse(typed)
            let text = attack.format(value)
            #expect(text.hasSuffix(" ms") && Self.number(text) == Self.number(typed), "\(typed) → \(value) shows \(text)")
        }
        // More digits than the plug-in shows: the value it shows nearest (it shows 3 digits).
        #expect(attack.format(try attack.parse("125.4 ms")) == "125 ms")
        // A bare number is the row's own value; a unit the plug-in does not show, a word, or a
        // time it cannot reach are refused as before.
        #expect(try attack.parse("0.5") == 0.5)
        for refused in ["30 s", "fast", "1e9 ms"] {
            #expect(throws: ParameterError.self, "\(refused)") { try attack.parse(refused) }
        }
        // The refusal shows the plug-in's words by example.
        do {
            _ = try attack.parse("5 s")
        } catch {
            #expect(error.description.contains("such as 20.0 ms"), "\(error.description)")
        }
        // Range ends stay Detent's own numbers: what a person types for the row.
        #expect(attack.rangeText == "0.00 … 1.00")
    }

    @Test("a row whose values Detent knows shows Detent's text; CLAP and VST3 read the plug-in's words")
    func clapAndVST3Entry() throws {
        for reference in ["clap:ZamComp", "vst3:ZamComp"] {
            let ratio = try Self.row(try Self.processor(reference), "ratio")
            #expect(ratio.format(4) == "4.00", "\(reference)")
            // Read in the plug-in's own floats: VST3's comes back through its normalized value.
            #expect(abs(try ratio.parse("6:1") - 6) < 1e-5, "\(reference): the plug-in reads 6:1")
        }
        // CLAP's value is the plug-in's own, held to the row's range; DPF's VST3 build holds
        // it to its range itself.
        let clap = try Self.row(try Self.processor("clap:ZamComp"), "ratio")
        #expect(throws: ParameterError.self) { try clap.parse("100:1") }
    }

    @Test("a plug-in run in another process has its words asked in a process of their own")
    func isolatedRowsAskElsewhere() throws {
        let processor = try Self.processor("vst2:1650946937")
        let elsewhere: Processor.KernelFactory = { _, _, _ in throw PluginError.notHostable(name: "x", reason: "runs elsewhere") }
        let alone = processor.makingKernels { _, _ in elsewhere }
        let attack = try Self.row(alone, "attack_time")
        // Words asked elsewhere are not moved again; the plug-in's own rows' are.
        #expect(try Self.row(processor, "attack_time").ownTexts?.texts.elsewhere(row: 0, reference: "r", identifier: "i") != nil)
        #expect(try #require(attack.ownTexts?.texts).elsewhere(row: 0, reference: "r", identifier: "i") == nil)
        #expect(attack.format(attack.defaultValue) == "20.0 ms")
        #expect(attack.format(try attack.parse("30 ms")) == "30.0 ms")
        // In a chain, the slot run elsewhere has its words there; the rest keep their own.
        let chain = try Processor.chain([("comp", processor), ("gain", .lowpassGain)])
        let isolated = chain.makingKernels { _, slot in slot == "comp" ? elsewhere : nil }
        let slotAttack = try Self.row(isolated, "comp.attack_time")
        #expect(try #require(slotAttack.ownTexts?.texts).elsewhere(row: 0, reference: "r", identifier: "i") == nil)
        #expect(slotAttack.format(slotAttack.defaultValue) == "20.0 ms")
        // A process that cannot find its plug-in answers nothing, once: Detent's numbers show.
        let lost = HelperTexts(reference: "/nonexistent/plugin.so", identifier: "vst2:0").row(0, showsOwnText: true)
        #expect(lost.text(for: 0.5) == nil && lost.value(for: "30 ms") == nil)
    }

    @Test("a plug-in's text is printed without control characters; --ascii spells its symbols")
    func printable() {
        #expect(BinaryTexts.printable("\u{1B}[31m12\u{07} ms\n") == "[31m12 ms")
        #expect(BinaryTexts.printable(" \u{0}\t ") == nil)
        #expect(OwnTexts.ascii("250 µs, 90°, −3 dB, ∞") == "250 us, 90 deg, -3 dB, inf")
    }
}
