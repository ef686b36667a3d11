import TextFormats
import AudioEngine
import Control
import Parameters
import Testing
import Web

/// The lines between `detent` and `detent-web`, without either program.
@Suite("Web bridge")
struct WebBridgeTests {
    @Test("A layout reads back as it was written: every kind, sections and outputs")
    func layoutRoundTrip() throws {
        let gain = ParameterSpec(id: "gain", name: "Gain", unit: .decibels, range: -60...12, taper: .linear,
                                 defaultValue: 0, smoothing: .linear, minimumIsSilence: true, midiController: 7,
                                 glidesInAmplitude: true)
        let table = try ParameterTable(PanelMessagesTests.table.specs + [gain])
        let layout = WebLayout(table: table, sections: [
            .init(name: "a", plugin: "Test", bypass: ParameterIndex(1), rows: [ParameterIndex(0), ParameterIndex(2)]),
            .init(name: "b", plugin: "Other", bypass: ParameterIndex(3), rows: [ParameterIndex(4)]),
        ], outputs: [OutputSpec(id: "meter", name: "Meter", unit: "dB", range: -70...0), OutputSpec(id: "gr", name: "GR")],
           connections: ["input>a", "key>b:sidechain", "a>b", "b>output"],
           files: [FileParameter(id: "b.ir", name: "Impulse", identifier: "", path: "/tmp/hall.wav"),
                   FileParameter(id: "b.sample", name: "Sample", identifier: "", path: nil)])
        let text = WebBridge.encode(layout).compactText
        let read = try #require(WebBridge.decodeLayout(try JSONParser.parse(Array(text.utf8))))
        #expect(read == layout)
        #expect(read.table.specs.map(\.glidesInAmplitude) == table.specs.map(\.glidesInAmplitude))
    }

    @Test("Questions are answered from the host; notices are told apart; other lines are dropped")
    func answers() throws {
        let host = Host()
        func handle(_ line: String) -> WebBridge.Handled? { WebBridge.handle(Array(line.utf8), host: host) }
        guard case .answer(let first)? = handle(#"{"op":"snapshot","have":-1}"#) else { Issue.record("no answer"); return }
        #expect(first.contains(#""layout""#) && first.contains(#""targets":[[0,2000]]"#))
        guard case .answer(let again)? = handle(#"{"op":"snapshot","have":3}"#) else { Issue.record("no answer"); return }
        #expect(!again.contains(#""layout""#))
        #expect(handle(#"{"op":"set","generation":3,"values":[[0,500]]}"#) == .answer(#"{"ok":true}"#))
        #expect(handle(#"{"op":"set","generation":2,"values":[[0,500]]}"#) == .answer(#"{"ok":false}"#))
        #expect(handle(#"{"op":"preset","name":"Warm","save":false}"#) == .answer(#"{"problem":"presets cannot be loaded or saved here"}"#))
        #expect(handle(#"{"op":"log","line":"a page misbehaved"}"#) == .notice(.log("a page misbehaved")))
        #expect(handle(#"{"op":"ready","url":"http://127.0.0.1:1/"}"#) == .notice(.ready(url: "http://127.0.0.1:1/")))
        #expect(handle("not json") == nil)
        #expect(handle(#"{"op":"set","generation":3,"values":[[-1,500]]}"#) == nil)
        #expect(handle(#"{"op":"set","generation":3,"values":[[4,500]]}"#) == nil)
        #expect(handle(#"{"op":"reset","generation":3,"row":9}"#) == nil)
        #expect(handle(#"{"op":"reset","generation":3,"row":1}"#) == .answer(#"{"ok":true}"#))
        // A host with no isolated slots: none down, and a restart says why not.
        #expect(handle(#"{"op":"faults"}"#) == .answer(#"{"faults":{}}"#))
        #expect(handle(#"{"op":"restart","slot":"drive"}"#)
            == .answer(#"{"problem":"restarting is for isolated slots (detent live --isolate)"}"#))
        #expect(handle(#"{"op":"restart"}"#) == nil)
        // A host that cannot change its rig says so; a malformed edit is no question.
        #expect(handle(#"{"op":"chain","edit":{"action":"remove","slot":"a"}}"#)
            == .answer(#"{"problem":"this panel cannot change its rig (detent live can)"}"#))
        #expect(handle(#"{"op":"chain","edit":{"action":"remove"}}"#) == nil)
        #expect(handle(#"{"op":"catalogue"}"#) == .answer(#"{"plugins":[]}"#))
    }

    @Test("Rig edits read back as written, and refuse what no edit is")
    func chainRequests() throws {
        let requests: [ChainRequest] = [
            .add(reference: "urn:zamaudio:ZamComp", name: "comp", position: 2), .add(reference: "MDA Overdrive", name: nil, position: nil),
            .insert(reference: "builtin", name: nil, from: "a", to: "output"), .remove("a"), .move("a", to: 3),
            .rename("a", to: "b"), .connect(from: "key", to: "a:sidechain"), .disconnect(from: "a", to: "output"),
        ]
        for request in requests { #expect(try ChainRequest.read(request.json).get() == request, "\(request)") }
        for bad in [#"{}"#, #"{"action":"move","slot":"a","position":0}"#, #"{"action":"move","slot":"a","position":1.5}"#,
                    #"{"action":"add","plugin":" "}"#, #"{"action":"rename","slot":"a"}"#, #"{"action":"connect","from":"a"}"#,
                    #"{"action":"add","plugin":"x","position":"last"}"#, #"{"action":"explode"}"#] {
            #expect(throws: ChainEditError.self, "\(bad)") { try ChainRequest.read(try JSONParser.parse(Array(bad.utf8))).get() }
        }
    }

    final class Host: WebPanelHost, @unchecked Sendable {
        var targets: [ParameterIndex: Double] = [ParameterIndex(0): 2000]
        func webSnapshot() -> WebSnapshot { WebSnapshot(layout: PanelMessagesTests.snapshot().layout, generation: 3, targets: targets) }
        func set(_ values: [ParameterIndex: Double], ifGeneration generation: Int) -> Bool {
            guard generation == 3 else { return false }
            targets.merge(values) { _, new in new }
            return true
        }
        func reset(_ index: ParameterIndex, ifGeneration generation: Int) -> Bool { generation == 3 }
    }
}
