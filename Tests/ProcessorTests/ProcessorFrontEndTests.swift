import OfflineRender
import AudioEngine
import Foundation
import Control
import KnobKit
import Parameters
import Presets
import TestSupport
import Testing
@testable import TerminalPanel

/// The seven-parameter probe processor driven through the engine, presets, automation, the
/// command interpreter and the panel, none of which was changed for it.
@Suite("A processor of another shape")
struct ProcessorFrontEndTests {
    let table = ProbeProcessor.table
    func index(_ id: String) -> ParameterIndex { try! table.index(of: id) }

    @Test("the engine glides continuous controls on its own grid, jumps stepped ones, whatever the blocks")
    func engine() throws {
        func run(block: Int) throws -> [[Float]] {
            let engine = Engine(processor: ProbeProcessor.processor, smoothingTime: 0.001, controlInterval: 32)
            try engine.prepare(sampleRate: 48_000, maxFrames: 256, channels: 7)
            return ProbeProcessor.render(engine, frames: 600, block: block, events: [
                ParameterChange(index("level"), 1, frame: 100),
                ParameterChange(index("bypass"), 1, frame: 130),
                ParameterChange(index("mode"), 2, frame: 131),
            ])
        }
        let out = try run(block: 256)
        #expect(try run(block: 100) == out)
        #expect(try run(block: 7) == out)
        // Level: 0.5 until 100, then 48 frames of glide in steps of a 32-frame grid, then 1.
        #expect(out[0][..<100].allSatisfy { $0 == 0.5 })
        #expect(out[0][100] == 0.5 && out[0][127] == 0.5)
        #expect(out[0][128] > 0.5 && out[0][128] < 1)
        #expect(Set(out[0][128..<160]).count == 1)
        #expect(out[0][200...].allSatisfy { $0 == 1 })
        // Bypass and mode jump exactly at their frames.
        #expect(out[4][129] == 0 && out[4][130] == 1)
        #expect(out[6][130] == 0 && out[6][131] == 2)
        // Voices and drive stay at their defaults (drive in dB: no amplitude mapping).
        #expect(out[5].allSatisfy { $0 == 4 } && out[3].allSatisfy { $0 == 0 })
    }

    @Test("an expensive parameter glides on a 64-frame grid, the others on the engine's")
    func expensiveGrid() throws {
        let costly = Processor(identifier: "test:costly", name: "Costly", table: table, expensive: [index("level")]) { _, _, _ in
            PreparedKernel(kernel: ExternalKernel(context: nil, run: { _, controls, _, outputs, channels, frames in
                for c in 0..<channels {
                    for i in 0..<frames { outputs[c][i] = controls[c % 7] }
                }
            }), owner: nil)
        }
        let engine = Engine(processor: costly, smoothingTime: 0.01)
        try engine.prepare(sampleRate: 48_000, maxFrames: 256, channels: 2)
        let out = ProbeProcessor.render(engine, channels: 2, frames: 1_024, block: 100, events: [
            ParameterChange(index("level"), 1, frame: 100), ParameterChange(index("freq"), 4_000, frame: 100),
        ])
        func changes(_ channel: [Float]) -> [Int] { (1..<channel.count).filter { channel[$0] != channel[$0 - 1] } }
        #expect(!changes(out[0]).isEmpty && changes(out[0]).allSatisfy { $0 % 64 == 0 })
        #expect(changes(out[1]).count > changes(out[0]).count)
        #expect(changes(out[1]).allSatisfy { $0 % Int(Engine.externalInterval) == 0 })
        #expect(changes(out[1]).contains { $0 % 64 != 0 })
    }

    @Test("a processor's NaN, infinite or huge output makes it pass its input on; a denormal is written as silence; each is counted")
    func sanitisedOutput() throws {
        // Channel 0 puts out a NaN, an infinity or 1e30 in the first 128 frames, then a
        // denormal (as bits: no arithmetic flushes it) and a normal 0.25 in turn; channel 1
        // only 0.25.
        let broken = Processor(identifier: "test:broken", name: "Broken", table: ProbeProcessor.table) { _, _, _ in
            PreparedKernel(kernel: ExternalKernel(context: nil, run: { _, _, _, outputs, _, frames in
                for i in 0..<frames {
                    outputs[0][i] = [Float.nan, .infinity, 1e30, Float(bitPattern: 1), 0.25][i % 5]
                    outputs[1][i] = 0.25
                }
            }), owner: nil)
        }
        let engine = Engine(processor: broken)
        try engine.prepare(sampleRate: 48_000, maxFrames: 256, channels: 2)
        let out = ProbeProcessor.render(engine, channels: 2, frames: 400, block: 256)
        // Every block holds an absurd sample: the processor passes its input (silence) on.
        #expect(out.allSatisfy { $0.allSatisfy { $0 == 0 } })
        #expect(engine.telemetry.absurdFrames() == [400])
        // Only a denormal: written as silence, the rest played, counted sample by sample.
        let denormal = Processor(identifier: "test:denormal", name: "Denormal", table: ProbeProcessor.table) { _, _, _ in
            PreparedKernel(kernel: ExternalKernel(context: nil, run: { _, _, _, outputs, _, frames in
                for i in 0..<frames {
                    outputs[0][i] = [Float(bitPattern: 1), 0.25][i % 2]
                    outputs[1][i] = 0.25
                }
            }), owner: nil)
        }
        let second = Engine(processor: denormal)
        try second.prepare(sampleRate: 48_000, maxFrames: 256, channels: 2)
        let played = ProbeProcessor.render(second, channels: 2, frames: 400, block: 256)
        #expect(played[0].enumerated().allSatisfy { $0.element == ($0.offset % 2 == 1 ? 0.25 : 0) })
        #expect(played[1].allSatisfy { $0 == 0.25 })
        #expect(second.telemetry.snapshot().sanitizedOutputSamples == 200)
        #expect(second.telemetry.absurdFrames() == [0])
    }

    @Test("the table prints with its kinds, and stepped values read and write as people type them")
    func text() throws {
        let text = ParameterTableText.table(table, ascii: true)
        #expect(text.contains("KIND"))
        #expect(text.contains("Low | Band | High"))
        #expect(table[index("mode")].format(1) == "Band")
        #expect(try table[index("mode")].parse("high") == 2)
        #expect(table[index("bypass")].format(1) == "on")
        #expect(try table[index("bypass")].parse("off") == 0)
        #expect(try table[index("voices")].parse("6.4") == 6)
        #expect(throws: ParameterError.self) { try table[index("mode")].parse("Notch") }
        #expect(table[index("mix")].format(25) == "25.0 %")
    }

    @Test("presets of the processor round-trip, and a preset of another processor is refused")
    func presets() throws {
        let scope = PresetScope(processor: ProbeProcessor.identifier, table: table)
        var values = ParameterValues(table: table)
        values[index("mode")] = 1.7  // snaps to High
        values[index("voices")] = 3
        let text = PresetCodec.encode(Preset(name: "Probe", values: values, processor: ProbeProcessor.identifier))
        #expect(text.contains(#""processor": "test:probe""#))
        let (back, warnings) = try PresetCodec.decode(Array(text.utf8), source: "p.json", scope: scope)
        #expect(warnings.isEmpty)
        #expect(back.values[index("mode")] == 2 && back.values[index("voices")] == 3)
        let builtIn = PresetCodec.encode(Preset(name: "Dark", values: ParameterValues(table: LowpassGain.table)))
        #expect(throws: PresetError.self) { try PresetCodec.decode(Array(builtIn.utf8), source: "d.json", scope: scope) }
        #expect(throws: PresetError.self) { try PresetCodec.decode(Array(text.utf8), source: "p.json") }
    }

    @Test("automation names the processor's ids and values")
    func automation() throws {
        let automation = try AutomationParser.parse("500ms mode High\n1s bypass on\n1.5s level 0.25 ramp 100ms\n",
                                                    path: "a.txt", table: table)
        let changes = try automation.changes(sampleRate: 1_000, input: "x.wav")
        #expect(changes.map(\.parameter) == [index("mode"), index("bypass"), index("level")])
        #expect(changes.map(\.value) == [2, 1, 0.25])
        #expect(throws: AudioFileError.self) { try AutomationParser.parse("0s cutoff 800\n", path: "a.txt", table: table) }
    }

    @Test("the command interpreter sets, reads and lists the processor's parameters")
    func commands() throws {
        final class Control: LiveControl, @unchecked Sendable {
            let table = ProbeProcessor.table
            private let lock = NSLock()
            private var values = ProbeProcessor.table.defaults
            func set(_ new: [ParameterIndex: Double]) { lock.withLock { values.merge(new) { $1 } } }
            func targets() -> [ParameterIndex: Double] { lock.withLock { values } }
            func status() -> HostStatus {
                HostStatus(server: "none", client: nil, sampleRate: nil, bufferSize: nil, xruns: 0, dspLoad: nil,
                           values: targets(), peaks: [], reconnects: 0)
            }
        }
        let control = Control()
        let interpreter = CommandInterpreter(control: control, presets: FactoryDefaultPresets(table: table))
        #expect(interpreter.respond(to: "set mode band")?.text(table) == "mode=Band")
        #expect(interpreter.respond(to: "set bypass on")?.text(table) == "bypass=on")
        #expect(interpreter.respond(to: "get voices")?.text(table) == "voices=4")
        #expect(interpreter.respond(to: "set cutoff 800")?.text(table).hasPrefix("error: unknown parameter 'cutoff'") == true)
        let all = try #require(interpreter.respond(to: "params")).text(table)
        #expect(all.hasPrefix("level=0.50, freq=440 Hz, mix=50.0 %, drive=0.0 dB, bypass=on, voices=4, mode=Band"))
        _ = interpreter.respond(to: "reset")
        #expect(control.targets() == table.defaults)
    }

    @Test("the panel shows every knob, steps an enumeration through its labels and flips a toggle")
    func panel() throws {
        let store = PresetStore(userDirectory: "/nonexistent/detent-probe",
                                scope: PresetScope(processor: ProbeProcessor.identifier, table: table))
        let host = NoAudioHost()
        let panel = Panel(values: ParameterValues(table: table), host: host, store: store, width: 120, height: 40)
        #expect(panel.knobs.count == 7)
        let mode = 6
        for _ in 0..<mode { panel.press(.tab, at: 0) }
        #expect(panel.knobs[panel.focus].scale.name == "Mode")
        panel.press(.up, at: 1)
        #expect(panel.knob(index("mode")).value == 1)
        panel.press(.up, at: 2)
        panel.press(.up, at: 3)  // stays on the last label
        #expect(panel.knob(index("mode")).value == 2)
        panel.press(.backTab, at: 4)
        panel.press(.backTab, at: 4)
        panel.press(.up, at: 5)
        #expect(panel.knob(index("bypass")).value == 1)
        #expect(host.sent.map(\.1) == [1, 2, 1])
        let screen = PanelRenderer.render(panel, at: 10).screen.text
        for name in table.specs.map(\.name) { #expect(screen.contains(name), "\(name) on screen") }
        #expect(screen.contains("High") && screen.contains("on"))
    }
}

extension Panel {
    /// Sends a key at `time`.
    func press(_ key: Key, at time: Double) { handle(.key(key, []), at: time) }
}
