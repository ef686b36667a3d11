import AudioEngine
import Foundation
import Control
import Testing
import Parameters
import TestSupport

@Suite struct CommandAnswerTests {
    /// An error repeats what was typed; typed escape sequences must not reach the terminal
    /// (`\e[2J` would clear it, `\e]0;…\a` set its title). JSON escapes them by itself.
    @Test func anErrorShowsTheControlCharactersItRepeats() throws {
        let interpreter = CommandInterpreter(control: FakeControl(), presets: FactoryDefaultPresets(table: LowpassGain.table))
        let answer = try #require(interpreter.respond(to: "\u{1B}[2J\u{1B}]0;pwned\u{07}"))
        let text = answer.text(LowpassGain.table)
        #expect(text == "error: unknown command '\\u{1b}[2J\\u{1b}]0;pwned\\u{7}' (try 'help')")
        #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .control })
        #expect(answer.json(LowpassGain.table).contains(#"\u001b[2J"#))
    }

    @Test func anUnknownLongWordIsShortened() {
        let word = String(repeating: "x", count: 500)
        #expect(CommandError.unknownCommand(word).description == "unknown command '\(String(repeating: "x", count: 40))…' (try 'help')")
    }

    @Test func valuesAsTextListEveryParameterInTableOrder() {
        let values: [ParameterIndex: Double] = [.cutoff: 440, .resonance: 2, .gain: -60]
        let expected = LowpassGain.table.ids.map { "\($0.id)=\(LowpassGain.table[$0].format(values[$0]!, ascii: true))" }
        #expect(CommandAnswer.values(values).text(LowpassGain.table) == expected.joined(separator: ", "))
        #expect(CommandAnswer.values(values).text(LowpassGain.table).hasSuffix("gain=-inf dB"))
    }

    @Test("answers write numbers as presets and params --json do: 20000, not 20000.0; non-finite as null")
    func oneNumberStyle() throws {
        let answer = CommandAnswer.value(.cutoff, 20_000).json(LowpassGain.table)
        #expect(answer.contains(#""value":20000,"#))
        #expect(!answer.contains("20000.0"))
        let status = HostStatus(server: "s", client: nil, sampleRate: nil, bufferSize: nil, xruns: 0,
                                dspLoad: .nan, values: [.cutoff: 1_000], peaks: [.infinity], reconnects: 0)
        let json = CommandAnswer.status(status).json(LowpassGain.table)
        #expect(json.contains(#""dspLoad":null"#) && json.contains(#""peaks":[null]"#))
        #expect(json.contains(#""values":{"cutoff":1000}"#))
    }

    @Test func valueAsJSON() throws {
        let json = try jsonObject(CommandAnswer.value(.gain, -6).json(LowpassGain.table))
        #expect(json["ok"] as? Bool == true)
        #expect(json["id"] as? String == "gain")
        #expect(json["value"] as? Double == -6)
        #expect(json["text"] as? String == LowpassGain.table[.gain].format(-6, ascii: true))
    }

    @Test func errorsAreEscapedJSONStrings() throws {
        let message = "odd \"name\"\\ with\na newline and \u{1} control"
        let json = try jsonObject(CommandAnswer.error(message).json(LowpassGain.table))
        #expect(json["ok"] as? Bool == false)
        #expect(json["error"] as? String == message)
        #expect(!CommandAnswer.error(message).json(LowpassGain.table).contains("\n"))
    }

    @Test func statusAsTextAndJSON() throws {
        let values: [ParameterIndex: Double] = [.cutoff: 1_000, .resonance: 0.707, .gain: 0]
        let status = HostStatus(server: "studio", client: "detent-01", sampleRate: 48_000, bufferSize: 128, xruns: 2,
                                dspLoad: 1.25, values: values, peaks: [0.5, 0], reconnects: 1)
        // 20·log10(0.5) = −6.02 dB.
        let text = CommandAnswer.status(status).text(LowpassGain.table)
        #expect(text == "server studio, client detent-01, 48000 Hz, 128 frames, xruns 2, DSP load "
                + "\(DecimalText.fixed(1.25, decimals: 1, ascii: true)) %, reconnects 1, "
                + CommandAnswer.values(values).text(LowpassGain.table) + ", peaks -6.0 dBFS / -inf dBFS")
        let json = try jsonObject(CommandAnswer.status(status).json(LowpassGain.table))
        #expect(json["server"] as? String == "studio")
        #expect(json["connected"] as? Bool == true)
        #expect(json["sampleRate"] as? Int == 48_000)
        #expect(json["bufferSize"] as? Int == 128)
        #expect(json["xruns"] as? Int == 2)
        #expect(json["dspLoad"] as? Double == 1.25)
        #expect((json["values"] as? [String: Double])?["resonance"] == 0.707)
        #expect((json["text"] as? [String: String])?["cutoff"] == LowpassGain.table[.cutoff].format(1_000, ascii: true))
        #expect(json["peaks"] as? [Double] == [0.5, 0])
    }

    @Test func disconnectedStatusHasNulls() throws {
        let status = HostStatus(server: "default", client: nil, sampleRate: nil, bufferSize: nil, xruns: 0,
                                dspLoad: nil, values: [:], peaks: [], reconnects: 0)
        #expect(CommandAnswer.status(status).text(LowpassGain.table).hasPrefix("server default, disconnected"))
        let json = try jsonObject(CommandAnswer.status(status).json(LowpassGain.table))
        #expect(json["connected"] as? Bool == false)
        #expect(json["client"] is NSNull)
        #expect(json["dspLoad"] is NSNull)
    }

    @Test func everyAnswerIsOneLineOfValidJSON() throws {
        let answers: [CommandAnswer] = [.value(.cutoff, 20), .values([.gain: 12]), .preset("A \"b\"", [.cutoff: 100]),
                                        .saved("x"), .help, .bye, .error("e")]
        for answer in answers {
            #expect(!answer.json(LowpassGain.table).contains("\n") && !answer.text(LowpassGain.table).contains("\n"))
            _ = try jsonObject(answer.json(LowpassGain.table))
        }
    }
}

extension CommandAnswerTests {
    @Test("chain answers a graph with its slots and connections, as text and JSON")
    func aGraphsChainAnswer() throws {
        let (order, routing) = try Processor.routing(slots: ["lo", "hi"], connections: [
            ("input", "lo"), ("input", "hi"), ("lo", "output"), ("hi", "output"),
        ], sideInputs: [0, 0])
        let graph = try Processor.graph(order.map { (["lo", "hi"][$0], Processor.lowpassGain) }, routing: routing)
        let answer = CommandAnswer.chain(ChainSlotText.slots(of: graph), connections: ChainSlotText.connections(of: graph))
        let name = Processor.lowpassGain.name
        #expect(answer.text(graph.table) == "graph lo (\(name)), hi (\(name)); input>lo input>hi lo>output hi>output")
        #expect(answer.json(graph.table).contains(#""connections":["input>lo","input>hi","lo>output","hi>output"]"#))
        let chain = try Processor.chain([("lo", .lowpassGain)])
        #expect(CommandAnswer.chain(ChainSlotText.slots(of: chain), connections: ChainSlotText.connections(of: chain))
            .text(chain.table) == "chain lo (\(name))")
    }
}
