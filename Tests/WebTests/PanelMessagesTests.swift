import AudioEngine
import Foundation
import Parameters
import Testing
import TestSupport
@testable import Web

/// The WebSocket's language and the OSCQuery tree, read and written without a socket.
@Suite("Panel messages")
struct PanelMessagesTests {
    static let table = try! ParameterTable([
        ParameterSpec(id: "freq", name: "Frequency", unit: .hertz, range: 20...20_000, taper: .logarithmic,
                      defaultValue: 1000, smoothing: .multiplicative),
        ParameterSpec(id: "on", name: "Enabled", unit: .none, range: 0...1, taper: .linear, defaultValue: 1,
                      smoothing: .none, kind: .toggle),
        ParameterSpec(id: "mode", name: "Mode", unit: .none, range: 0...2, taper: .linear, defaultValue: 0,
                      smoothing: .none, kind: .enumeration([ScalePoint(0, "Low"), ScalePoint(1, "Band"), ScalePoint(2, "High")])),
        ParameterSpec(id: "steps", name: "Steps", unit: .none, range: 1...8, taper: .linear, defaultValue: 4,
                      smoothing: .none, kind: .integer),
    ])

    static func snapshot(_ targets: [ParameterIndex: Double] = [:]) -> WebSnapshot {
        WebSnapshot(processor: Processor(identifier: "test", name: "Test", table: table, makeKernel: { _ in fatalError() }),
                    generation: 3, targets: targets)
    }

    @Test("Rig edits, files and the catalogue are read; a file's path is bounded; what no edit is closes the page")
    func rigRequests() throws {
        let table = Self.table
        #expect(try PanelMessages.read(#"{"type":"chain","action":"remove","slot":"a"}"#, table: table).get() == .chain(.remove("a")))
        #expect(try PanelMessages.read(#"{"type":"catalogue"}"#, table: table).get() == .catalogue)
        #expect(try PanelMessages.read(#"{"type":"file","id":"conv.ir","path":" /tmp/hall.wav "}"#, table: table).get()
            == .file(id: "conv.ir", path: "/tmp/hall.wav"))
        #expect(PanelMessages.read(#"{"type":"file","id":"conv.ir","path":""}"#, table: table) == .failure(.refused("conv.ir: name a file")))
        let long = String(repeating: "a", count: PanelMessages.maximumPath + 1)
        #expect(PanelMessages.read(#"{"type":"file","id":"conv.ir","path":"\#(long)"}"#, table: table) == .failure(.refused("conv.ir: not a path")))
        guard case .failure(.malformed(let why)) = PanelMessages.read(#"{"type":"chain","action":"move","slot":"a"}"#, table: table) else {
            Issue.record("a move without a position is no edit")
            return
        }
        #expect(why == "chain move: expects a slot and a position (1, 2, 3…)")
    }

    @Test("A page may change the rig with the token, or when its connection is this user's on the loopback")
    func trust() throws {
        #expect(PanelTrust.refusal(token: "secret", peerAddress: nil, peerPort: nil, serverPort: nil) == nil)
        #expect(PanelTrust.refusal(token: nil, peerAddress: "192.168.1.20", peerPort: 50_000, serverPort: 8080)?.contains("needs a token") == true)
        // A loopback port no connection of this user's has.
        #expect(PanelTrust.refusal(token: nil, peerAddress: "127.0.0.1", peerPort: 1, serverPort: 8080)?
            .contains("another user of this machine") == true)
        #expect(PanelTrust.isLoopback("::ffff:127.0.0.1") && PanelTrust.isLoopback("::1") && !PanelTrust.isLoopback("10.0.0.1"))
    }

    @Test("Requests are read against the table; refusals and malformed messages are told apart")
    func read() throws {
        let table = Self.table
        #expect(try PanelMessages.read(#"{"type":"position","id":"freq","position":1.5}"#, table: table).get() == .position(ParameterIndex(0), 1))
        #expect(try PanelMessages.read(#"{"type":"value","id":"mode","value":1.2}"#, table: table).get() == .value(ParameterIndex(2), 1))
        #expect(try PanelMessages.read(#"{"type":"text","id":"freq","text":"1.2k"}"#, table: table).get() == .value(ParameterIndex(0), 1200))
        #expect(try PanelMessages.read(#"{"type":"text","id":"mode","text":"High"}"#, table: table).get() == .value(ParameterIndex(2), 2))
        #expect(try PanelMessages.read(#"{"type":"reset","id":"steps"}"#, table: table).get() == .reset(ParameterIndex(3)))
        #expect(PanelMessages.read(#"{"type":"value","id":"freq","value":5}"#, table: table)
                == .failure(.refused("freq: 5.0 Hz is outside 20.0 Hz … 20.0 kHz")))
        #expect(PanelMessages.read(#"{"type":"value","id":"nope","value":5}"#, table: table) == .failure(.refused("no parameter 'nope'")))
        #expect(try PanelMessages.read(#"{"type":"preset","action":"save","name":" Warm "}"#, table: table).get() == .presetSave("Warm"))
        #expect(try PanelMessages.read(#"{"type":"preset","action":"load","name":"Warm"}"#, table: table).get() == .presetLoad("Warm"))
        #expect(PanelMessages.read(#"{"type":"preset","action":"load","name":" "}"#, table: table) == .failure(.refused("name the preset")))
        #expect(try PanelMessages.read(#"{"type":"learn","id":"mode"}"#, table: table).get() == .learn(ParameterIndex(2)))
        #expect(try PanelMessages.read(#"{"type":"learn"}"#, table: table).get() == .learn(nil))
        #expect(PanelMessages.read(#"{"type":"learn","id":"nope"}"#, table: table) == .failure(.refused("no parameter 'nope'")))
        #expect(try PanelMessages.read(#"{"type":"restart","slot":"drive"}"#, table: table).get() == .restart("drive"))
        #expect(PanelMessages.faults(["f2": "crashed (Aborted)", "f1": "exited (status 3)"])
            == #"{"type":"faults","faults":{"f1":"exited (status 3)","f2":"crashed (Aborted)"}}"#)
        #expect(PanelMessages.faults([:]) == #"{"type":"faults","faults":{}}"#)
        for bad in ["hello", "[]", #"{"type":"value"}"#, #"{"type":"learn","id":3}"#, #"{"type":"value","id":"freq","value":"x"}"#,
                    #"{"type":"dance","id":"freq"}"#, #"{"type":"restart"}"#, #"{"type":"restart","slot":""}"#, #"{"type":"preset","action":"burn","name":"x"}"#, #"{"type":"text","id":"freq","text":1}"#] {
            guard case .failure(.malformed) = PanelMessages.read(bad, table: table) else {
                Issue.record("\(bad) should be malformed")
                continue
            }
        }
    }

    @Test("The layout gives each kind what the page draws it with")
    func layout() throws {
        let text = PanelMessages.layout(Self.snapshot([ParameterIndex(0): 2000, ParameterIndex(2): 1]), title: "Test")
        let layout = try jsonObject(text)
        #expect(layout["type"] as? String == "layout" && layout["generation"] as? Int == 3 && layout["title"] as? String == "Test")
        let sections = try #require(layout["sections"] as? [[String: Any]])
        #expect(sections.count == 1 && sections[0]["name"] as? String == "" && sections[0]["bypass"] is NSNull)
        let parameters = try #require(sections[0]["parameters"] as? [[String: Any]])
        #expect(parameters.compactMap { $0["kind"] as? String } == ["continuous", "toggle", "enumeration", "integer"])
        #expect(parameters[0]["value"] as? Double == 2000 && parameters[0]["text"] as? String == "2.00 kHz")
        let position = try #require(parameters[0]["position"] as? Double)
        #expect(abs(position - log2(100) / log2(1000)) < 1e-12)
        #expect(parameters[1]["text"] as? String == "on")
        #expect((parameters[2]["options"] as? [[String: Any]])?.compactMap { $0["label"] as? String } == ["Low", "Band", "High"])
        #expect(parameters[2]["text"] as? String == "Band")
        #expect(parameters[3]["value"] as? Double == 4 && parameters[3]["min"] as? Double == 1)
    }

    @Test("OSCQuery: enumerations and toggles list their values; attributes come one by one")
    func oscQuery() throws {
        let node = try #require(OSCQueryNamespace.node(at: "/detent/param/mode", table: Self.table, targets: [:]))
        let object = try jsonObject(node.compactText)
        #expect((object["RANGE"] as? [[String: Any]])?.first?["VALS"] as? [Double] == [0, 1, 2])
        #expect(object["UNIT"] == nil)
        #expect(OSCQueryNamespace.node(at: "/detent/param/", table: Self.table, targets: [:]) != nil)
        #expect(OSCQueryNamespace.node(at: "/detent/other", table: Self.table, targets: [:]) == nil)
        #expect(OSCQueryNamespace.attribute("TYPE", of: node)?.compactText == #"{"TYPE":"f"}"#)
        #expect(OSCQueryNamespace.attribute("TAGS", of: node) == nil)
        let info = OSCQueryNamespace.hostInfo(name: "Detent", oscPort: nil, oscAddress: nil)
        #expect(info.member("OSC_PORT") == nil && info.member("NAME") == .string("Detent"))
    }

    @Test("OSCQuery: each slot's state is read at /detent/slot/NAME/state: on, bypassed or down")
    func oscQuerySlotState() throws {
        let slots = [(name: "lp", state: "on"), (name: "drive", state: "down")]
        let node = try #require(OSCQueryNamespace.node(at: "/detent/slot/drive/state", table: Self.table, targets: [:], slots: slots))
        #expect(OSCQueryNamespace.attribute("VALUE", of: node)?.compactText == #"{"VALUE":["down"]}"#)
        #expect(OSCQueryNamespace.attribute("ACCESS", of: node)?.compactText == #"{"ACCESS":1}"#)
        let root = try jsonObject(try #require(OSCQueryNamespace.node(at: "/", table: Self.table, targets: [:], slots: slots)).compactText)
        let detent = (root["CONTENTS"] as? [String: Any])?["detent"] as? [String: Any]
        let slot = (detent?["CONTENTS"] as? [String: Any])?["slot"] as? [String: Any]
        #expect((slot?["CONTENTS"] as? [String: Any])?.keys.sorted() == ["drive", "lp"])
        #expect(OSCQueryNamespace.node(at: "/detent/slot/nosuch/state", table: Self.table, targets: [:], slots: slots) == nil)
        #expect(OSCQueryNamespace.node(at: "/detent/slot", table: Self.table, targets: [:]) == nil, "no slots, no node")
    }

    @Test("Outputs: finite values rounded, silence as null")
    func outputs() throws {
        let text = PanelMessages.outputs([OutputValue(id: "gr", value: -3.123456), OutputValue(id: "level", value: -.infinity)])
        #expect(text == #"{"type":"outputs","values":[{"id":"gr","value":-3.1235},{"id":"level","value":null}]}"#)
    }

    @Test("A flood is cut at the budget each second")
    func budget() {
        var budget = MessageBudget()
        let start = ContinuousClock.now
        let taken = (0..<1000).filter { _ in budget.take(now: start) }.count
        #expect(taken == MessageBudget.perSecond && budget.dropped == 1000 - MessageBudget.perSecond)
        let next = budget.take(now: start + .seconds(1))
        #expect(next)
    }
}
